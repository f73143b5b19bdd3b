// oidc-provider's storage adapter over the platform database (Kysely, SQLite or PostgreSQL): every model
// it persists is one row of `oauth_records`, keyed by (model, id), with the lookup columns it asks by.
// Expired rows are treated as absent when read and swept now and then when written. A token's or
// code's row is keyed by the digest of its value, which the row never holds (oauth-secrets-at-rest.ts);
// a client's secret is stored as its digest.
import type { PlatformDb } from '../database.js';
import * as repo from './oauth-records-repository.js';
import { HASHED_ID_MODELS, storedIdOf, withHashedSecret } from './oauth-secrets-at-rest.js';

/** The shape oidc-provider calls (see its memory adapter): one instance per model name. */
export interface OidcAdapter {
  upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void>;
  find(id: string): Promise<Record<string, unknown> | undefined>;
  findByUserCode(userCode: string): Promise<Record<string, unknown> | undefined>;
  findByUid(uid: string): Promise<Record<string, unknown> | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

// Expired rows are deleted once every this many writes.
const SWEEP_EVERY = 200;

export function createOauthAdapter(db: PlatformDb): new (model: string) => OidcAdapter {
  let writes = 0;
  const sweep = async () => {
    await repo.deleteRecordsExpiredBefore(db, new Date().toISOString());
  };

  const live = (row: { payload: string; expires_at: string | null; consumed_at: string | null } | undefined) => {
    if (!row) return undefined;
    if (row.expires_at && Date.parse(row.expires_at) <= Date.now()) return undefined;
    const payload = JSON.parse(row.payload) as Record<string, unknown>;
    // oidc-provider reads `consumed` to refuse a code or a rotated refresh token used a second time.
    if (row.consumed_at) payload.consumed = Math.floor(Date.parse(row.consumed_at) / 1000);
    return payload;
  };

  // Lookups come straight from request parameters: a NUL byte (which PostgreSQL refuses in text) or an
  // absurd length is simply not found, never a database error.
  const usable = (v: string) => typeof v === 'string' && v.length > 0 && v.length <= 512 && !v.includes('\u0000');

  return class KyselyOidcAdapter implements OidcAdapter {
    /** The model's id is the value a client presents: its row is keyed by the value's digest. */
    private readonly hashedId: boolean;

    constructor(private readonly model: string) {
      this.hashedId = HASHED_ID_MODELS.has(model);
    }

    /** The payload as stored: without the token's value (`jti`), and with a client's secret as its digest. */
    private stored(payload: Record<string, unknown>): Record<string, unknown> {
      if (this.hashedId) {
        const { jti: _value, ...rest } = payload;
        return rest;
      }
      return this.model === 'Client' ? withHashedSecret(payload) : payload;
    }

    /** A found record as oidc-provider expects it: a token's payload gets back the value it was asked by. */
    private found(id: string, payload: Record<string, unknown> | undefined) {
      if (payload && this.hashedId) payload.jti = id;
      return payload;
    }

    async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void> {
      const now = new Date();
      const row = {
        payload: JSON.stringify(this.stored(payload)),
        grant_id: typeof payload.grantId === 'string' ? payload.grantId : null,
        user_code: typeof payload.userCode === 'string' ? payload.userCode : null,
        uid: typeof payload.uid === 'string' ? payload.uid : null,
        expires_at: expiresIn ? new Date(now.getTime() + expiresIn * 1000).toISOString() : null,
      };
      await repo.upsertRecord(
        db,
        { model: this.model, id: storedIdOf(this.model, id), ...row, owner_id: null, created_at: now.toISOString(), consumed_at: null },
        row,
      );
      if (++writes % SWEEP_EVERY === 0) await sweep();
    }

    async find(id: string) {
      if (!usable(id)) return undefined;
      return this.found(id, live(await repo.recordBy(db, this.model, 'id', storedIdOf(this.model, id))));
    }

    async findByUserCode(userCode: string) {
      if (!usable(userCode)) return undefined;
      return live(await repo.recordBy(db, this.model, 'user_code', userCode));
    }

    async findByUid(uid: string) {
      if (!usable(uid)) return undefined;
      return live(await repo.recordBy(db, this.model, 'uid', uid));
    }

    async consume(id: string): Promise<void> {
      if (!usable(id)) return;
      await repo.consumeRecord(db, this.model, storedIdOf(this.model, id), new Date().toISOString());
    }

    async destroy(id: string): Promise<void> {
      if (!usable(id)) return;
      await repo.deleteRecord(db, this.model, storedIdOf(this.model, id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await repo.deleteRecordsOfGrant(db, grantId);
    }
  };
}
