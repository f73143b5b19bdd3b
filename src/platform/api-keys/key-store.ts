// Resolves an `x-access-key` value to the key it names. Values are checked for shape and checksum
// first (no database work for garbage), then looked up by SHA-256 in an in-memory cache that every
// change to a key or its owner forgets at once (docs/architecture.md, Caches). last_used_at is written
// behind in batches. A key's own limits (rate, addresses) come with it in the cache, so checking them
// reads nothing more from the database (key-guard.ts).
import type { FastifyBaseLogger } from 'fastify';
import type { Cache, CacheRegistry } from '../../lib/cache/index.js';
import type { PlatformDb } from '../database.js';
import { API_KEY_LENGTH, hashApiKey, isWellFormedApiKey, sameHash } from '../../lib/auth/api-key-format.js';
import { groupByTime, WriteBehind } from '../../lib/write-behind.js';
import { isScope, type Scope } from '../access/index.js';
import { accountStateOf } from '../users/index.js';
import { keyByHash, keyRowById, projectIdsOfKey, touchKeys } from './api-keys-repository.js';
import type { KeyGuard } from './key-guard.js';
import { compileAllowList, type AllowList, type RateLimit } from './key-limits.js';

export interface ActiveKey {
  id: string;
  userId: string;
  /** SHA-256 of the value, hex: compared as text, so the request path makes no Buffer for it. */
  hash: string;
  scopes: ReadonlySet<Scope>;
  projectIds: ReadonlySet<string>;
  expiresAt: number;
  revoked: boolean;
  /** The owner's account is disabled by a platform admin. */
  ownerDisabled: boolean;
  /** Requests allowed per window; null for no limit. */
  rateLimit: RateLimit | null;
  /** The addresses the key may be used from; null for anywhere. */
  allowList: AllowList | null;
}

export type KeyLookup = { ok: true; key: ActiveKey } | { ok: false; reason: 'malformed' | 'unknown' | 'expired' | 'revoked' | 'disabled' };

/** How long a cached key may lag a change another process made (this one's own changes forget it at once). */
const KEY_TTL_MS = 60_000;

/** What holding a key by its id needs to know: whether it still opens anything, and until when. */
interface KeyState {
  userId: string;
  usable: boolean;
  expiresAt: number;
}

export class KeyStore {
  private readonly byHash: Cache<string, ActiveKey>;
  private readonly stateById: Cache<string, KeyState>;
  private readonly lastUsed: WriteBehind;

  constructor(
    private readonly db: PlatformDb,
    log: FastifyBaseLogger,
    caches: CacheRegistry,
    private readonly guard: KeyGuard,
    flushMs = 1000,
  ) {
    this.byHash = caches.create('api-keys.by-hash', {
      max: 10_000,
      ttlMs: KEY_TTL_MS,
      facts: (_hash, key) => [
        { kind: 'key', id: key.id },
        { kind: 'user-keys', id: key.userId },
      ],
    });
    this.stateById = caches.create('api-keys.state-by-id', {
      max: 10_000,
      ttlMs: KEY_TTL_MS,
      facts: (id, state) => [
        { kind: 'key', id },
        { kind: 'user-keys', id: state.userId },
      ],
    });
    this.lastUsed = new WriteBehind(
      async (entries) => {
        for (const [at, ids] of groupByTime(entries)) {
          await touchKeys(this.db, ids, at);
        }
      },
      flushMs,
      (err) => log.error({ err }, 'writing api_keys.last_used_at failed'),
    );
  }

  async lookup(value: string, now = Date.now()): Promise<KeyLookup> {
    // The length first, so that only values of a key's length are hashed.
    if (value.length !== API_KEY_LENGTH) return { ok: false, reason: 'malformed' };
    const hash = hashApiKey(value);
    const known = this.cachedVerdict(hash, now);
    if (known) return known;
    if (!isWellFormedApiKey(value)) return { ok: false, reason: 'malformed' };
    // Unknown values are not kept: they are anyone's to make up.
    const key = await this.byHash.load(hash, async () => (await this.load(hash)) ?? undefined);
    return key ? this.verdict(key, hash, now) : { ok: false, reason: 'unknown' };
  }

  /**
   * A cached key was found by this hash, so the value is that key's and well formed: its shape and
   * checksum are checked only before the database is asked (about a µs per request saved).
   */
  private cachedVerdict(hash: string, now: number): KeyLookup | undefined {
    const key = this.byHash.get(hash);
    return key && this.verdict(key, hash, now);
  }

  private verdict(key: ActiveKey, hash: string, now: number): KeyLookup {
    // The lookup was by hash; compare again in constant time so no path depends on partial matches.
    if (!sameHash(key.hash, hash)) return { ok: false, reason: 'unknown' };
    if (key.revoked) return { ok: false, reason: 'revoked' };
    if (key.ownerDisabled) return { ok: false, reason: 'disabled' };
    if (key.expiresAt <= now) return { ok: false, reason: 'expired' };
    this.lastUsed.mark(key.id, now);
    return { ok: true, key };
  }

  /**
   * Whether the key with this id still opens anything for `userId` (not revoked, deleted or expired, owner
   * enabled): what a media token issued through the key rests on (docs/security.md, Revocation).
   */
  async isLive(keyId: string, userId: string, now = Date.now()): Promise<boolean> {
    const state = await this.stateById.load(keyId, async () => {
      const row = await keyRowById(this.db, keyId);
      const owner = row && (await accountStateOf(this.db, row.user_id));
      if (!row || !owner) return undefined;
      return { userId: row.user_id, usable: row.revoked_at === null && !owner.disabled_at, expiresAt: Date.parse(row.expires_at) };
    });
    return !!state && state.userId === userId && state.usable && state.expiresAt > now;
  }

  /**
   * Applies the key's own limits to a request from `ip` (throws the refusal). Keys without limits
   * return at once: no store call, no promise.
   */
  admit(key: ActiveKey, ip: string): Promise<Record<string, string> | undefined> | undefined {
    if (!this.hasLimits(key)) return undefined;
    return this.guard.admit(key, ip);
  }

  /** Whether the key has limits of its own (rate, addresses) that `admit` applies. */
  hasLimits(key: ActiveKey): boolean {
    return key.rateLimit !== null || key.allowList !== null;
  }

  private async load(hash: string): Promise<ActiveKey | null> {
    const row = await keyByHash(this.db, hash);
    if (!row) return null;
    const [owner, projectIds] = await Promise.all([accountStateOf(this.db, row.user_id), projectIdsOfKey(this.db, row.id)]);
    // A key whose owner is gone is unknown, as the join on users made it.
    if (!owner) return null;
    const scopes = (JSON.parse(row.scopes) as string[]).filter(isScope);
    const allowed = row.allowed_ips ? (JSON.parse(row.allowed_ips) as string[]) : [];
    return {
      id: row.id,
      userId: row.user_id,
      hash: row.key_hash,
      scopes: new Set(scopes),
      projectIds: new Set(projectIds),
      expiresAt: Date.parse(row.expires_at),
      revoked: row.revoked_at !== null,
      ownerDisabled: !!owner.disabled_at,
      rateLimit:
        row.rate_limit_requests !== null && row.rate_limit_window_seconds !== null
          ? { requests: row.rate_limit_requests, window_seconds: row.rate_limit_window_seconds }
          : null,
      allowList: allowed.length ? compileAllowList(allowed) : null,
    };
  }

  flush(): Promise<void> {
    return this.lastUsed.flush();
  }
}
