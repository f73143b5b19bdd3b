// The request id (src/lib/http/request-id.ts): every response carries `x-request-id`, every error body
// repeats it as `request_id`, and a caller's own id is kept only when short and plain.
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';
import { buildTestRecorder, type TestRecorder } from '../../helpers/recorder.js';

let tp: TestPlatform;
let r: TestRecorder;
beforeAll(async () => {
  tp = await buildTestPlatform();
  r = await buildTestRecorder();
}, 120_000);
afterAll(async () => {
  await tp?.close();
  await r?.close();
});

type Case = { what: string; status: number; code: string; request: InjectOptions };

const services: { name: string; app: () => FastifyInstance; cases: Case[]; ok: string }[] = [
  {
    name: 'main API',
    app: () => tp.app,
    ok: '/health',
    cases: [
      { what: 'an unknown route', status: 404, code: 'NOT_FOUND', request: { method: 'GET', url: '/v2/no-such-thing' } },
      {
        what: 'a body failing validation',
        status: 400,
        code: 'VALIDATION_ERROR',
        request: { method: 'POST', url: '/v2/auth/login', payload: { username: 'x' } },
      },
      { what: 'no credential', status: 401, code: 'UNAUTHORIZED', request: { method: 'GET', url: '/v2/projects' } },
    ],
  },
  {
    name: 'recorder',
    app: () => r.app,
    ok: '/health',
    cases: [
      { what: 'an unknown route', status: 404, code: 'NOT_FOUND', request: { method: 'GET', url: '/api/no-such-thing' } },
      {
        what: 'a body failing validation',
        status: 400,
        code: 'VALIDATION_ERROR',
        request: { method: 'POST', url: '/api/users/login', payload: { username: 'x' } },
      },
      { what: 'no credential', status: 401, code: 'UNAUTHORIZED', request: { method: 'GET', url: '/api/devices' } },
    ],
  },
];

describe.each(services)('$name', ({ app, cases, ok }) => {
  it.each(cases)('$what: the error body carries the request id of the x-request-id header', async ({ status, code, request }) => {
    const res = await app().inject(request);
    expect(res.statusCode, res.body).toBe(status);
    const body = res.json();
    expect(body.code).toBe(code);
    expect(typeof body.message).toBe('string');
    expect(body.request_id).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
    expect(body.request_id).toBe(res.headers['x-request-id']);
  });

  it('keeps a short, plain incoming x-request-id, in the header and the error body', async () => {
    const res = await app().inject({ ...cases[0]!.request, headers: { 'x-request-id': 'lb-7f3a.2_x' } });
    expect(res.headers['x-request-id']).toBe('lb-7f3a.2_x');
    expect(res.json().request_id).toBe('lb-7f3a.2_x');
  });

  it('replaces an incoming id that is too long or holds other characters', async () => {
    for (const sent of ['x'.repeat(65), 'a b', 'id\u00e9', '<script>', '']) {
      const res = await app().inject({ ...cases[0]!.request, headers: { 'x-request-id': sent } });
      const id = res.headers['x-request-id'];
      expect(id, sent).not.toBe(sent);
      expect(id, sent).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.json().request_id).toBe(id);
    }
  });

  it('puts an x-request-id on successful answers too, a different one per request', async () => {
    const a = await app().inject({ method: 'GET', url: ok });
    const b = await app().inject({ method: 'GET', url: ok });
    expect(a.statusCode).toBe(200);
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers['x-request-id']).not.toBe(a.headers['x-request-id']);
  });
});
