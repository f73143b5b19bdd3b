// Open client registration (RFC 7591) is open to anyone, so it is bounded (docs/oauth-mcp.md):
// - what a client may register: a short name, a few redirect URIs of bounded length, and no plain
//   `http://` redirect except to the loopback interface (OAuth 2.1: native apps listen on any port of
//   127.0.0.1, [::1] or localhost); refused with RFC 7591's `invalid_client_metadata` or
//   `invalid_redirect_uri`. The same rules hold for developer apps, which oidc-provider validates too;
// - how often: registrations per client address per hour, counted in the sign-in throttle's store
//   (rate-limiter-flexible: shared by every node on PostgreSQL), answered 429 beyond;
// - how long an unused one stays: a client without an owner that no person authorized is deleted
//   once it is older than the configured days, on registration (at most every few minutes per node;
//   deleting is idempotent, so nodes need no lease for it).
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { OidcProviderModule } from './load-oidc-provider.js';
import type { FastifyBaseLogger } from 'fastify';
import type { PlatformDb } from '../database.js';
import { failureCounter } from '../auth/index.js';
import { deleteUnusedClients } from './oauth-clients-repository.js';
import { throttleKey } from '../../lib/net/networks.js';

export const CLIENT_LIMITS = {
  /** Characters of `client_name`. */
  nameLength: 100,
  redirectUris: 10,
  /** Characters of one redirect URI (and of `client_uri`, `logo_uri`…). */
  uriLength: 2048,
  /** Bytes of a registration request's body. */
  bodyBytes: 16 * 1024,
} as const;

/** Host names of the loopback interface, where a plain `http://` redirect URI stays allowed (any port). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Metadata checked before oidc-provider's own checks (its `extraClientMetadata` validator). */
export const CHECKED_METADATA = ['client_name', 'redirect_uris', 'client_uri', 'logo_uri', 'policy_uri', 'tos_uri'];

/** Throws the RFC 7591 error for metadata over the limits; oidc-provider checks the rest. */
export function checkClientMetadata(errors: OidcProviderModule['errors'], key: string, value: unknown): void {
  // RFC 7591's errors, as oidc-provider answers them (400 with `error` and `error_description`).
  const InvalidClientMetadata = errors.InvalidClientMetadata!;
  const InvalidRedirectUri = errors.InvalidRedirectUri!;
  if (value === undefined || value === null) return;
  if (key === 'client_name') {
    if (typeof value === 'string' && value.length > CLIENT_LIMITS.nameLength) {
      throw new InvalidClientMetadata(`client_name must be at most ${CLIENT_LIMITS.nameLength} characters`);
    }
    return;
  }
  if (key === 'redirect_uris') {
    if (!Array.isArray(value)) return;
    if (value.length > CLIENT_LIMITS.redirectUris) throw new InvalidRedirectUri(`at most ${CLIENT_LIMITS.redirectUris} redirect_uris`);
    for (const uri of value) {
      if (typeof uri !== 'string') continue;
      if (uri.length > CLIENT_LIMITS.uriLength) throw new InvalidRedirectUri(`a redirect_uri must be at most ${CLIENT_LIMITS.uriLength} characters`);
      let u: URL;
      try {
        u = new URL(uri);
      } catch {
        continue; // oidc-provider refuses it as it always has
      }
      if (u.protocol === 'http:' && !LOOPBACK_HOSTS.has(u.hostname)) {
        throw new InvalidRedirectUri('a plain http redirect_uri is allowed only to the loopback interface (127.0.0.1, [::1], localhost); use https');
      }
    }
    return;
  }
  if (typeof value === 'string' && value.length > CLIENT_LIMITS.uriLength) {
    throw new InvalidClientMetadata(`${key} must be at most ${CLIENT_LIMITS.uriLength} characters`);
  }
}

const HOUR_SECONDS = 3600;
const DAY_MS = 24 * 3600 * 1000;
const SWEEP_EVERY_MS = 10 * 60_000;

export class ClientRegistrations {
  private readonly perAddress: RateLimiterAbstract;
  private lastSweep = 0;

  constructor(
    private readonly db: PlatformDb,
    private readonly cfg: { perHour: number; unusedDays: number },
    private readonly log: FastifyBaseLogger,
  ) {
    this.perAddress = failureCounter(db, { keyPrefix: 'oauthreg', points: Math.max(1, Math.floor(cfg.perHour)), duration: HOUR_SECONDS, blockDuration: 0 });
  }

  /** Counts a registration from `ip`: 0 when allowed, else the seconds to wait; throws when the counts cannot be reached. */
  async take(ip: string): Promise<number> {
    try {
      await this.perAddress.consume(throttleKey(ip));
      return 0;
    } catch (err) {
      if (err instanceof RateLimiterRes) return Math.max(1, Math.ceil(err.msBeforeNext / 1000));
      throw err;
    }
  }

  /** Deletes unused clients older than the configured days; how many. */
  async sweep(now = Date.now()): Promise<number> {
    this.lastSweep = now;
    const n = await deleteUnusedClients(this.db, new Date(now - this.cfg.unusedDays * DAY_MS).toISOString());
    if (n > 0) this.log.info({ deleted: n }, 'oauth: deleted registered clients nobody authorized');
    return n;
  }

  /** A sweep now and then, on registration (never failing the registration). */
  sweepNowAndThen(now = Date.now()): void {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    this.sweep(now).catch((err: unknown) => this.log.warn({ err }, 'oauth: could not delete unused clients'));
  }
}
