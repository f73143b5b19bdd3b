// The authorization server of the main API: metadata (RFC 8414), dynamic registration (RFC 7591),
// authorization code with PKCE (S256 only), refresh-token rotation, JWT access tokens for the MCP
// resource that the main API also accepts as the person, survival across a restart, and the OAuth
// routes closed to API keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { buildPlatformApp } from '../../../src/platform/app.js';
import { ALL_SCOPES } from '../../../src/platform/access/scopes.js';
import { CookieJar, browse, follow, pkcePair, signInAndConsent } from '../../helpers/oauth-flow.js';
import { REDIRECT, authorizationUrl, obtainTokens, registerClient, startOauthServers, tokenRequest, type OauthServers } from '../../helpers/oauth-servers.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

let s: OauthServers;
beforeAll(async () => {
  s = await startOauthServers();
});
afterAll(() => s.close());

describe('metadata', () => {
  it('publishes RFC 8414 metadata at the issuer with code + PKCE S256 and a registration endpoint', async () => {
    const res = await fetch(`${s.apiUrl}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    const m = await res.json();
    expect(m.issuer).toBe(s.apiUrl);
    expect(m.authorization_endpoint).toBe(`${s.apiUrl}/oauth/auth`);
    expect(m.token_endpoint).toBe(`${s.apiUrl}/oauth/token`);
    expect(m.registration_endpoint).toBe(`${s.apiUrl}/oauth/reg`);
    expect(m.jwks_uri).toBe(`${s.apiUrl}/oauth/jwks`);
    expect(m.code_challenge_methods_supported).toEqual(['S256']);
    expect(m.response_types_supported).toEqual(['code']);
    expect(m.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(m.scopes_supported).toContain('mcp');
    const jwksRes = await fetch(m.jwks_uri);
    // Answered by the OAuth library on the raw response (a hijacked reply): the request id is there too.
    expect(jwksRes.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const jwks = await jwksRes.json();
    expect(jwks.keys.length).toBeGreaterThan(0);
    for (const k of jwks.keys) expect(k.d).toBeUndefined();
  });
});

describe('dynamic client registration', () => {
  it('registers a public client and refuses bad metadata', async () => {
    const c = await registerClient(s.apiUrl, { client_name: 'Registered app' });
    expect(c.client_id).toMatch(/^[\w-]{20,}$/);
    expect(c.client_name).toBe('Registered app');
    expect(c.token_endpoint_auth_method).toBe('none');
    expect(c.redirect_uris).toEqual([REDIRECT]);

    const bad = await fetch(`${s.apiUrl}/oauth/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['not a url'] }),
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatch(/invalid_redirect_uri|invalid_client_metadata/);
    const notJson = await fetch(`${s.apiUrl}/oauth/reg`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' });
    expect(notJson.status).toBe(400);
  });
});

