// Per-key limits (docs/access-model.md, Key limits): a rate limit and an address allow-list, set on
// create and edit, shown in the record, checked right after the key is found valid, so a refusal is the
// same on every endpoint; and explained by the explainer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';

let tp: TestPlatform;
let owner: Person;
let exid: string;
let camera: string;
beforeAll(async () => {
  tp = await buildTestPlatform();
  owner = await tp.person('owner');
  exid = (await tp.project(owner, 'Limited site')).exid;
  camera = (await tp.camera(owner, exid)).exid;
});
afterAll(() => tp.close());

const future = () => new Date(Date.now() + 86_400_000).toISOString();

async function createKey(extra: Record<string, unknown>) {
  const res = await tp.app.inject({
    method: 'POST',
    url: '/v2/api-keys',
    headers: owner.auth,
    payload: { name: 'limited', expires_at: future(), projects: [exid], scopes: ['cameras:read'], ...extra },
  });
  return res;
}

const get = (key: string, url: string, ip = '127.0.0.1') => tp.app.inject({ method: 'GET', url, headers: { 'x-access-key': key }, remoteAddress: ip });

describe('key limits on the key record', () => {
  it('are set on create, shown, edited and cleared; none by default', async () => {
    const plain = (await createKey({})).json();
    expect(plain).toMatchObject({ rate_limit: null, allowed_ips: [] });
    const res = await createKey({ rate_limit: { requests: 100, window_seconds: 60 }, allowed_ips: ['203.0.113.0/24', '2001:db8::/32', '198.51.100.7'] });
    expect(res.statusCode, res.body).toBe(201);
    const k = res.json();
    expect(k).toMatchObject({ rate_limit: { requests: 100, window_seconds: 60 }, allowed_ips: ['203.0.113.0/24', '2001:db8::/32', '198.51.100.7/32'] });
    expect((await tp.app.inject({ method: 'GET', url: `/v2/api-keys/${k.id}`, headers: owner.auth })).json()).toMatchObject({
      rate_limit: { requests: 100, window_seconds: 60 },
    });
    const edited = await tp.app.inject({ method: 'PATCH', url: `/v2/api-keys/${k.id}`, headers: owner.auth, payload: { rate_limit: null, allowed_ips: [] } });
    expect(edited.json()).toMatchObject({ rate_limit: null, allowed_ips: [] });
  });

  it('400 VALIDATION_ERROR naming the field for a bad CIDR, a zero or huge limit', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ allowed_ips: ['203.0.113.0/33'] }, 'allowed_ips.0'],
      [{ allowed_ips: ['10.0.0.0/8', 'not-an-address'] }, 'allowed_ips.1'],
      [{ allowed_ips: ['2001:db8::/129'] }, 'allowed_ips.0'],
      [{ rate_limit: { requests: 0, window_seconds: 60 } }, 'rate_limit'],
      [{ rate_limit: { requests: 10, window_seconds: 10_000_000 } }, 'rate_limit'],
      [{ rate_limit: { requests: 1e12, window_seconds: 60 } }, 'rate_limit'],
      [{ rate_limit: { requests: 10 } }, 'rate_limit'],
    ];
    for (const [extra, field] of cases) {
      const res = await createKey(extra);
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(res.json().details ?? res.json().message), JSON.stringify(extra)).toContain(field);
    }
    const k = (await createKey({})).json();
    const patch = await tp.app.inject({ method: 'PATCH', url: `/v2/api-keys/${k.id}`, headers: owner.auth, payload: { allowed_ips: ['300.1.1.1'] } });
    expect(patch.statusCode).toBe(400);
    expect(patch.json().details[0].field).toContain('allowed_ips');
  });
});

describe('address allow-list', () => {
  it('403 IP_NOT_ALLOWED from elsewhere, whatever the endpoint; works from a listed address (IPv4 and IPv6)', async () => {
    const k = (await createKey({ allowed_ips: ['203.0.113.0/24', '2001:db8::/32'] })).json();
    expect((await get(k.key, `/v2/cameras/${camera}`, '203.0.113.9')).statusCode).toBe(200);
    expect((await get(k.key, `/v2/cameras/${camera}`, '::ffff:203.0.113.10')).statusCode).toBe(200);
    expect((await get(k.key, `/v2/cameras/${camera}`, '2001:db8:1::5')).statusCode).toBe(200);
    // Refused the same on a reachable endpoint, a closed one and an unknown camera: nothing learnt.
    const refusals = await Promise.all(
      [`/v2/cameras/${camera}`, '/v2/api-keys', '/v2/cameras/no-such-camera', `/v2/projects/${exid}/members`].map((u) => get(k.key, u, '198.51.100.7')),
    );
    for (const r of refusals) {
      expect(r.statusCode).toBe(403);
      expect(r.json().code).toBe('IP_NOT_ALLOWED');
      // Each answer names its own request; the rest is the same byte for byte.
      const { request_id, ...rest } = r.json();
      expect(request_id).toBe(r.headers['x-request-id']);
      expect(JSON.stringify(rest)).toBe(JSON.stringify({ ...refusals[0]!.json(), request_id: undefined }));
    }
    // An edit takes effect on the next request.
    await tp.app.inject({ method: 'PATCH', url: `/v2/api-keys/${k.id}`, headers: owner.auth, payload: { allowed_ips: null } });
    expect((await get(k.key, `/v2/cameras/${camera}`, '198.51.100.7')).statusCode).toBe(200);
  });
});

