// Sign-in with an external OpenID Connect provider, end to end against a real provider (oidc-provider)
// on loopback: redirect with state, nonce and PKCE; callback; linking by verified e-mail; a session
// like any other; closed to API keys; audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { checkEndpointAccess } from '../../helpers/access.js';
import { startLocalOp, type LocalOp } from './local-openid-provider.js';

const PUBLIC = 'http://127.0.0.1:9';
const callbackOf = (id: string) => `${PUBLIC}/v2/auth/provider/${id}/callback`;

let op: LocalOp;
let tp: TestPlatform;
let admin: Person;
beforeAll(async () => {
  op = await startLocalOp([
    { client_id: 'overlook', client_secret: 'op-client-secret-value', redirect_uri: callbackOf('local') },
    { client_id: 'overlook-open', client_secret: 'op-open-secret-value', redirect_uri: callbackOf('open') },
  ]);
  tp = await buildTestPlatform({
    OVERLOOK_PUBLIC_URL: PUBLIC,
    OVERLOOK_OIDC_PROVIDERS: JSON.stringify([
      { id: 'local', name: 'Local OP', issuer: op.issuer, client_id: 'overlook', client_secret: 'op-client-secret-value' },
      { id: 'open', name: 'Open OP', issuer: op.issuer, client_id: 'overlook-open', client_secret: 'op-open-secret-value', signup: true },
      { id: 'dead', name: 'Unreachable', issuer: 'http://127.0.0.1:1', client_id: 'x', client_secret: 'y' },
    ]),
  });
  admin = await tp.person('admin', { admin: true });
});
afterAll(async () => {
  await tp.close();
  await op.close();
});

/** Starts the sign-in at the platform, walks the provider as `sub`, and finishes at the callback. */
async function signInAs(provider: string, sub: string, opts: { cookie?: string | null } = {}) {
  const start = await tp.app.inject({ method: 'GET', url: `/v2/auth/provider/${provider}/login` });
  expect(start.statusCode, start.body).toBe(302);
  const location = new URL(start.headers.location as string);
  expect(location.origin).toBe(op.issuer);
  expect(location.searchParams.get('code_challenge_method')).toBe('S256');
  expect(location.searchParams.get('nonce')).toBeTruthy();
  const state = location.searchParams.get('state')!;
  const setCookie = String(start.headers['set-cookie']);
  expect(setCookie).toContain(`overlook_oidc_state=${state}`);
  expect(setCookie).toContain('HttpOnly');
  const back = await op.signIn(location.href, sub, callbackOf(provider));
  expect(back.searchParams.get('state')).toBe(state);
  const cookie = opts.cookie === undefined ? `overlook_oidc_state=${state}` : opts.cookie;
  const res = await tp.app.inject({ method: 'GET', url: `/v2/auth/provider/${provider}/callback${back.search}`, headers: cookie ? { cookie } : {} });
  return { res, back, cookie };
}

const audit = async (q: string) => (await tp.app.inject({ method: 'GET', url: `/v2/admin/audit?${q}`, headers: admin.auth })).json().data;

