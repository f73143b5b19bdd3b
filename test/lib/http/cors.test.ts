// Cross-origin browser access (docs/security.md, "Browsers on other origins"): off by default; listed
// origins may call with a credential header; others get no CORS headers, so their pages cannot read answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corsOrigins } from '../../../src/lib/config/cors-origins.js';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';

const ALLOWED = 'https://viewer.example.com';

describe('CORS on the main API', () => {
  let open: TestPlatform;
  let closed: TestPlatform;
  beforeAll(async () => {
    open = await buildTestPlatform({ OVERLOOK_CORS_ORIGINS: `${ALLOWED}, http://localhost:5173` });
    closed = await buildTestPlatform();
  });
  afterAll(async () => {
    await open.close();
    await closed.close();
  });

  const preflight = (tp: TestPlatform, origin: string) =>
    tp.app.inject({
      method: 'OPTIONS',
      url: '/v2/projects',
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });

  it('a listed origin: preflight allowed with the credential headers, answers readable', async () => {
    const pre = await preflight(open, ALLOWED);
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(String(pre.headers['access-control-allow-headers'])).toContain('authorization');
    expect(pre.headers['access-control-allow-credentials']).toBeUndefined();
    const person = await open.person('cors');
    const res = await open.app.inject({ method: 'GET', url: '/v2/projects', headers: { ...person.auth, origin: ALLOWED } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(String(res.headers['access-control-expose-headers'])).toContain('retry-after');
  });

  it('another origin, and every origin when none is configured: no CORS headers', async () => {
    for (const [tp, origin] of [
      [open, 'https://evil.example'],
      [closed, ALLOWED],
    ] as const) {
      const pre = await preflight(tp, origin);
      expect(pre.headers['access-control-allow-origin']).toBeUndefined();
      const res = await tp.app.inject({ method: 'GET', url: '/health', headers: { origin } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });
});

describe('OVERLOOK_CORS_ORIGINS', () => {
  it('takes exact origins and refuses anything else, naming it', () => {
    expect(corsOrigins({ OVERLOOK_CORS_ORIGINS: 'https://a.example, http://127.0.0.1:8080' })).toEqual(['https://a.example', 'http://127.0.0.1:8080']);
    expect(corsOrigins({})).toEqual([]);
    for (const bad of ['*', 'https://a.example/path', 'a.example', 'ftp://a.example', 'https://a.example/']) {
      expect(() => corsOrigins({ OVERLOOK_CORS_ORIGINS: bad }), bad).toThrow(/OVERLOOK_CORS_ORIGINS/);
    }
  });
});
