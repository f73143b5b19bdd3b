// Applies a key's own limits to a request (docs/access-model.md, Key limits), right after the key is found
// valid and before anything about the endpoint is looked at, so a refusal is the same on every endpoint:
// an address outside the key's allow-list gets 403 IP_NOT_ALLOWED; a request past the key's rate limit
// gets 429 with the RateLimit-Policy and RateLimit fields of the IETF draft
// (draft-ietf-httpapi-ratelimit-headers) and Retry-After; every admitted answer of a rate-limited key
// carries the same fields with what is left. A key without limits costs nothing here; a
// limited key costs one call to the shared counter store. When the counts cannot be reached the key's
// requests are answered 503 with Retry-After, never let through uncounted.
import type { FastifyBaseLogger } from 'fastify';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { ApiError } from '../../lib/errors.js';
import { addressAllowed, type AllowList, type RateLimit } from './key-limits.js';
import { pruneKeyRateCounts, requestCounter } from './key-rate-counts-repository.js';
import type { PlatformDb } from '../database.js';

/** What the guard needs of a cached key. */
export interface GuardedKey {
  id: string;
  rateLimit: RateLimit | null;
  allowList: AllowList | null;
}

/** The policy's name in the RateLimit fields. */
const POLICY = 'key';
const UNAVAILABLE_RETRY_SECONDS = 2;
const PRUNE_EVERY_MS = 5 * 60_000;
/** Ended counts are kept this long before they are pruned: a margin for nodes whose clocks differ a little. */
const PRUNE_AFTER_MS = 60 * 60_000;

/** The RateLimit-Policy and RateLimit fields (structured fields of draft-ietf-httpapi-ratelimit-headers). */
export function rateLimitHeaders(limit: RateLimit, remaining: number, resetSeconds: number, policy = POLICY): Record<string, string> {
  return {
    'ratelimit-policy': `"${policy}";q=${limit.requests};w=${limit.window_seconds}`,
    ratelimit: `"${policy}";r=${Math.max(0, remaining)};t=${Math.max(0, resetSeconds)}`,
  };
}

/** The counter row of a key under one limit: changing the limit starts a fresh count. */
const counterKey = (keyId: string, limit: RateLimit) => `${keyId}:${limit.requests}:${limit.window_seconds}`;

export class KeyGuard {
  private readonly counter: RateLimiterAbstract;
  private pruner?: NodeJS.Timeout;

  constructor(
    private readonly db: PlatformDb,
    private readonly log: FastifyBaseLogger,
  ) {
    // Every key has its own limit: the counter never refuses by itself, the guard compares.
    this.counter = requestCounter(db, { keyPrefix: 'key', points: Number.MAX_SAFE_INTEGER, duration: 60 });
  }

  /**
   * Throws the refusal when the key may not be used from `ip` now; counts the request otherwise, and
   * returns the RateLimit fields a rate-limited key's answer carries, so a client can pace itself.
   */
  async admit(key: GuardedKey, ip: string): Promise<Record<string, string> | undefined> {
    if (key.allowList && !addressAllowed(key.allowList, ip)) {
      throw new ApiError('IP_NOT_ALLOWED', 'This API key may not be used from this address');
    }
    const limit = key.rateLimit;
    if (!limit) return undefined;
    let used: number;
    let resetMs: number;
    try {
      const res = await this.counter.consume(counterKey(key.id, limit), 1, { customDuration: limit.window_seconds });
      used = res.consumedPoints;
      resetMs = res.msBeforeNext;
    } catch (err) {
      this.log.error({ err, key_id: key.id }, 'key rate limit: could not count the request');
      throw new ApiError('SERVICE_UNAVAILABLE', 'This API key’s requests cannot be counted for a moment; try again shortly', {
        headers: { 'retry-after': String(UNAVAILABLE_RETRY_SECONDS) },
      });
    }
    const wait = Math.max(1, Math.ceil(resetMs / 1000));
    if (used <= limit.requests) return rateLimitHeaders(limit, limit.requests - used, wait);
    throw new ApiError('TOO_MANY_REQUESTS', `This API key allows ${limit.requests} requests per ${limit.window_seconds} s; try again in ${wait} s`, {
      headers: { ...rateLimitHeaders(limit, 0, wait), 'retry-after': String(wait) },
      details: { limit: limit.requests, window_seconds: limit.window_seconds, retry_after_seconds: wait },
    });
  }

  /** The requests counted in the key's current window, and when it ends (for the explainer; counts nothing). */
  async usage(keyId: string, limit: RateLimit): Promise<{ used: number; resetSeconds: number }> {
    const res = await this.counter.get(counterKey(keyId, limit));
    return { used: res?.consumedPoints ?? 0, resetSeconds: res ? Math.ceil(res.msBeforeNext / 1000) : limit.window_seconds };
  }

  async prune(now = Date.now()): Promise<void> {
    await pruneKeyRateCounts(this.db, now - PRUNE_AFTER_MS).catch((err: unknown) => this.log.warn({ err }, 'key rate limit: could not prune ended counts'));
  }

  start(): void {
    this.pruner ??= setInterval(() => void this.prune(), PRUNE_EVERY_MS).unref();
  }

  stop(): void {
    clearInterval(this.pruner);
    this.pruner = undefined;
  }
}
