// Resolves an `x-access-key` value to the key it names. Values are checked for shape and checksum
// first (no database work for garbage), then looked up by SHA-256 in an in-memory cache that every
// change to a key clears at once. last_used_at is written behind in batches.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../lib/db/index.js';
import { hashApiKeyBytes, isWellFormedApiKey, sameHash } from '../../lib/auth/api-key-format.js';
import { groupByTime, WriteBehind } from '../../lib/write-behind.js';
import { isScope, type Scope } from '../access/scopes.js';

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

const CACHE_LIMIT = 10_000;

export class KeyStore {
  private readonly byHash = new Map<string, ActiveKey>();
  private readonly lastUsed: WriteBehind;

  constructor(private readonly db: Db, log: FastifyBaseLogger, flushMs = 1000) {
    this.lastUsed = new WriteBehind(
      async (entries) => {
        for (const [at, ids] of groupByTime(entries)) {
          await this.db.kysely.updateTable('api_keys').set({ last_used_at: at }).where('id', 'in', ids).execute();
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
    let key = this.byHash.get(hash);
    if (!key) {
      const loaded = await this.load(hash);
      if (!loaded) return { ok: false, reason: 'unknown' };
      key = loaded;
      if (this.byHash.size >= CACHE_LIMIT) this.byHash.clear();
      this.byHash.set(hash, key);
    }
    // The lookup was by hash; compare again in constant time so no path depends on partial matches.
    if (!sameHash(key.hash, digest)) return { ok: false, reason: 'unknown' };
    if (key.revoked) return { ok: false, reason: 'revoked' };
    if (key.ownerDisabled) return { ok: false, reason: 'disabled' };
    if (key.expiresAt <= now) return { ok: false, reason: 'expired' };
    this.lastUsed.mark(key.id, now);
    return { ok: true, key };
  }

  private async load(hash: string): Promise<ActiveKey | null> {
    const row = await this.db.kysely
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .select(['api_keys.id', 'api_keys.user_id', 'api_keys.key_hash', 'api_keys.scopes', 'api_keys.expires_at', 'api_keys.revoked_at', 'users.disabled_at'])
      .where('api_keys.key_hash', '=', hash)
      .executeTakeFirst();
    if (!row) return null;
    const projects = await this.db.kysely.selectFrom('api_key_projects').select('project_id').where('api_key_id', '=', row.id).execute();
    const scopes = (JSON.parse(row.scopes) as string[]).filter(isScope);
    return {
      id: row.id,
      userId: row.user_id,
      hash: Buffer.from(row.key_hash, 'hex'),
      scopes: new Set(scopes),
      projectIds: new Set(projects.map((p) => p.project_id)),
      expiresAt: Date.parse(row.expires_at),
      revoked: row.revoked_at !== null,
      ownerDisabled: !!row.disabled_at,
    };
  }

  /** Called after any change to a key (edit, regenerate, revoke, delete) or to its owner. */
  forgetKey(keyId: string): void {
    for (const [hash, key] of this.byHash) if (key.id === keyId) this.byHash.delete(hash);
  }

  forgetUser(userId: string): void {
    for (const [hash, key] of this.byHash) if (key.userId === userId) this.byHash.delete(hash);
  }

  forgetProject(projectId: string): void {
    for (const [hash, key] of this.byHash) if (key.projectIds.has(projectId)) this.byHash.delete(hash);
  }

  flush(): Promise<void> {
    return this.lastUsed.flush();
  }
}
