// Sign-in options, providers and connected OAuth providers (user:info), /health and JWKS.
import { importJWK, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';
import { checkEndpointAccess } from '../../helpers/access.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

let tp: TestPlatform;
beforeAll(async () => {
  tp = await buildTestPlatform();
});
afterAll(() => tp.close());

describe('sign-in options and providers', () => {
  for (const url of ['/v2/auth/options', '/v2/auth/signup_options', '/v2/oauth2-tokens/providers']) {
    it(`GET ${url}: access rules`, () => checkEndpointAccess(tp, { method: 'GET', url: () => url, scopes: ['user:info'], okStatus: 200 }));
  }

  it('password sign-in offered; no providers until configured; an unknown provider is 404', async () => {
    const me = await tp.person('me');
    expect((await tp.app.inject({ method: 'GET', url: '/v2/auth/options', headers: me.auth })).json()).toEqual({ password: true, providers: [] });
    expect((await tp.app.inject({ method: 'GET', url: '/v2/auth/signup_options', headers: me.auth })).json()).toMatchObject({
      signup_enabled: expect.any(Boolean),
      providers: [],
    });
    const prov = await tp.app.inject({ method: 'GET', url: '/v2/auth/provider/google', headers: me.auth });
    expect(prov.statusCode).toBe(404);
    expect(prov.json().message).toContain('google');
  });

  it('connected providers come from the table, per person', async () => {
    const me = await tp.person('me');
    const other = await tp.person('other');
    const url = '/v2/oauth2-tokens/providers';
    expect((await tp.app.inject({ method: 'GET', url, headers: me.auth })).json()).toEqual([]);
    // The connectors' connections table (src/platform/connectors): tokens sealed, never listed.
    await servicesOf(tp.app).connectors.store.saveConnection(me.id, 'procore', {
      authKind: 'oauth',
      accessToken: 'secret-access',
      refreshToken: 'secret-refresh',
      scopes: ['read'],
    });
    const mine = await tp.app.inject({ method: 'GET', url, headers: me.auth });
    expect(mine.json()).toEqual([
      { provider: 'procore', name: 'Procore', auth_kind: 'oauth', scopes: ['read'], connected_at: expect.any(String), expires_at: null },
    ]);
    expect(mine.body).not.toContain('secret-access');
    expect(mine.body).not.toContain('secret-refresh');
    expect((await tp.app.inject({ method: 'GET', url, headers: other.auth })).json()).toEqual([]);
  });
});

describe('health and JWKS', () => {
  it('/health answers without a credential', async () => {
    const res = await tp.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('ok');
  });

  it('a session JWT verifies against the published JWKS (no shared secret)', async () => {
    const me = await tp.person('me');
    const jwks = (await tp.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0].d).toBeUndefined();
    const key = await importJWK(jwks.keys[0], jwks.keys[0].alg);
    const { payload } = await jwtVerify(me.token, key);
    expect(payload.sub).toBe(me.id);
  });
});
