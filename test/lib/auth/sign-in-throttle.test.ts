// The one sign-in throttle: the counters it asks its store for (the platform's PostgreSQL rows depend on
// their names and numbers), and how failures block and a correct password clears its pair.
import { describe, expect, it } from 'vitest';
import { type CounterOptions, memoryCounter, SignInThrottle } from '../../../src/lib/auth/sign-in-throttle.js';
import { ApiError } from '../../../src/lib/errors.js';

const limits = { loginFailuresPerAccount: 3, loginFailuresPerAddress: 5, loginBlockSeconds: 30 };

describe('SignInThrottle', () => {
  it('asks its store for the three counters of the documented limits', () => {
    const asked: CounterOptions[] = [];
    new SignInThrottle(limits, (opts) => {
      asked.push(opts);
      return memoryCounter(opts);
    });
    expect(asked).toEqual([
      { keyPrefix: 'pair', points: 2, duration: 900, blockDuration: 30 },
      { keyPrefix: 'addr', points: 4, duration: 900, blockDuration: 30 },
      { keyPrefix: 'acct', points: 29, duration: 900, blockDuration: 30 },
    ]);
  });

  it('blocks a pair after its failures with a 429 and Retry-After, elsewhere not; a correct password clears the pair', async () => {
    const t = new SignInThrottle(limits);
    for (let i = 0; i < 2; i++) await t.failed('ann', '10.0.0.1');
    await t.succeeded('ann', '10.0.0.1');
    for (let i = 0; i < 2; i++) await t.failed('ann', '10.0.0.1');
    expect(await t.retryAfter('ann', '10.0.0.1')).toBe(0);
    await t.failed('ann', '10.0.0.1');
    const wait = await t.retryAfter('ann', '10.0.0.1');
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(30);
    const err = await t.check('ann', '10.0.0.1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect([(err as ApiError).status, (err as ApiError).code, (err as ApiError).message, (err as ApiError).headers['retry-after']]).toEqual([
      429,
      'TOO_MANY_REQUESTS',
      `Too many failed sign-ins; try again in ${wait} s`,
      String(wait),
    ]);
    await expect(t.check('ann', '10.0.0.2')).resolves.toBeUndefined();
  });

  it('counts an IPv6 client by its /64, so stepping through its own addresses does not escape the limit', async () => {
    const t = new SignInThrottle(limits);
    for (let i = 1; i <= 5; i++) await t.failed(`user${i}`, `2001:db8:1:2::${i.toString(16)}`);
    expect(await t.retryAfter('someone-else', '2001:db8:1:2:ffff::1')).toBeGreaterThan(0);
    expect(await t.retryAfter('someone-else', '2001:db8:1:3::1')).toBe(0);
  });
});
