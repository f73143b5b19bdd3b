// /v2/developer/apps: a person's own OAuth clients. People only (closed to API keys);
// each person sees and changes only their own; the metadata is validated by the authorization server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEndpointAccess, type AccessWorld, type EndpointSpec } from '../../helpers/access.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

let tp: TestPlatform;
beforeAll(async () => {
  tp = await buildTestPlatform();
});
afterAll(() => tp.close());

const REDIRECT = 'https://assistant.example.com/oauth/callback';
const create = (who: Person, payload: object) => tp.app.inject({ method: 'POST', url: '/v2/developer/apps', headers: who.auth, payload });
const withApp = async (t: TestPlatform, w: AccessWorld) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v2/developer/apps',
    headers: w.owner.auth,
    payload: { name: 'Access app', redirect_uris: [REDIRECT] },
  });
  return { app: res.json().id as string };
};

describe('access rules', () => {
  const specs: EndpointSpec[] = [
    { method: 'GET', url: () => '/v2/developer/apps', scopes: [], okStatus: 200 },
    { method: 'POST', url: () => '/v2/developer/apps', payload: () => ({ name: 'New app', redirect_uris: [REDIRECT] }), scopes: [], okStatus: 201 },
    { method: 'GET', url: (w) => `/v2/developer/apps/${w.extra.app}`, setup: withApp, scopes: [], okStatus: 200 },
    { method: 'PATCH', url: (w) => `/v2/developer/apps/${w.extra.app}`, payload: () => ({ name: 'Renamed' }), setup: withApp, scopes: [], okStatus: 200 },
    { method: 'DELETE', url: (w) => `/v2/developer/apps/${w.extra.app}`, setup: withApp, scopes: [], okStatus: 204 },
  ];
  for (const spec of specs) it(`${spec.method} ${spec.url({ extra: { app: '{id}' } } as never)}`, () => checkEndpointAccess(tp, spec));
});

describe('behaviour', () => {
  it('creates public and confidential apps, lists only the caller’s, edits and deletes them', async () => {
    const dev = await tp.person('dev');
    const other = await tp.person('other');

    const pub = await create(dev, {
      name: 'Site Assistant',
      redirect_uris: [REDIRECT, 'http://127.0.0.1/callback'],
      client_uri: 'https://assistant.example.com',
    });
    expect(pub.statusCode, pub.body).toBe(201);
    const a = pub.json();
    expect(a).toMatchObject({
      name: 'Site Assistant',
      confidential: false,
      token_endpoint_auth_method: 'none',
      redirect_uris: [REDIRECT, 'http://127.0.0.1/callback'],
      client_uri: 'https://assistant.example.com',
    });
    expect(a.client_id).toBe(a.id);
    expect(a.client_secret).toBeUndefined();

    const conf = await create(dev, { name: 'Back office', redirect_uris: [REDIRECT], confidential: true });
    expect(conf.statusCode).toBe(201);
    const b = conf.json();
    expect(b.confidential).toBe(true);
    expect(b.token_endpoint_auth_method).toBe('client_secret_basic');
    expect(b.client_secret).toMatch(/^[\w-]{40,}$/);

    const list = await tp.app.inject({ method: 'GET', url: '/v2/developer/apps', headers: dev.auth });
    expect(
      list
        .json()
        .map((x: { id: string }) => x.id)
        .sort(),
    ).toEqual([a.id, b.id].sort());
    for (const x of list.json()) expect(x.client_secret).toBeUndefined();
    expect((await tp.app.inject({ method: 'GET', url: '/v2/developer/apps', headers: other.auth })).json()).toEqual([]);

    // Another person's app is not found, whatever they try.
    for (const [method, payload] of [['GET'], ['PATCH', { name: 'Mine now' }], ['DELETE']] as const) {
      const res = await tp.app.inject({ method, url: `/v2/developer/apps/${a.id}`, headers: other.auth, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} by another person`).toBe(404);
    }

    const edited = await tp.app.inject({
      method: 'PATCH',
      url: `/v2/developer/apps/${a.id}`,
      headers: dev.auth,
      payload: { name: 'Site Assistant 2', redirect_uris: [REDIRECT] },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Site Assistant 2', redirect_uris: [REDIRECT] });
    expect((await tp.app.inject({ method: 'GET', url: `/v2/developer/apps/${a.id}`, headers: dev.auth })).json().name).toBe('Site Assistant 2');

    // The authorization server knows the app under its new name.
    const client = await servicesOf(tp.app).oauth.provider.Client.find(a.id);
    expect(client?.metadata().client_name).toBe('Site Assistant 2');

    expect((await tp.app.inject({ method: 'DELETE', url: `/v2/developer/apps/${a.id}`, headers: dev.auth })).statusCode).toBe(204);
    expect((await tp.app.inject({ method: 'GET', url: `/v2/developer/apps/${a.id}`, headers: dev.auth })).statusCode).toBe(404);
    expect(await servicesOf(tp.app).oauth.provider.Client.find(a.id)).toBeUndefined();
  });

  it('refuses bad input with 400 VALIDATION_ERROR', async () => {
    const dev = await tp.person('dev-bad');
    for (const [payload, field] of [
      [{ name: 'x', redirect_uris: ['not a url'] }, 'redirect_uris'],
      [{ name: 'x', redirect_uris: ['https://a.example.com/cb#frag'] }, 'redirect_uris'],
      [{ name: 'x', redirect_uris: [] }, 'redirect_uris'],
      [{ name: '', redirect_uris: [REDIRECT] }, 'name'],
      [{ redirect_uris: [REDIRECT] }, 'name'],
      [{ name: 'x', redirect_uris: [REDIRECT], client_uri: 'javascript:alert(1)' }, 'client_uri'],
      [{ name: 'x', redirect_uris: [REDIRECT], extra: 1 }, 'extra'],
    ] as const) {
      const res = await create(dev, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(res.json()), JSON.stringify(payload)).toContain(field);
    }
    const bad = await tp.app.inject({
      method: 'POST',
      url: '/v2/developer/apps',
      headers: { ...dev.auth, 'content-type': 'application/json' },
      payload: '{nope',
    });
    expect(bad.statusCode).toBe(400);
    const a = (await create(dev, { name: 'ok', redirect_uris: [REDIRECT] })).json();
    const patch = await tp.app.inject({ method: 'PATCH', url: `/v2/developer/apps/${a.id}`, headers: dev.auth, payload: { redirect_uris: ['ftp://x'] } });
    expect(patch.statusCode).toBe(400);
    for (const url of [`/v2/developer/apps/%00`, `/v2/developer/apps/a%00b`]) {
      const res = await tp.app.inject({ method: 'GET', url, headers: dev.auth });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
    }
    const nul = await create(dev, { name: 'a\u0000b', redirect_uris: [REDIRECT] });
    expect(nul.statusCode).toBe(400);
    const long = await tp.app.inject({ method: 'GET', url: `/v2/developer/apps/${'x'.repeat(300)}`, headers: dev.auth });
    expect(long.statusCode).toBeGreaterThanOrEqual(400);
    expect(long.statusCode).toBeLessThan(500);
  });
});
