// Failed sign-ins are throttled (rate-limiter-flexible, in memory):
// - per account and address: a few wrong passwords from one place block that pair briefly;
// - per address: one place guessing many accounts is blocked;
// - per account from anywhere: a distributed guess is slowed, with a higher bar.
// Every block is temporary and a successful sign-in clears its pair, so the real owner is never
// locked out for good (an attacker elsewhere only trips the per-account bar, which is much higher).
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { PlatformConfig } from '../../lib/config.js';

export class LoginThrottle {
  private readonly pair: RateLimiterMemory;
  private readonly address: RateLimiterMemory;
  private readonly account: RateLimiterMemory;

  constructor(cfg: Pick<PlatformConfig, 'loginFailuresPerAccount' | 'loginFailuresPerAddress' | 'loginBlockSeconds'>) {
    const window = 15 * 60;
    // The N-th failure exceeds N-1 points, which starts a block of blockDuration seconds.
    const limiter = (keyPrefix: string, failures: number) =>
      new RateLimiterMemory({ keyPrefix, points: Math.max(0, failures - 1), duration: window, blockDuration: cfg.loginBlockSeconds });
    this.pair = limiter('pair', cfg.loginFailuresPerAccount);
    this.address = limiter('addr', cfg.loginFailuresPerAddress);
    this.account = limiter('acct', cfg.loginFailuresPerAccount * 10);
  }

  private keys(email: string, ip: string) {
    return [
      [this.pair, `${email}|${ip}`],
      [this.address, ip],
      [this.account, email],
    ] as const;
  }

  /** Seconds to wait before trying again, or 0 when a try is allowed now. */
  async retryAfter(email: string, ip: string): Promise<number> {
    let wait = 0;
    for (const [limiter, key] of this.keys(email, ip)) {
      const res = await limiter.get(key);
      if (res && res.consumedPoints > limiter.points) wait = Math.max(wait, Math.ceil(res.msBeforeNext / 1000));
    }
    return wait;
  }

  async failed(email: string, ip: string): Promise<void> {
    for (const [limiter, key] of this.keys(email, ip)) {
      await limiter.consume(key).catch((e: unknown) => {
        if (!(e instanceof RateLimiterRes)) throw e;
      });
    }
  }

  async succeeded(email: string, ip: string): Promise<void> {
    await this.pair.delete(`${email}|${ip}`);
  }
}
