// The recorder's CORS (docs/security.md, "Browsers on other origins"): a player page on a listed origin
// may fetch playlists and call the API; other origins get no CORS headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecorder, type TestRecorder } from '../../helpers/recorder.js';

const ALLOWED = 'https://player.example.com';
let rec: TestRecorder;
beforeAll(async () => {
  rec = await buildTestRecorder({ OVERLOOK_CORS_ORIGINS: ALLOWED });
});
afterAll(() => rec.close());

describe('recorder CORS', () => {
  it('preflight and answers carry CORS headers for the listed origin only', async () => {
    const pre = await rec.app.inject({
      method: 'OPTIONS',
      url: '/api/devices',
      headers: { origin: ALLOWED, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(ALLOWED);
    const res = await rec.app.inject({ method: 'GET', url: '/api/devices', headers: { ...rec.bearer(rec.adminToken), origin: ALLOWED } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
    const other = await rec.app.inject({ method: 'GET', url: '/api/devices', headers: { ...rec.bearer(rec.adminToken), origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});
