// `/api/link`: recorder admins only, and every wrong input a clear 4xx with nothing stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE, FakePlatform } from '../helpers/fake-site-platform.js';
import { buildTestRecorder, type TestRecorder } from '../helpers/recorder.js';

const platform = new FakePlatform();
let r: TestRecorder;

beforeAll(async () => {
  await platform.start();
  r = await buildTestRecorder();
});
afterAll(async () => {
  await r?.close();
  await platform.stop();
});

const link = (payload: unknown, token = r.adminToken) =>
  r.app.inject({ method: 'POST', url: '/api/link', headers: r.bearer(token), payload: payload as Record<string, unknown> });

describe('/api/link', () => {
  it('is for recorder admins only', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      expect((await r.app.inject({ method, url: '/api/link' })).statusCode, method).toBe(401);
      const res = await r.app.inject({
        method,
        url: '/api/link',
        headers: r.bearer(r.userToken),
        payload: method === 'POST' ? { platform_url: platform.url, code: CODE } : undefined,
      });
      expect(res.statusCode, method).toBe(403);
    }
    expect(platform.pairings).toBe(0);
  });

  it('refuses bad input with 4xx and stores nothing', async () => {
    const cases: [unknown, number, RegExp][] = [
      [{ code: CODE }, 400, /platform_url/],
      [{ platform_url: platform.url }, 400, /code/],
      [{ platform_url: 'not a url', code: CODE }, 400, /platform_url/],
      [{ platform_url: 'ftp://127.0.0.1/', code: CODE }, 400, /platform_url/],
      [{ platform_url: `http://user:pw@127.0.0.1:${platform.port}`, code: CODE }, 400, /platform_url/],
      [{ platform_url: platform.url, code: '' }, 400, /code/],
      [{ platform_url: platform.url, code: CODE, extra: 1 }, 400, /extra|additional/i],
      [{ platform_url: platform.url, code: 'WRONG' }, 400, /refused the pairing code/],
      [{ platform_url: 'http://127.0.0.1:9', code: CODE }, 502, /could not be reached/],
    ];
    for (const [payload, status, message] of cases) {
      const res = await link(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().message, JSON.stringify(payload)).toMatch(message);
    }
    expect((await r.app.inject({ method: 'GET', url: '/api/link', headers: r.bearer(r.adminToken) })).json()).toMatchObject({
      state: 'unlinked',
      platform_url: null,
      backlog: { items: 0, bytes: 0 },
    });
    expect((await r.app.inject({ method: 'DELETE', url: '/api/link', headers: r.bearer(r.adminToken) })).statusCode).toBe(404);
  });

  it('links once; a second link needs an unlink first', async () => {
    const res = await link({ platform_url: `${platform.url}/`, code: CODE, recorder_name: 'Site office' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ platform_url: platform.url, link_id: 'link-1', project_exid: 'project-1' });
    expect((await link({ platform_url: platform.url, code: CODE })).statusCode).toBe(409);
    expect((await r.app.inject({ method: 'DELETE', url: '/api/link', headers: r.bearer(r.adminToken) })).statusCode).toBe(204);
    expect((await r.app.inject({ method: 'GET', url: '/api/link', headers: r.bearer(r.adminToken) })).json().state).toBe('unlinked');
  });
});
