// Recorder access tokens: 32 random bytes, handed out once, stored as SHA-256, expiring, revocable.
// Verified tokens are cached briefly per process; revoking forgets the token at once
// (docs/architecture.md, Caches).
import { createHash, randomBytes } from 'node:crypto';
import type { Cache, CacheRegistry } from '../../lib/cache/index.js';
import type { RecorderDb } from '../db/recorder-db.js';
import { newId } from '../../lib/ids.js';

const TOKEN_PREFIX = 'ort_';
const TOKEN_SHAPE = /^ort_[A-Za-z0-9_-]{43}$/;

export interface TokenOwner {
  tokenId: string;
  userId: string;
  username: string;
  role: 'admin' | 'user';
  expiresAt: number;
}

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

/** How long a cached token may lag a change another process made (this one's own changes forget it at once). */
const TOKEN_TTL_MS = 60_000;

export class AccessTokens {
  /** Owners of live tokens by SHA-256; unknown and revoked tokens are not kept. */
  private readonly cache: Cache<string, TokenOwner>;

  constructor(
    private readonly db: RecorderDb,
    private readonly lifetimeDays: number,
    private readonly caches: CacheRegistry,
  ) {
    this.cache = caches.create('recorder.access-tokens', {
      max: 10_000,
      ttlMs: TOKEN_TTL_MS,
      facts: (_hash, o) => [
        { kind: 'recorder-token', id: o.tokenId },
        { kind: 'recorder-user', id: o.userId },
      ],
    });
  }

  async issue(userId: string): Promise<{ token: string; expiresAt: string }> {
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.lifetimeDays * 86_400_000).toISOString();
    await this.db.kysely
      .insertInto('access_tokens')
      .values({ id: newId(), user_id: userId, token_hash: sha256(token), expires_at: expiresAt, revoked_at: null, created_at: now.toISOString() })
      .execute();
    return { token, expiresAt };
  }

  /** The token's owner, or null for anything malformed, unknown, expired or revoked. */
  async verify(token: string, now = Date.now()): Promise<TokenOwner | null> {
    if (!TOKEN_SHAPE.test(token)) return null;
    const hash = sha256(token);
    const owner = await this.cache.load(hash, async () => {
      const row = await this.db.kysely
        .selectFrom('access_tokens')
        .innerJoin('users', 'users.id', 'access_tokens.user_id')
        .select(['access_tokens.id', 'access_tokens.user_id', 'access_tokens.expires_at', 'access_tokens.revoked_at', 'users.username', 'users.role'])
        .where('token_hash', '=', hash)
        .executeTakeFirst();
      if (!row || row.revoked_at) return undefined;
      return {
        tokenId: row.id,
        userId: row.user_id,
        username: row.username,
        role: row.role === 'admin' ? 'admin' : 'user',
        expiresAt: Date.parse(row.expires_at),
      } satisfies TokenOwner;
    });
    return owner && owner.expiresAt > now ? owner : null;
  }

  async revoke(tokenId: string): Promise<void> {
    await this.db.kysely.updateTable('access_tokens').set({ revoked_at: new Date().toISOString() }).where('id', '=', tokenId).execute();
    await this.caches.forget([{ kind: 'recorder-token', id: tokenId }]);
  }
}
