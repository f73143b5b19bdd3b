// A password change checks `current_password` under the sign-in throttle (docs/security.md, Sign-in
// throttling): wrong current passwords count as failed sign-ins, and a block is shared both ways.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';

let tp: TestPlatform;
beforeAll(async () => {
  tp = await buildTestPlatform({ OVERLOOK_LOGIN_FAILURES_PER_ACCOUNT: '3', OVERLOOK_LOGIN_BLOCK_SECONDS: '60' });
});
afterAll(() => tp.close());

const change = (p: Person, current: string) =>
  tp.app.inject({ method: 'PATCH', url: `/v2/users/${p.id}`, headers: p.auth, payload: { password: 'a-brand-new-password-1', current_password: current } });
const login = (p: Person, password: string) => tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: p.email, password } });

describe('current_password guessing', () => {
  it('is blocked with 429 and Retry-After like sign-in, even for the right password', async () => {
    const p = await tp.person('guessed');
    for (let i = 0; i < 3; i++) {
      const res = await change(p, `wrong-guess-${i}`);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    const blocked = await change(p, p.password);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('TOO_MANY_REQUESTS');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The block is the sign-in throttle's: sign-in from the same place is blocked too.
    expect((await login(p, p.password)).statusCode).toBe(429);
  });

  it('failed sign-ins count against a password change', async () => {
    const p = await tp.person('signin-guessed');
    for (let i = 0; i < 3; i++) expect((await login(p, `wrong-${i}`)).statusCode).toBe(401);
    expect((await change(p, p.password)).statusCode).toBe(429);
  });

  it('the right current password changes it and clears the failures of that pair', async () => {
    const p = await tp.person('owner-of-it');
    expect((await change(p, 'one-wrong-guess')).statusCode).toBe(400);
    expect((await change(p, 'two-wrong-guess')).statusCode).toBe(400);
    const ok = await change(p, p.password);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await login(p, 'a-brand-new-password-1')).statusCode).toBe(200);
  });
});
