// Failed sign-ins counted with rate-limiter-flexible, the one implementation for the platform and the
// recorder (docs/security.md, Sign-in throttling):
// - per account and address: a few wrong passwords from one place block that pair briefly;
// - per address: one place guessing many accounts is blocked;
// - per account from anywhere: a distributed guess is slowed, with a higher bar (ten times).
// Every block is temporary and a correct password clears its pair, so the real owner is never locked
// out for good (an attacker elsewhere only trips the per-account bar, which is much higher). Where the
// counts live is the caller's choice (`counter`): memory for a single process such as the recorder, a
// database table shared by every node for the platform on PostgreSQL.
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError } from '../errors.js';
import { throttleKey } from '../net/networks.js';

const SIGN_IN_WINDOW_SECONDS = 15 * 60;

export interface SignInLimits {
  loginFailuresPerAccount: number;
  loginFailuresPerAddress: number;
  loginBlockSeconds: number;
}

export interface CounterOptions {
  /** Names the counter; its keys (and a shared store's rows) start with it. */
  keyPrefix: string;
  /** Failures (or requests) allowed in a window. */
  points: number;
  /** The window, in seconds. */
  duration: number;
  /** The block once the points are spent, in seconds; none when left out (a plain request counter). */
  blockDuration?: number;
}

/** Makes one failure counter: where its counts live. */
export type FailureCounter = (opts: CounterOptions) => RateLimiterAbstract;

/** Counts in this process's memory: for a single process, cleared by a restart. */
export const memoryCounter: FailureCounter = (opts) => new RateLimiterMemory(opts);

export class SignInThrottle {
  private readonly pair: RateLimiterAbstract;
  private readonly address: RateLimiterAbstract;
  private readonly account: RateLimiterAbstract;

  constructor(limits: SignInLimits, counter: FailureCounter = memoryCounter) {
    // The N-th failure exceeds N-1 points, which starts a block of blockDuration seconds.
    const make = (keyPrefix: string, failures: number) =>
      counter({ keyPrefix, points: Math.max(0, failures - 1), duration: SIGN_IN_WINDOW_SECONDS, blockDuration: limits.loginBlockSeconds });
    this.pair = make('pair', limits.loginFailuresPerAccount);
    this.address = make('addr', limits.loginFailuresPerAddress);
    this.account = make('acct', limits.loginFailuresPerAccount * 10);
  }

  private keys(account: string, ip: string) {
    const client = throttleKey(ip);
    return [
      [this.pair, `${account}|${client}`],
      [this.address, client],
      [this.account, account],
    ] as const;
  }

  /** Seconds to wait before trying again, or 0 when a try is allowed now. */
  async retryAfter(account: string, ip: string): Promise<number> {
    const found = await Promise.all(this.keys(account, ip).map(async ([limiter, key]) => ({ limiter, res: await limiter.get(key) })));
    let wait = 0;
    for (const { limiter, res } of found) {
      if (res && res.consumedPoints > limiter.points) wait = Math.max(wait, Math.ceil(res.msBeforeNext / 1000));
    }
    return wait;
  }

  /** A 429 with Retry-After when this account or address must wait; nothing otherwise. */
  async check(account: string, ip: string): Promise<void> {
    const wait = await this.retryAfter(account, ip);
    if (wait > 0) {
      throw new ApiError('TOO_MANY_REQUESTS', `Too many failed sign-ins; try again in ${wait} s`, { headers: { 'retry-after': String(wait) } });
    }
  }

  /** Counts a failed sign-in. */
  async failed(account: string, ip: string): Promise<void> {
    await Promise.all(
      this.keys(account, ip).map(([limiter, key]) =>
        // Over the limit, consume rejects with the count: the failure is counted all the same.
        limiter.consume(key).catch((e: unknown) => {
          if (!(e instanceof RateLimiterRes)) throw e;
        }),
      ),
    );
  }

  /** Clears the pair's failures after a correct password. */
  async succeeded(account: string, ip: string): Promise<void> {
    const [limiter, key] = this.keys(account, ip)[0];
    await limiter.delete(key);
  }
}
