// ANPR access rules: the four reads (camera:recordings), ingestion (an ingestion token of the
// path's camera, nothing else), token management and the watch list (people only, admins manage).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../../src/platform/access/scopes.js';
import { checkEndpointAccess, makeWorld, type AccessWorld, type EndpointSpec } from '../../helpers/access.js';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';
import { ingest, ingestionToken, jpeg, push } from './anpr-helpers.js';

let tp: TestPlatform;
beforeAll(async () => {
  tp = await buildTestPlatform();
});
afterAll(() => tp.close());

// Each world gets one event, pushed with an ingestion token of its keyed camera, and a watched plate.
const withEvent: EndpointSpec['setup'] = async (t, w) => {
  const { token, id } = await ingestionToken(t, w.owner, w.cameraExid);
  const event = await ingest(t, w.cameraExid, token, {
    plate_number: 'AB12 CDE',
    capture_time: '2026-11-20T08:00:00Z',
    direction: 'in',
    plate_image: (await jpeg()).toString('base64'),
  });
  const watch = await t.app.inject({
    method: 'POST',
    url: `/v2/projects/${w.projectExid}/anpr/watchlist`,
    headers: w.owner.auth,
    payload: { plate: 'AB12CDE', label: 'Site manager' },
  });
  expect(watch.statusCode).toBe(201);
  return { eventId: event.id, tokenId: id };
};

const read = (path: (w: AccessWorld) => string): EndpointSpec => ({
  method: 'GET',
  url: (w) => `/v2/cameras/${w.cameraExid}/anpr${path(w)}`,
  otherUrl: (w) => `/v2/cameras/${w.otherCameraExid}/anpr${path(w)}`,
  scopes: ['camera:recordings'],
  role: 'viewer',
  okStatus: 200,
  setup: withEvent,
});

describe('reads (camera:recordings, viewer)', () => {
  const specs: [string, EndpointSpec][] = [
    ['GET …/anpr', read(() => '')],
    ['GET …/anpr/matched', read(() => '/matched')],
    ['GET …/anpr/plates', read(() => '/plates')],
    ['GET …/anpr/{eventid}', read((w) => `/${w.extra.eventId}`)],
  ];
  for (const [name, spec] of specs) it(name, () => checkEndpointAccess(tp, spec));
});