describe('authorization code with PKCE', () => {
  it('signs in, shows the app and scopes on the consent page, and issues a JWT for the MCP resource the main API accepts', async () => {
    const person = await s.tp.person('olivia');
    const client = await registerClient(s.apiUrl, { client_name: 'Site Assistant' });
    const tokens = await obtainTokens(s, person, client.client_id);
    expect(tokens.consentPage).toContain('Site Assistant');
    expect(tokens.consentPage).toContain('<code>mcp</code>');
    expect(tokens.consentPage).toContain(person.email);

    expect(decodeProtectedHeader(tokens.access_token).typ).toBe('at+jwt');
    const claims = decodeJwt(tokens.access_token);
    expect(claims.iss).toBe(s.apiUrl);
    expect(claims.sub).toBe(person.id);
    expect(claims.aud).toEqual([s.mcpUrl, `${s.apiUrl}/v2`]);
    expect(claims.scope).toBe('mcp');
    expect(tokens.refresh_token).toBeTruthy();

    const me = await fetch(`${s.apiUrl}/v2/auth/users/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(me.status).toBe(200);
    expect((await me.json()).email).toBe(person.email);
  });

  it('refuses a wrong password on the sign-in page and issues nothing', async () => {
    const person = await s.tp.person('wrongpw');
    const { client_id } = await registerClient(s.apiUrl);
    const { challenge } = pkcePair();
    const jar = new CookieJar();
    const page = await follow(
      jar,
      await browse(jar, authorizationUrl(s.apiUrl, { client_id, code_challenge: challenge, code_challenge_method: 'S256' })),
      s.apiUrl,
    );
    expect(page.status).toBe(200);
    expect(page.body).toContain('Test assistant');
    const uid = new URL(page.url).pathname.split('/').pop();
    const res = await browse(jar, `${s.apiUrl}/oauth/interaction/${uid}/login`, { form: { email: person.email, password: 'not-the-password' } });
    expect(res.status).toBe(401);
    expect(res.body).toContain('Wrong e-mail or password');
  });

  it('treats a NUL byte in the sign-in form as wrong credentials', async () => {
    const { client_id } = await registerClient(s.apiUrl);
    const jar = new CookieJar();
    const page = await follow(
      jar,
      await browse(jar, authorizationUrl(s.apiUrl, { client_id, code_challenge: pkcePair().challenge, code_challenge_method: 'S256' })),
      s.apiUrl,
    );
    const uid = new URL(page.url).pathname.split('/').pop();
    const res = await browse(jar, `${s.apiUrl}/oauth/interaction/${uid}/login`, { form: { email: 'a\u0000@example.com', password: 'x\u0000' } });
    expect(res.status).toBe(401);
  });

  it('refuses the plain PKCE method and a request without a challenge', async () => {
    const { client_id } = await registerClient(s.apiUrl);
    for (const params of <Record<string, string>[]>[{ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, {}]) {
      // Shown on a page, not sent to the client's redirect URI before the person has seen anything.
      const res = await fetch(authorizationUrl(s.apiUrl, { client_id, ...params }), { redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain('invalid_request');
    }
  });

  it('refuses a code exchange without the verifier or with a wrong one', async () => {
    const person = await s.tp.person('pkce');
    const { client_id } = await registerClient(s.apiUrl);
    const { verifier, challenge } = pkcePair();
    const flow = await signInAndConsent(
      authorizationUrl(s.apiUrl, { client_id, code_challenge: challenge, code_challenge_method: 'S256', resource: s.mcpUrl }),
      person,
    );
    const code = flow.redirect.searchParams.get('code')!;
    const base = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id, resource: s.mcpUrl };
    const missing = await tokenRequest(s.apiUrl, base);
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toBe('invalid_grant');
    const wrong = await tokenRequest(s.apiUrl, { ...base, code_verifier: pkcePair().verifier });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error).toBe('invalid_grant');
    // Refused attempts do not spend the code; the right verifier redeems it, once.
    const right = await tokenRequest(s.apiUrl, { ...base, code_verifier: verifier });
    expect(right.status).toBe(200);
    const replay = await tokenRequest(s.apiUrl, { ...base, code_verifier: verifier });
    expect(replay.status).toBe(400);
    expect((await replay.json()).error).toBe('invalid_grant');
  });
});

describe('refresh tokens', () => {
  it('rotates on every use and refuses the old one', async () => {
    const person = await s.tp.person('refresh');
    const t = await obtainTokens(s, person);
    const first = await tokenRequest(s.apiUrl, { grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: t.client_id, resource: s.mcpUrl });
    expect(first.status).toBe(200);
    const t2 = await first.json();
    expect(t2.refresh_token).toBeTruthy();
    expect(t2.refresh_token).not.toBe(t.refresh_token);
    expect(decodeJwt(t2.access_token).sub).toBe(person.id);

    const again = await tokenRequest(s.apiUrl, { grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: t.client_id, resource: s.mcpUrl });
    expect(again.status).toBe(400);
    expect((await again.json()).error).toBe('invalid_grant');
  });
});

describe('access tokens at the main API', () => {
  it('stops working when the app is deleted (its grant goes with it)', async () => {
    const owner = await s.tp.person('dev');
    const created = await s.tp.app.inject({
      method: 'POST',
      url: '/v2/developer/apps',
      headers: owner.auth,
      payload: { name: 'Short-lived', redirect_uris: [REDIRECT] },
    });
    expect(created.statusCode).toBe(201);
    const app = created.json();
    const person = await s.tp.person('user-of-app');
    const t = await obtainTokens(s, person, app.client_id);
    const ok = await fetch(`${s.apiUrl}/v2/auth/users/me`, { headers: { authorization: `Bearer ${t.access_token}` } });
    expect(ok.status).toBe(200);
    expect((await s.tp.app.inject({ method: 'DELETE', url: `/v2/developer/apps/${app.id}`, headers: owner.auth })).statusCode).toBe(204);
    const gone = await fetch(`${s.apiUrl}/v2/auth/users/me`, { headers: { authorization: `Bearer ${t.access_token}` } });
    expect(gone.status).toBe(401);
    const refresh = await tokenRequest(s.apiUrl, { grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: app.client_id, resource: s.mcpUrl });
    expect(refresh.status).toBe(401);
  });

  it('reaches the endpoints open to delegated access, and none of the people-only ones', async () => {
    const person = await s.tp.person('delegated');
    const project = await s.tp.project(person, 'Delegated site');
    const t = await obtainTokens(s, person);
    const as = { authorization: `Bearer ${t.access_token}` };
    const projects = await fetch(`${s.apiUrl}/v2/projects`, { headers: as });
    expect(projects.status).toBe(200);
    expect((await projects.json()).map((p: { exid: string }) => p.exid)).toEqual([project.exid]);
    for (const [method, path] of [
      ['GET', '/v2/api-keys'],
      ['POST', '/v2/developer/apps'],
      ['GET', '/v2/developer/apps'],
      ['DELETE', '/v2/auth/logout'],
    ]) {
      const res = await fetch(`${s.apiUrl}${path}`, {
        method,
        headers: { ...as, 'content-type': 'application/json' },
        body: method === 'POST' ? JSON.stringify({ name: 'x', redirect_uris: [REDIRECT] }) : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect((await res.json()).code).toBe('NOT_ALLOWED_WITH_OAUTH_TOKEN');
    }
    // The person's own JWT still reaches them.
    expect((await fetch(`${s.apiUrl}/v2/api-keys`, { headers: person.auth })).status).toBe(200);
  });

  it('refuses a token for an unknown resource at the token endpoint', async () => {
    const { client_id } = await registerClient(s.apiUrl);
    const res = await fetch(
      authorizationUrl(s.apiUrl, { client_id, code_challenge: pkcePair().challenge, code_challenge_method: 'S256', resource: 'http://127.0.0.1:1/elsewhere' }),
      { redirect: 'manual' },
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('invalid_target');
  });
});

describe('OAuth routes are closed to API keys', () => {
  it('answers 403 ENDPOINT_CLOSED_TO_KEYS on authorize, callback/resume, consent, sign-in and token; the metadata stays public', async () => {
    const owner = await s.tp.person('keyholder');
    const p = await s.tp.project(owner, 'Keyed');
    const key = await s.tp.key(owner, { projects: [p.exid], scopes: [...ALL_SCOPES] });
    const { client_id } = await registerClient(s.apiUrl);
    const urls: [string, string][] = [
      ['GET', authorizationUrl(s.apiUrl, { client_id, code_challenge: pkcePair().challenge, code_challenge_method: 'S256' })],
      ['GET', `${s.apiUrl}/oauth/auth/some-uid`],
      ['GET', `${s.apiUrl}/oauth/interaction/some-uid`],
      ['POST', `${s.apiUrl}/oauth/interaction/some-uid/login`],
      ['POST', `${s.apiUrl}/oauth/interaction/some-uid/confirm`],
      ['POST', `${s.apiUrl}/oauth/interaction/some-uid/abort`],
      ['POST', `${s.apiUrl}/oauth/token`],
      ['POST', `${s.apiUrl}/oauth/reg`],
    ];
    for (const [method, url] of urls) {
      const res = await fetch(url, { method, headers: key.headers, redirect: 'manual' });
      expect(res.status, `${method} ${url}`).toBe(403);
      expect((await res.json()).code).toBe('ENDPOINT_CLOSED_TO_KEYS');
    }
    for (const url of [`${s.apiUrl}/.well-known/oauth-authorization-server`, `${s.apiUrl}/oauth/jwks`]) {
      expect((await fetch(url, { headers: key.headers })).status, url).toBe(200);
    }
  });

  it('shows an error page, not a 5xx, for an unknown interaction', async () => {
    const res = await fetch(`${s.apiUrl}/oauth/interaction/nope`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('expired');
    const post = await fetch(`${s.apiUrl}/oauth/interaction/nope/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=a&password=b',
    });
    expect(post.status).toBe(400);
  });
});