describe('provider sign-in', () => {
  it('options and signup_options list the configured providers; GET /v2/auth/provider/{provider} keeps scope user:info', async () => {
    const me = await tp.person('me');
    const options = (await tp.app.inject({ method: 'GET', url: '/v2/auth/options', headers: me.auth })).json();
    expect(options).toEqual({
      password: true,
      providers: [
        { provider: 'local', name: 'Local OP' },
        { provider: 'open', name: 'Open OP' },
        { provider: 'dead', name: 'Unreachable' },
      ],
    });
    // Sign-up options: only the providers whose first sign-in creates an account.
    expect((await tp.app.inject({ method: 'GET', url: '/v2/auth/signup_options', headers: me.auth })).json()).toEqual({
      signup_enabled: true,
      providers: [{ provider: 'open', name: 'Open OP' }],
    });
    const one = (await tp.app.inject({ method: 'GET', url: '/v2/auth/provider/local', headers: me.auth })).json();
    expect(one).toEqual({ provider: 'local', name: 'Local OP', login_url: `${PUBLIC}/v2/auth/provider/local/login` });
    expect(JSON.stringify(options) + JSON.stringify(one)).not.toContain('secret');
    await checkEndpointAccess(tp, { method: 'GET', url: () => '/v2/auth/provider/local', scopes: ['user:info'], okStatus: 200 });
  });

  it('links an existing person by verified e-mail and signs them in with a session like any other', async () => {
    const person = await tp.person('linked');
    op.accounts.set('sub-linked', { email: person.email.toUpperCase(), email_verified: true });
    const { res } = await signInAs('local', 'sub-linked');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ id: person.id, email: person.email });
    expect(String(res.headers['set-cookie'])).toContain('Max-Age=0');
    const auth = { authorization: `Bearer ${body.token}` };
    expect((await tp.app.inject({ method: 'GET', url: '/v2/auth/users/me', headers: auth })).json().id).toBe(person.id);
    const sessions = (await tp.app.inject({ method: 'GET', url: '/v2/users/active-sessions', headers: auth })).json();
    expect(sessions.find((s: { current: boolean }) => s.current)).toBeTruthy();
    expect((await tp.app.inject({ method: 'DELETE', url: '/v2/auth/logout', headers: auth })).statusCode).toBe(204);

    const logins = await audit(`subject_id=${person.id}&action=auth.login&outcome=success`);
    expect(logins[0].details).toEqual({ method: 'oidc', provider: 'local' });
    expect(await audit(`subject_id=${person.id}&action=auth.identity_linked`)).toHaveLength(1);
    const detail = (await tp.app.inject({ method: 'GET', url: `/v2/admin/users/${person.id}`, headers: admin.auth })).json();
    expect(detail.identities).toEqual([expect.objectContaining({ provider: 'local', email: person.email })]);

    // Next time the link itself finds the person, even after the provider's e-mail changed.
    op.accounts.set('sub-linked', { email: 'changed@example.org', email_verified: true });
    const again = await signInAs('local', 'sub-linked');
    expect(again.res.json().id).toBe(person.id);
  });

  it('refuses an unverified e-mail, an unknown e-mail (no sign-up), a disabled account; sign-up providers create the account', async () => {
    const person = await tp.person('unverified');
    op.accounts.set('sub-unverified', { email: person.email, email_verified: false });
    const unverified = await signInAs('local', 'sub-unverified');
    expect(unverified.res.statusCode).toBe(403);
    expect(unverified.res.json().message).toContain('verified');

    op.accounts.set('sub-stranger', { email: 'stranger@example.org', email_verified: true });
    const stranger = await signInAs('local', 'sub-stranger');
    expect(stranger.res.statusCode).toBe(403);
    const failures = await audit('action=auth.login&outcome=failure');
    expect(failures.map((e: { details: { reason?: string } }) => e.details.reason)).toEqual(expect.arrayContaining(['e-mail not verified', 'no account']));

    const signup = await signInAs('open', 'sub-stranger');
    expect(signup.res.statusCode, signup.res.body).toBe(200);
    expect(signup.res.json().email).toBe('stranger@example.org');

    const off = await tp.person('off');
    op.accounts.set('sub-off', { email: off.email, email_verified: true });
    await tp.app.inject({ method: 'POST', url: `/v2/admin/users/${off.id}/disable`, headers: admin.auth });
    const disabled = await signInAs('local', 'sub-off');
    expect(disabled.res.statusCode).toBe(403);
    expect(disabled.res.json().code).toBe('ACCOUNT_DISABLED');
  });

  it('the callback must come back to the browser that started it, once; bad callbacks are 4xx', async () => {
    const person = await tp.person('csrf');
    op.accounts.set('sub-csrf', { email: person.email, email_verified: true });
    const noCookie = await signInAs('local', 'sub-csrf', { cookie: null });
    expect(noCookie.res.statusCode).toBe(400);
    expect(noCookie.res.json().code).toBe('VALIDATION_ERROR');
    // The state was used up by that attempt: replaying with the right cookie fails too.
    const state = noCookie.back.searchParams.get('state');
    const replay = await tp.app.inject({
      method: 'GET',
      url: `/v2/auth/provider/local/callback${noCookie.back.search}`,
      headers: { cookie: `overlook_oidc_state=${state}` },
    });
    expect(replay.statusCode).toBe(400);
    for (const q of ['', '?state=nope', '?code=abc', '?error=access_denied&state=x']) {
      const res = await tp.app.inject({ method: 'GET', url: `/v2/auth/provider/local/callback${q}` });
      expect(res.statusCode, q).toBe(400);
    }
    expect((await tp.app.inject({ method: 'GET', url: '/v2/auth/provider/nope/login' })).statusCode).toBe(404);
    expect((await tp.app.inject({ method: 'GET', url: '/v2/auth/provider/BAD!/login' })).statusCode).toBe(400);
    // A provider that cannot be reached: 502.
    const dead = await tp.app.inject({ method: 'GET', url: '/v2/auth/provider/dead/login' });
    expect(dead.statusCode).toBe(502);
    expect(dead.json().code).toBe('BAD_GATEWAY');
  });

  it('provider sign-in is closed to API keys (403 ENDPOINT_CLOSED_TO_KEYS); a signed-in person may start one', async () => {
    const owner = await tp.person('keyed');
    const project = await tp.project(owner, 'Keyed');
    const key = await tp.key(owner, { projects: [project.exid], scopes: ['user:info', 'profile:write'] });
    for (const url of ['/v2/auth/provider/local/login', '/v2/auth/provider/local/callback?state=x&code=y']) {
      const res = await tp.app.inject({ method: 'GET', url, headers: key.headers });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().code).toBe('ENDPOINT_CLOSED_TO_KEYS');
    }
    expect((await tp.app.inject({ method: 'GET', url: '/v2/auth/provider/local/login', headers: owner.auth })).statusCode).toBe(302);
  });
});
