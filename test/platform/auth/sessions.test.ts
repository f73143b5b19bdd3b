import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';

let tp: TestPlatform;
beforeAll(async () => {
  tp = await buildTestPlatform({ OVERLOOK_LOGIN_FAILURES_PER_ACCOUNT: '3', OVERLOOK_LOGIN_BLOCK_SECONDS: '30' });
});
afterAll(() => tp.close());

describe('sign-in (POST /v2/auth/login)', () => {
  it('200: returns the user record plus a JWT', async () => {
    const alice = await tp.person('alice');
    const res = await tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: alice.email.toUpperCase(), password: alice.password } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ id: alice.id, email: alice.email, firstname: 'alice', lastname: 'Tester', is_admin: false });
    expect(typeof body.created_at).toBe('string');
    expect(body.token.split('.')).toHaveLength(3);
    expect(body.password_hash).toBeUndefined();
  });

  it('401 INVALID_CREDENTIALS: the same answer for an unknown user and a wrong password', async () => {
    const bob = await tp.person('bob');
    const wrong = await tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: bob.email, password: 'not-the-password' } });
    const unknown = await tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: 'nobody@example.com', password: 'whatever-pw' } });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 'INVALID_CREDENTIALS', message: 'Wrong e-mail or password', request_id: expect.any(String) });
      expect(res.headers['www-authenticate']).toBeTruthy();
    }
  });

  it('400 VALIDATION_ERROR naming the field; malformed JSON is 400 too', async () => {
    const missing = await tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: 'a@b.co' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('VALIDATION_ERROR');
    expect(missing.json().message).toContain('password');
    const bad = await tp.app.inject({ method: 'POST', url: '/v2/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"username": ' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_ERROR');
  });

  it('429 with Retry-After after repeated failures, per account and address; others unaffected', async () => {
    const carol = await tp.person('carol');
    const attempt = (password: string, ip = '10.0.0.9') =>
      tp.app.inject({ method: 'POST', url: '/v2/auth/login', remoteAddress: ip, payload: { username: carol.email, password } });
    for (let i = 0; i < 3; i++) expect((await attempt('wrong-password')).statusCode).toBe(401);
    const blocked = await attempt(carol.password);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('TOO_MANY_REQUESTS');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The real owner, from their own address, is not locked out by failures elsewhere.
    expect((await attempt(carol.password, '10.0.0.10')).statusCode).toBe(200);
  });

  it('logout ends the session: its JWT gets 401 from then on, other sessions live on', async () => {
    const dave = await tp.person('dave');
    const second = (await tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: dave.email, password: dave.password } })).json().token;
    expect((await tp.app.inject({ method: 'GET', url: '/v2/auth/users/me', headers: dave.auth })).statusCode).toBe(200);
    const out = await tp.app.inject({ method: 'DELETE', url: '/v2/auth/logout', headers: dave.auth });
    expect(out.statusCode).toBe(204);
    const after = await tp.app.inject({ method: 'GET', url: '/v2/auth/users/me', headers: dave.auth });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('UNAUTHORIZED');
    expect(after.headers['www-authenticate']).toContain('Bearer');
    const other = await tp.app.inject({ method: 'GET', url: '/v2/auth/users/me', headers: { authorization: `Bearer ${second}` } });
    expect(other.statusCode).toBe(200);
    expect(other.json().email).toBe(dave.email);
  });

  it('refuses tampered and foreign tokens', async () => {
    const eve = await tp.person('eve');
    const [h, p, s] = eve.token.split('.');
    const tampered = `${h}.${p}.${s!.slice(0, -4)}AAAA`;
    for (const token of [tampered, 'abc.def.ghi', 'not-a-jwt', 'x'.repeat(5000)]) {
      const res = await tp.app.inject({ method: 'GET', url: '/v2/auth/users/me', headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(401);
    }
  });

  it('publishes the signing key as a JWKS', async () => {
    const res = await tp.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
    expect(res.statusCode).toBe(200);
    const [key] = res.json().keys;
    expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(key.d).toBeUndefined();
  });
});

describe('sign-in with a stale credential still attached', () => {
  it('ignores an ended JWT on the login route, but refuses a valid API key there', async () => {
    const fay = await tp.person('fay');
    await tp.app.inject({ method: 'DELETE', url: '/v2/auth/logout', headers: fay.auth });
    const res = await tp.app.inject({ method: 'POST', url: '/v2/auth/login', headers: fay.auth, payload: { username: fay.email, password: fay.password } });
    expect(res.statusCode).toBe(200);
  });
});