describe('malformed input', () => {
  it('never answers 5xx', async () => {
    const form = 'application/x-www-form-urlencoded';
    const cases: [string, string, Record<string, string>, string | undefined][] = [
      ['POST', '/oauth/token', { 'content-type': form }, ''],
      ['POST', '/oauth/token', { 'content-type': form }, 'grant_type=authorization_code&code=x&redirect_uri=y&client_id=nope'],
      ['POST', '/oauth/token', { 'content-type': form }, 'grant_type=refresh_token&refresh_token=%00%ff&client_id=%00'],
      ['POST', '/oauth/token', { 'content-type': 'application/json' }, '{"grant_type":1}'],
      ['POST', '/oauth/token', { 'content-type': form, authorization: 'Basic !!!' }, 'grant_type=client_credentials'],
      ['POST', '/oauth/token', { 'content-type': form }, `grant_type=${'x'.repeat(70_000)}`],
      ['POST', '/oauth/reg', { 'content-type': 'application/json' }, '[]'],
      [
        'POST',
        '/oauth/reg',
        { 'content-type': 'application/json' },
        JSON.stringify({ redirect_uris: [REDIRECT], grant_types: ['implicit'], response_types: ['token'] }),
      ],
      ['POST', '/oauth/reg', { 'content-type': 'text/plain' }, 'hello'],
      ['GET', '/oauth/auth?client_id=%00&response_type=code', {}, undefined],
      ['GET', '/oauth/auth?client_id=nope&redirect_uri=javascript:alert(1)&response_type=code', {}, undefined],
      ['GET', '/oauth/auth/%ff%fe', {}, undefined],
      ['GET', '/oauth/me', { authorization: 'Bearer x.y.z' }, undefined],
      ['POST', '/oauth/token/revocation', { 'content-type': form }, 'token=abc'],
      ['GET', '/oauth/nothing-here', {}, undefined],
      ['DELETE', '/oauth/reg/whatever', {}, undefined],
      ['POST', '/oauth/interaction/x/login', { 'content-type': form }, 'email=%ff&password='],
      ['POST', '/oauth/interaction/x/confirm', { 'content-type': 'application/json' }, '{'],
      ['GET', '/.well-known/oauth-authorization-server?x=%ff', {}, undefined],
    ];
    for (const [method, path, headers, body] of cases) {
      const res = await fetch(`${s.apiUrl}${path}`, { method, headers, body, redirect: 'manual' });
      expect(res.status, `${method} ${path}`).toBeLessThan(500);
      expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(200);
    }
  });
});

// Last: it restarts the main API on the same database.
describe('restart', () => {
  it('keeps registrations, grants and refresh tokens across a restart (same database and data dir)', async () => {
    const person = await s.tp.person('restart');
    const t = await obtainTokens(s, person);
    const port = Number(new URL(s.apiUrl).port);
    const config = servicesOf(s.tp.app).config;
    await s.tp.app.close();
    const again = await buildPlatformApp({ config, db: s.tp.t.db, logger: false });
    await again.listen({ host: '127.0.0.1', port });
    const res = await tokenRequest(s.apiUrl, { grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: t.client_id, resource: s.mcpUrl });
    expect(res.status).toBe(200);
    const body = await res.json();
    // Same signing keys after the restart: the old access token still verifies at the main API.
    const me = await fetch(`${s.apiUrl}/v2/auth/users/me`, { headers: { authorization: `Bearer ${t.access_token}` } });
    expect(me.status).toBe(200);
    expect(decodeJwt(body.access_token).sub).toBe(person.id);
    await again.close();
  });
});
