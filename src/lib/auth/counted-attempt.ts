// One counted attempt against a rate-limiter-flexible counter, answered as every throttle of the
// platform answers it (docs/security.md): over the limit, 429 with Retry-After (and any headers the
// caller adds); the counts out of reach, 503 with Retry-After, never an uncounted pass.
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError } from '../errors.js';

export interface AttemptWords {
  /** Logged when the counts cannot be reached. */
  unreachable: string;
  /** The 503's message. */
  unavailable: string;
  /** The 429's message, for the seconds to wait. */
  tooMany: (waitSeconds: number) => string;
  /** More headers on the 429 (a rate-limit policy). */
  headers?: (waitSeconds: number) => Record<string, string>;
}

export async function countAttempt(
  counter: RateLimiterAbstract,
  key: string,
  log: { error(obj: object, msg: string): void },
  words: AttemptWords,
): Promise<void> {
  try {
    await counter.consume(key);
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) {
      log.error({ err }, words.unreachable);
      throw new ApiError('SERVICE_UNAVAILABLE', words.unavailable, { headers: { 'retry-after': '2' } });
    }
    const wait = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
    throw new ApiError('TOO_MANY_REQUESTS', words.tooMany(wait), { headers: { ...words.headers?.(wait), 'retry-after': String(wait) } });
  }
}
