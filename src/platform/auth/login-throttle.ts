// Failed sign-ins are throttled (rate-limiter-flexible):
// - per account and address: a few wrong passwords from one place block that pair briefly;
// - per address: one place guessing many accounts is blocked;
// - per account from anywhere: a distributed guess is slowed, with a higher bar.
// Every block is temporary and a successful sign-in clears its pair, so the real owner is never
// locked out for good (an attacker elsewhere only trips the per-account bar, which is much higher).
// On PostgreSQL the counts live in the database, so every node counts the same failures and honours
// the same blocks; on SQLite (one node) in memory (login-throttle-repository.ts).
// When the counts cannot be read or written the throttle fails closed: the sign-in is answered 503 with
// Retry-After, neither let through uncounted nor told whether the password was right.
import type { FastifyBaseLogger } from 'fastify';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { PlatformConfig } from '../../lib/config.js';
import { ApiError } from '../../lib/errors.js';
import type { PlatformDb } from '../db/database.js';
import { failureCounter, pruneLoginThrottle } from './login-throttle-repository.js';

const WINDOW_SECONDS = 15 * 60;
/** What a client is told to wait when the counts cannot be reached (as for any unreachable database, docs/deploy.md). */
const UNAVAILABLE_RETRY_SECONDS = 2;
const PRUNE_EVERY_MS = 5 * 60_000;
/** Ended counts are kept this long before they are pruned: a margin for nodes whose clocks differ a little. */
const PRUNE_AFTER_MS = 60 * 60_000;

export class LoginThrottle {
  private readonly pair: RateLimiterAbstract;
  private readonly address: RateLimiterAbstract;
  private readonly account: RateLimiterAbstract;
  private pruner?: NodeJS.Timeout;

  constructor(
    cfg: Pick<PlatformConfig, 'loginFailuresPerAccount' | 'loginFailuresPerAddress' | 'loginBlockSeconds'>,
    private readonly db: PlatformDb,
    private readonly log: FastifyBaseLogger,
  ) {
    // The N-th failure exceeds N-1 points, which starts a block of blockDuration seconds.
    const counter = (keyPrefix: string, failures: number) =>
      failureCounter(db, { keyPrefix, points: Math.max(0, failures - 1), duration: WINDOW_SECONDS, blockDuration: cfg.loginBlockSeconds });
    this.pair = counter('pair', cfg.loginFailuresPerAccount);
    this.address = counter('addr', cfg.loginFailuresPerAddress);
    this.account = counter('acct', cfg.loginFailuresPerAccount * 10);
  }

  private keys(email: string, ip: string) {
    // The OAuth sign-in form hands over its text unchecked, and PostgreSQL text holds no NUL.
    const who = email.replaceAll('\u0000', '\uFFFD');
    return [
      [this.pair, `${who}|${ip}`],
      [this.address, ip],
      [this.account, who],
    ] as const;
  }

  private unavailable(err: unknown, what: string): ApiError {
    this.log.error({ err }, `sign-in throttle: could not ${what} the failure counts`);
    return new ApiError('SERVICE_UNAVAILABLE', 'Sign-in is unavailable for a moment; try again shortly', {
      headers: { 'retry-after': String(UNAVAILABLE_RETRY_SECONDS) },
    });
  }

  /** Seconds to wait before trying again, or 0 when a try is allowed now. Throws a 503 ApiError when the counts cannot be read. */
  async retryAfter(email: string, ip: string): Promise<number> {
    try {
      const found = await Promise.all(this.keys(email, ip).map(async ([limiter, key]) => ({ limiter, res: await limiter.get(key) })));
      let wait = 0;
      for (const { limiter, res } of found) {
        if (res && res.consumedPoints > limiter.points) wait = Math.max(wait, Math.ceil(res.msBeforeNext / 1000));
      }
      return wait;
    } catch (err) {
      throw this.unavailable(err, 'read');
    }
  }

  /** Counts a failed sign-in. Throws a 503 ApiError when it cannot be counted. */
  async failed(email: string, ip: string): Promise<void> {
    try {
      await Promise.all(
        this.keys(email, ip).map(([limiter, key]) =>
          // Over the limit, consume rejects with the count: the failure is counted all the same.
          limiter.consume(key).catch((e: unknown) => {
            if (!(e instanceof RateLimiterRes)) throw e;
          }),
        ),
      );
    } catch (err) {
      throw this.unavailable(err, 'write');
    }
  }

  /** Clears the pair's failures after a correct password; when that fails, the failures just run out on their own. */
  async succeeded(email: string, ip: string): Promise<void> {
    const [limiter, key] = this.keys(email, ip)[0];
    await limiter.delete(key).catch((err: unknown) => this.log.warn({ err }, 'sign-in throttle: could not clear the failures of a signed-in pair'));
  }

  /** Deletes the counts that ended a while ago (on every node: deleting what ended is idempotent). */
  async prune(now = Date.now()): Promise<void> {
    await pruneLoginThrottle(this.db, now - PRUNE_AFTER_MS).catch((err: unknown) => this.log.warn({ err }, 'sign-in throttle: could not prune ended counts'));
  }

  start(): void {
    this.pruner ??= setInterval(() => void this.prune(), PRUNE_EVERY_MS).unref();
  }

  stop(): void {
    clearInterval(this.pruner);
    this.pruner = undefined;
  }
}
