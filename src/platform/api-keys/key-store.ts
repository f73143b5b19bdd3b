// Resolves an `x-access-key` value to the key it names. Values are checked for shape and checksum
// first (no database work for garbage), then looked up by SHA-256 in an in-memory cache that every
// change to a key or its owner forgets at once (docs/architecture.md, Caches). last_used_at is written
// behind in batches.
import type { FastifyBaseLogger } from 'fastify';
import type { Cache, CacheRegistry } from '../../lib/cache/index.js';
import type { PlatformDb } from '../db/database.js';
import { hashApiKeyBytes, isWellFormedApiKey, sameHash } from '../../lib/auth/api-key-format.js';
import { groupByTime, WriteBehind } from '../../lib/write-behind.js';
import { isScope, type Scope } from '../access/scopes.js';
import { accountStateOf } from '../users/users-repository.js';
import { keyByHash, projectIdsOfKey, touchKeys } from './api-keys-repository.js';

export interface ActiveKey {
  id: string;
  userId: string;
  /** SHA-256 of the value, raw bytes. */
  hash: Buffer;
  scopes: ReadonlySet<Scope>;
  projectIds: ReadonlySet<string>;
  expiresAt: number;
  revoked: boolean;
  /** The owner's account is disabled by a platform admin. */
  ownerDisabled: boolean;
}

export type KeyLookup = { ok: true; key: ActiveKey } | { ok: false; reason: 'malformed' | 'unknown' | 'expired' | 'revoked' | 'disabled' };

/** How long a cached key may lag a change another process made (this one's own changes forget it at once). */
const KEY_TTL_MS = 60_000;

export class KeyStore {
  private readonly byHash: Cache<string, ActiveKey>;
  private readonly lastUsed: WriteBehind;

  constructor(
    private readonly db: PlatformDb,
    log: FastifyBaseLogger,
    caches: CacheRegistry,
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
    if (!isWellFormedApiKey(value)) return { ok: false, reason: 'malformed' };
    const digest = hashApiKeyBytes(value);
    const hash = digest.toString('hex');
    // Unknown values are not kept: they are anyone's to make up.
    const key = await this.byHash.load(hash, async () => (await this.load(hash)) ?? undefined);
    if (!key) return { ok: false, reason: 'unknown' };
    // The lookup was by hash; compare again in constant time so no path depends on partial matches.
    if (!sameHash(key.hash, digest)) return { ok: false, reason: 'unknown' };
    if (key.revoked) return { ok: false, reason: 'revoked' };
    if (key.ownerDisabled) return { ok: false, reason: 'disabled' };
    if (key.expiresAt <= now) return { ok: false, reason: 'expired' };
    this.lastUsed.mark(key.id, now);
    return { ok: true, key };
  }

  private async load(hash: string): Promise<ActiveKey | null> {
    const row = await keyByHash(this.db, hash);
    if (!row) return null;
    const [owner, projectIds] = await Promise.all([accountStateOf(this.db, row.user_id), projectIdsOfKey(this.db, row.id)]);
    // A key whose owner is gone is unknown, as the join on users made it.
    if (!owner) return null;
    const scopes = (JSON.parse(row.scopes) as string[]).filter(isScope);
    return {
      id: row.id,
      userId: row.user_id,
      hash: Buffer.from(row.key_hash, 'hex'),
      scopes: new Set(scopes),
      projectIds: new Set(projectIds),
      expiresAt: Date.parse(row.expires_at),
      revoked: row.revoked_at !== null,
      ownerDisabled: !!owner.disabled_at,
    };
  }

  flush(): Promise<void> {
    return this.lastUsed.flush();
  }
}