describe('people-only management (closed to keys)', () => {
  const tokens = (w: AccessWorld) => `/v2/cameras/${w.cameraExid}/anpr/ingestion-tokens`;
  const watchlist = (w: AccessWorld) => `/v2/projects/${w.projectExid}/anpr/watchlist`;
  const specs: [string, EndpointSpec][] = [
    ['POST …/anpr/ingestion-tokens', { method: 'POST', url: tokens, payload: () => ({ name: 'Recorder' }), scopes: [], role: 'admin', okStatus: 201 }],
    ['GET …/anpr/ingestion-tokens', { method: 'GET', url: tokens, scopes: [], role: 'admin', okStatus: 200 }],
    [
      'DELETE …/anpr/ingestion-tokens/{token_id}',
      { method: 'DELETE', url: (w) => `${tokens(w)}/${w.extra.tokenId}`, scopes: [], role: 'admin', okStatus: 204, setup: withEvent },
    ],
    ['GET /v2/projects/{exid}/anpr/watchlist', { method: 'GET', url: watchlist, scopes: [], role: 'viewer', okStatus: 200 }],
    [
      'POST /v2/projects/{exid}/anpr/watchlist',
      { method: 'POST', url: watchlist, payload: () => ({ plate: 'XY99 ZZZ', label: 'Concrete supplier' }), scopes: [], role: 'admin', okStatus: 201 },
    ],
    [
      'DELETE /v2/projects/{exid}/anpr/watchlist/{plate}',
      { method: 'DELETE', url: (w) => `${watchlist(w)}/AB12CDE`, scopes: [], role: 'admin', okStatus: 204, setup: withEvent },
    ],
  ];
  for (const [name, spec] of specs) it(name, () => checkEndpointAccess(tp, spec));

  it('a viewer and an editor may read the watch list but manage neither it nor tokens; a stranger sees nothing', async () => {
    const w = await makeWorld(tp, { setup: withEvent });
    const stranger = await tp.person('stranger');
    for (const role of ['viewer', 'editor']) {
      const member = await tp.person(role);
      await tp.addMember(w.owner, w.projectExid, member, role);
      const calls = [
        { method: 'POST' as const, url: `/v2/cameras/${w.cameraExid}/anpr/ingestion-tokens`, payload: { name: 'x' } },
        { method: 'GET' as const, url: `/v2/cameras/${w.cameraExid}/anpr/ingestion-tokens` },
        { method: 'DELETE' as const, url: `/v2/cameras/${w.cameraExid}/anpr/ingestion-tokens/${w.extra.tokenId}` },
        { method: 'POST' as const, url: `/v2/projects/${w.projectExid}/anpr/watchlist`, payload: { plate: 'ZZ1', label: 'x' } },
        { method: 'DELETE' as const, url: `/v2/projects/${w.projectExid}/anpr/watchlist/AB12CDE` },
      ];
      for (const c of calls) {
        const res = await tp.app.inject({ ...c, headers: member.auth });
        expect(res.statusCode, `${role} ${c.method} ${c.url}`).toBe(403);
        expect(res.json().code).toBe('PERMISSION_DENIED');
        expect((await tp.app.inject({ ...c, headers: stranger.auth })).statusCode, `stranger ${c.method} ${c.url}`).toBe(404);
      }
      const list = await tp.app.inject({ method: 'GET', url: `/v2/projects/${w.projectExid}/anpr/watchlist`, headers: member.auth });
      expect(list.statusCode).toBe(200);
      expect(list.json()).toEqual([expect.objectContaining({ plate: 'AB12CDE', label: 'Site manager' })]);
    }
    // The token and the watched plate are still there.
    const again = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${w.cameraExid}/anpr/ingestion-tokens`, headers: w.owner.auth });
    expect(again.json()).toEqual([expect.objectContaining({ id: w.extra.tokenId, status: 'active' })]);
  });
});

describe('ingestion: POST …/anpr/events takes only an ingestion token of that camera', () => {
  const body = { plate_number: 'KL-55 MNO', capture_time: '2026-11-21T07:30:00+01:00' };

  it('a valid token: 201, in the Authorization header or in ?token=', async () => {
    const w = await makeWorld(tp);
    const { token } = await ingestionToken(tp, w.owner, w.cameraExid);
    const res = await push(tp, w.cameraExid, token, body);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      plate: 'KL55MNO',
      plate_raw: 'KL-55 MNO',
      captured_at: '2026-11-21T06:30:00.000Z',
      camera_exid: w.cameraExid,
      direction: 'unknown',
    });
    const byQuery = await tp.app.inject({ method: 'POST', url: `/v2/cameras/${w.cameraExid}/anpr/events?token=${token}`, payload: body });
    expect(byQuery.statusCode, byQuery.body).toBe(201);
  });

  it('no token, a wrong one, a revoked one, another camera’s, a JWT alone: 401 with a challenge', async () => {
    const w = await makeWorld(tp);
    const mine = await ingestionToken(tp, w.owner, w.cameraExid);
    const other = await ingestionToken(tp, w.owner, w.otherCameraExid);
    const revoked = await ingestionToken(tp, w.owner, w.cameraExid, 'old recorder');
    expect(await push(tp, w.cameraExid, revoked.token, body).then((r) => r.statusCode)).toBe(201);
    const del = await tp.app.inject({ method: 'DELETE', url: `/v2/cameras/${w.cameraExid}/anpr/ingestion-tokens/${revoked.id}`, headers: w.owner.auth });
    expect(del.statusCode).toBe(204);
    const flip = (t: string) => t.slice(0, -1) + (t.endsWith('A') ? 'B' : 'A');
    const url = `/v2/cameras/${w.cameraExid}/anpr/events`;
    const cases: [string, Record<string, string>, string?][] = [
      ['no credential', {}],
      ['a changed token', { authorization: `Bearer ${flip(mine.token)}` }],
      ['garbage', { authorization: 'Bearer oit_nope' }],
      ['a revoked token', { authorization: `Bearer ${revoked.token}` }],
      ['another camera’s token', { authorization: `Bearer ${other.token}` }],
      ['another camera’s token in ?token=', {}, `?token=${other.token}`],
      ['the owner’s JWT', w.owner.auth],
      ['the token without Bearer', { authorization: mine.token }],
    ];
    for (const [what, headers, query = ''] of cases) {
      const res = await tp.app.inject({ method: 'POST', url: url + query, headers, payload: body });
      expect(res.statusCode, what).toBe(401);
      expect(res.json().code, what).toBe('UNAUTHORIZED');
      expect(res.headers['www-authenticate'], what).toContain('invalid_token');
    }
    // Nothing was recorded by any of them: only the revoked token's earlier event.
    const list = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${w.cameraExid}/anpr`, headers: w.owner.auth });
    expect(list.json().meta.total_count).toBe(1);
    // The other camera's token still works on its own camera.
    expect((await push(tp, w.otherCameraExid, other.token, body)).statusCode).toBe(201);
  });

  it('an API key holding every scope: 403 ENDPOINT_CLOSED_TO_KEYS; a bad key: 401', async () => {
    const w = await makeWorld(tp);
    const key = await tp.key(w.owner, { projects: [w.projectExid, w.otherProjectExid], scopes: [...ALL_SCOPES] });
    const url = `/v2/cameras/${w.cameraExid}/anpr/events`;
    const res = await tp.app.inject({ method: 'POST', url, headers: key.headers, payload: body });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('ENDPOINT_CLOSED_TO_KEYS');
    const bad = await tp.app.inject({ method: 'POST', url, headers: { 'x-access-key': 'olk_garbage' }, payload: body });
    expect(bad.statusCode).toBe(401);
    const asBearer = await tp.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${key.key}` }, payload: body });
    expect(asBearer.statusCode).toBe(401);
  });

  it('a token is refused from the request after its revocation, and lists never show its value', async () => {
    const w = await makeWorld(tp);
    const t = await ingestionToken(tp, w.owner, w.cameraExid);
    expect((await push(tp, w.cameraExid, t.token, body)).statusCode).toBe(201);
    const list = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${w.cameraExid}/anpr/ingestion-tokens`, headers: w.owner.auth });
    expect(list.body).not.toContain(t.token);
    expect(list.json()[0]).toMatchObject({ id: t.id, status: 'active', hint: t.token.slice(0, 10), last_used_at: expect.any(String) });
    await tp.app.inject({ method: 'DELETE', url: `/v2/cameras/${w.cameraExid}/anpr/ingestion-tokens/${t.id}`, headers: w.owner.auth });
    expect((await push(tp, w.cameraExid, t.token, body)).statusCode).toBe(401);
    const after = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${w.cameraExid}/anpr/ingestion-tokens`, headers: w.owner.auth });
    expect(after.json()[0]).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) });
    // Revoking again is harmless; an unknown id is 404, a malformed one 400, another camera's token 404.
    const again = await tp.app.inject({ method: 'DELETE', url: `/v2/cameras/${w.cameraExid}/anpr/ingestion-tokens/${t.id}`, headers: w.owner.auth });
    expect(again.statusCode).toBe(204);
    const unknown = await tp.app.inject({
      method: 'DELETE',
      url: `/v2/cameras/${w.cameraExid}/anpr/ingestion-tokens/0190b7f0-0000-7000-8000-000000000000`,
      headers: w.owner.auth,
    });
    expect(unknown.statusCode).toBe(404);
    const malformed = await tp.app.inject({ method: 'DELETE', url: `/v2/cameras/${w.cameraExid}/anpr/ingestion-tokens/nope`, headers: w.owner.auth });
    expect(malformed.statusCode).toBe(400);
    const otherCam = await tp.app.inject({ method: 'DELETE', url: `/v2/cameras/${w.otherCameraExid}/anpr/ingestion-tokens/${t.id}`, headers: w.owner.auth });
    expect(otherCam.statusCode).toBe(404);
  });

  it('the token values are high-entropy, prefixed and distinct', async () => {
    const w = await makeWorld(tp);
    const a = await ingestionToken(tp, w.owner, w.cameraExid);
    const b = await ingestionToken(tp, w.owner, w.cameraExid);
    for (const t of [a.token, b.token]) expect(t).toMatch(/^oit_[0-9A-Za-z]{43}$/);
    expect(a.token).not.toBe(b.token);
  });
});
