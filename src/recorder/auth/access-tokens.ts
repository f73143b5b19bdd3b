// Recorder access tokens: 32 random bytes, handed out once, stored as SHA-256, expiring, revocable.
// Verified tokens are cached briefly per process; revoking clears the cache entry at once.
import { createHash, randomBytes } from 'node:crypto';
import type { RecorderDb } from '../db/recorder-db.js';
import { newId } from '../../lib/ids.js';

export const TOKEN_PREFIX = 'ort_';
const TOKEN_SHAPE = /^ort_[A-Za-z0-9_-]{43}$/;

export interface TokenOwner {
  tokenId: string;
  userId: string;
  username: string;
  role: 'admin' | 'user';
  expiresAt: number;
}

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

export class AccessTokens {
  private readonly cache = new Map<string, TokenOwner>();

  constructor(
    private readonly db: RecorderDb,
    private readonly lifetimeDays: number,
  ) {}

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
    let owner = this.cache.get(hash);
    if (!owner) {
      const row = await this.db.kysely
        .selectFrom('access_tokens')
        .innerJoin('users', 'users.id', 'access_tokens.user_id')
        .select(['access_tokens.id', 'access_tokens.user_id', 'access_tokens.expires_at', 'access_tokens.revoked_at', 'users.username', 'users.role'])
        .where('token_hash', '=', hash)
        .executeTakeFirst();
      if (!row || row.revoked_at) return null;
      owner = { tokenId: row.id, userId: row.user_id, username: row.username, role: row.role === 'admin' ? 'admin' : 'user', expiresAt: Date.parse(row.expires_at) };
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(hash, owner);
    }
    return owner.expiresAt > now ? owner : null;
  }

  async revoke(tokenId: string): Promise<void> {
    await this.db.kysely.updateTable('access_tokens').set({ revoked_at: new Date().toISOString() }).where('id', '=', tokenId).execute();
    for (const [hash, o] of this.cache) if (o.tokenId === tokenId) this.cache.delete(hash);
  }

  /** Forget every cached token of a user (role changed, user deleted). */
  forgetUser(userId: string): void {
    for (const [hash, o] of this.cache) if (o.userId === userId) this.cache.delete(hash);
  }
}
