// The platform's sign-in throttle: the shared one (src/lib/auth/sign-in-throttle.ts: what is counted,
// the limits, the blocks), with its counts where every node sees them. On PostgreSQL the counts live in
// the database, so every node counts the same failures and honours the same blocks; on SQLite (one node)
// in memory (login-throttle-repository.ts).
// When the counts cannot be read or written the throttle fails closed: the sign-in is answered 503 with
// Retry-After, neither let through uncounted nor told whether the password was right.
import type { FastifyBaseLogger } from 'fastify';
import { SignInThrottle } from '../../lib/auth/sign-in-throttle.js';
import type { PlatformConfig } from '../../lib/config.js';
import { ApiError } from '../../lib/errors.js';
import type { PlatformDb } from '../database.js';
import { failureCounter, pruneLoginThrottle } from './login-throttle-repository.js';

/** What a client is told to wait when the counts cannot be reached (as for any unreachable database, docs/deploy.md). */
const UNAVAILABLE_RETRY_SECONDS = 2;
const PRUNE_EVERY_MS = 5 * 60_000;
/** Ended counts are kept this long before they are pruned: a margin for nodes whose clocks differ a little. */
const PRUNE_AFTER_MS = 60 * 60_000;

/** The OAuth sign-in form hands over its text unchecked, and PostgreSQL text holds no NUL. */
const storable = (email: string) => email.replaceAll('\u0000', '\uFFFD');

export class LoginThrottle extends SignInThrottle {
  private pruner?: NodeJS.Timeout;

  constructor(
    cfg: Pick<PlatformConfig, 'loginFailuresPerAccount' | 'loginFailuresPerAddress' | 'loginBlockSeconds'>,
    private readonly db: PlatformDb,
    private readonly log: FastifyBaseLogger,
  ) {
    super(cfg, (opts) => failureCounter(db, opts));
  }

  private unavailable(err: unknown, what: string): ApiError {
    this.log.error({ err }, `sign-in throttle: could not ${what} the failure counts`);
    return new ApiError('SERVICE_UNAVAILABLE', 'Sign-in is unavailable for a moment; try again shortly', {
      headers: { 'retry-after': String(UNAVAILABLE_RETRY_SECONDS) },
    });
  }

  /** Seconds to wait before trying again, or 0 when a try is allowed now. Throws a 503 ApiError when the counts cannot be read. */
  override async retryAfter(email: string, ip: string): Promise<number> {
    try {
      return await super.retryAfter(storable(email), ip);
    } catch (err) {
      throw this.unavailable(err, 'read');
    }
  }

  /** Counts a failed sign-in. Throws a 503 ApiError when it cannot be counted. */
  override async failed(email: string, ip: string): Promise<void> {
    try {
      await super.failed(storable(email), ip);
    } catch (err) {
      throw this.unavailable(err, 'write');
    }
  }

  /** Clears the pair's failures after a correct password; when that fails, the failures just run out on their own. */
  override async succeeded(email: string, ip: string): Promise<void> {
    await super
      .succeeded(storable(email), ip)
      .catch((err: unknown) => this.log.warn({ err }, 'sign-in throttle: could not clear the failures of a signed-in pair'));
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