describe('rate limit', () => {
  it('429 with RateLimit-Policy, RateLimit and Retry-After past the limit, on any endpoint; other keys unaffected', async () => {
    const k = (await createKey({ rate_limit: { requests: 3, window_seconds: 120 } })).json();
    const free = (await createKey({})).json();
    // Every admitted answer says what is left, so a client can pace itself before it is refused.
    for (let i = 0; i < 3; i++) {
      const ok = await get(k.key, `/v2/cameras/${camera}`);
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['ratelimit-policy']).toBe('"key";q=3;w=120');
      expect(ok.headers.ratelimit).toMatch(new RegExp(`^"key";r=${2 - i};t=\\d+$`));
    }
    const over = await get(k.key, `/v2/cameras/${camera}`);
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('TOO_MANY_REQUESTS');
    expect(over.headers['ratelimit-policy']).toBe('"key";q=3;w=120');
    expect(over.headers.ratelimit).toMatch(/^"key";r=0;t=\d+$/);
    const wait = Number(over.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(120);
    // The same answer on a closed endpoint: a limited request learns nothing about the endpoint.
    const closed = await get(k.key, '/v2/api-keys');
    expect(closed.statusCode).toBe(429);
    expect(closed.json().code).toBe('TOO_MANY_REQUESTS');
    for (let i = 0; i < 5; i++) expect((await get(free.key, `/v2/cameras/${camera}`)).statusCode).toBe(200);
    expect((await get(free.key, `/v2/cameras/${camera}`)).headers.ratelimit).toBeUndefined();
    // Raising the limit is a new limit with a fresh count, at once.
    await tp.app.inject({ method: 'PATCH', url: `/v2/api-keys/${k.id}`, headers: owner.auth, payload: { rate_limit: { requests: 10, window_seconds: 120 } } });
    expect((await get(k.key, `/v2/cameras/${camera}`)).statusCode).toBe(200);
  });
});

describe('the explainer reports the limits', () => {
  const explain = async (id: string, body: Record<string, unknown>) =>
    (
      await tp.app.inject({
        method: 'POST',
        url: `/v2/api-keys/${id}/explain`,
        headers: owner.auth,
        payload: { method: 'GET', path: `/v2/cameras/${camera}`, ...body },
      })
    ).json();

  it('says whether the allow-list would refuse an address, and whether the rate limit is spent', async () => {
    const k = (await createKey({ allowed_ips: ['203.0.113.0/24'], rate_limit: { requests: 2, window_seconds: 300 } })).json();
    const outside = await explain(k.id, { ip: '198.51.100.1' });
    expect(outside).toMatchObject({ allowed: false, status: 403, code: 'IP_NOT_ALLOWED' });
    expect(outside.steps.map((s: { step: string }) => s.step)).toEqual(['key', 'limits']);
    const inside = await explain(k.id, { ip: '203.0.113.5' });
    expect(inside.allowed).toBe(true);
    expect(inside.steps[1].detail).toContain('2 requests per 300 s');
    for (let i = 0; i < 2; i++) await get(k.key, `/v2/cameras/${camera}`, '203.0.113.5');
    expect(await explain(k.id, { ip: '203.0.113.5' })).toMatchObject({ allowed: false, status: 429, code: 'TOO_MANY_REQUESTS' });
    expect(
      (
        await tp.app.inject({
          method: 'POST',
          url: `/v2/api-keys/${k.id}/explain`,
          headers: owner.auth,
          payload: { method: 'GET', path: '/v2/cameras', ip: 'nowhere' },
        })
      ).statusCode,
    ).toBe(400);
  });
});

describe('cost on the request path', () => {
  it('a limited key is served from the key cache: its limits need no database read', async () => {
    const k = (await createKey({ rate_limit: { requests: 1000, window_seconds: 60 }, allowed_ips: ['127.0.0.0/8'] })).json();
    expect((await get(k.key, `/v2/cameras/${camera}`)).statusCode).toBe(200);
    // Behind the cache's back (no forget): a database read would now find nothing.
    await tp.t.db.kysely.updateTable('api_keys').set({ key_hash: 'gone' }).where('id', '=', k.id).execute();
    for (let i = 0; i < 3; i++) expect((await get(k.key, `/v2/cameras/${camera}`)).statusCode).toBe(200);
  });
});
