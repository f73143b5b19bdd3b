// The OAuth clients people register under /v2/developer/apps: rows of `oauth_records` (model Client,
// the same rows oidc-provider reads) with the person in `owner_id`.
import type { Db } from '../../lib/db/index.js';

export interface StoredApp {
  id: string;
  ownerId: string;
  metadata: Record<string, unknown>;
  createdAt: string;
}

const CLIENT = 'Client';

export class DeveloperAppsRepository {
  constructor(private readonly db: Db) {}

  async listByOwner(ownerId: string): Promise<StoredApp[]> {
    const rows = await this.db.kysely
      .selectFrom('oauth_records')
      .select(['id', 'payload', 'owner_id', 'created_at'])
      .where('model', '=', CLIENT)
      .where('owner_id', '=', ownerId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ id: r.id, ownerId: r.owner_id!, metadata: JSON.parse(r.payload), createdAt: r.created_at }));
  }

  async findOwned(ownerId: string, id: string): Promise<StoredApp | undefined> {
    const r = await this.db.kysely
      .selectFrom('oauth_records')
      .select(['id', 'payload', 'owner_id', 'created_at'])
      .where('model', '=', CLIENT)
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    return r ? { id: r.id, ownerId: r.owner_id!, metadata: JSON.parse(r.payload), createdAt: r.created_at } : undefined;
  }

  async insert(ownerId: string, id: string, metadata: Record<string, unknown>): Promise<StoredApp> {
    const createdAt = new Date().toISOString();
    await this.db.kysely
      .insertInto('oauth_records')
      .values({ model: CLIENT, id, payload: JSON.stringify(metadata), grant_id: null, user_code: null, uid: null, owner_id: ownerId, created_at: createdAt, expires_at: null, consumed_at: null })
      .execute();
    return { id, ownerId, metadata, createdAt };
  }

  async update(ownerId: string, id: string, metadata: Record<string, unknown>): Promise<void> {
    await this.db.kysely.updateTable('oauth_records').set({ payload: JSON.stringify(metadata) }).where('model', '=', CLIENT).where('id', '=', id).where('owner_id', '=', ownerId).execute();
  }

  /** Deletes the client and everything issued to it (grants, codes, refresh tokens, sessions' grants). */
  async delete(ownerId: string, id: string): Promise<boolean> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const res = await trx.deleteFrom('oauth_records').where('model', '=', CLIENT).where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
      if (Number(res.numDeletedRows) === 0) return false;
      // Grants name their client in the payload; client ids are URL-safe, so the JSON text is exact.
      const grants = await trx.selectFrom('oauth_records').select('id').where('model', '=', 'Grant').where('payload', 'like', `%"clientId":${JSON.stringify(id)}%`).execute();
      const ids = grants.map((g) => g.id);
      if (ids.length > 0) {
        await trx.deleteFrom('oauth_records').where('grant_id', 'in', ids).execute();
        await trx.deleteFrom('oauth_records').where('model', '=', 'Grant').where('id', 'in', ids).execute();
      }
      return true;
    });
  }
}
