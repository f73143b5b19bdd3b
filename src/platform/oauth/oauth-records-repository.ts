// The oauth_records table: every record oidc-provider persists (one row per model and id, with the
// lookup columns it asks by), and the clients people register as developer apps (model Client, the
// person in `owner_id`).
import type { PlatformDb } from '../database.js';
import { inTransaction } from '../../lib/db/transaction.js';
import type { OauthRecordsTable } from './oauth-tables.js';

type Liveness = Pick<OauthRecordsTable, 'payload' | 'expires_at' | 'consumed_at'>;

export const deleteRecordsExpiredBefore = (db: PlatformDb, at: string) => db.kysely.deleteFrom('oauth_records').where('expires_at', '<', at).execute();

/** Creates the record, or replaces the `replace` columns of the one there. */
export const upsertRecord = (db: PlatformDb, row: OauthRecordsTable, replace: Partial<OauthRecordsTable>) =>
  db.kysely
    .insertInto('oauth_records')
    .values(row)
    .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(replace))
    .execute();

/** A record of the model by one of its lookup columns. */
export const recordBy = (db: PlatformDb, model: string, column: 'id' | 'user_code' | 'uid', value: string): Promise<Liveness | undefined> =>
  db.kysely
    .selectFrom('oauth_records')
    .select(['payload', 'expires_at', 'consumed_at'])
    .where('model', '=', model)
    .where(column, '=', value)
    .executeTakeFirst();

export const consumeRecord = (db: PlatformDb, model: string, id: string, at: string) =>
  db.kysely.updateTable('oauth_records').set({ consumed_at: at }).where('model', '=', model).where('id', '=', id).execute();

export const deleteRecord = (db: PlatformDb, model: string, id: string) =>
  db.kysely.deleteFrom('oauth_records').where('model', '=', model).where('id', '=', id).execute();

/** Everything issued under a grant. */
export const deleteRecordsOfGrant = (db: PlatformDb, grantId: string) => db.kysely.deleteFrom('oauth_records').where('grant_id', '=', grantId).execute();

/**
 * Deletes every grant the person holds with everything issued under it (access and refresh tokens,
 * codes), and their sign-ins at the authorization server; how many grants. Payloads are JSON as
 * oidc-provider hands them over, and account ids are UUIDs, so the text match is exact.
 */
export async function deleteRecordsOfAccount(db: PlatformDb, accountId: string): Promise<number> {
  return inTransaction(db, async (tx) => {
    const theirs = `%"accountId":${JSON.stringify(accountId)}%`;
    const grants = await tx.kysely.selectFrom('oauth_records').select('id').where('model', '=', 'Grant').where('payload', 'like', theirs).execute();
    const ids = grants.map((g) => g.id);
    if (ids.length > 0) {
      await tx.kysely.deleteFrom('oauth_records').where('grant_id', 'in', ids).execute();
      await tx.kysely.deleteFrom('oauth_records').where('model', '=', 'Grant').where('id', 'in', ids).execute();
    }
    await tx.kysely.deleteFrom('oauth_records').where('model', '=', 'Session').where('payload', 'like', theirs).execute();
    return ids.length;
  });
}

// ---- hashing what was stored before (oauth-secrets-at-rest.ts)

/** Records of the models whose id does not start with `prefix`: stored before their ids were hashed. */
export const recordsWithPlainIds = (db: PlatformDb, models: string[], prefix: string) =>
  db.kysely.selectFrom('oauth_records').select(['model', 'id', 'payload']).where('model', 'in', models).where('id', 'not like', `${prefix}%`).execute();

/** Moves a record to its new id with its new payload; 0 when another node already did. */
export async function rekeyRecord(db: PlatformDb, model: string, id: string, newId: string, payload: string): Promise<number> {
  const res = await db.kysely.updateTable('oauth_records').set({ id: newId, payload }).where('model', '=', model).where('id', '=', id).executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Clients whose stored metadata has a `client_secret` not starting with `prefix`. */
export const clientsWithPlainSecrets = (db: PlatformDb, prefix: string) =>
  db.kysely
    .selectFrom('oauth_records')
    .select(['id', 'payload'])
    .where('model', '=', 'Client')
    .where('payload', 'like', '%"client_secret":"%')
    .where('payload', 'not like', `%"client_secret":"${prefix}%`)
    .execute();

/** Replaces a client's payload if it is still `was`; 0 otherwise. */
export async function replaceClientPayload(db: PlatformDb, id: string, was: string, payload: string): Promise<number> {
  const res = await db.kysely
    .updateTable('oauth_records')
    .set({ payload })
    .where('model', '=', 'Client')
    .where('id', '=', id)
    .where('payload', '=', was)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

// ---- clients registered by people (developer apps)

const CLIENT = 'Client';

export const clientsOwnedBy = (db: PlatformDb, ownerId: string) =>
  db.kysely
    .selectFrom('oauth_records')
    .select(['id', 'payload', 'owner_id', 'created_at'])
    .where('model', '=', CLIENT)
    .where('owner_id', '=', ownerId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();

export const clientOwnedBy = (db: PlatformDb, ownerId: string, id: string) =>
  db.kysely
    .selectFrom('oauth_records')
    .select(['id', 'payload', 'owner_id', 'created_at'])
    .where('model', '=', CLIENT)
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();

/** `payload`: the client's metadata with its secret already replaced by its digest. */
export const insertClient = (db: PlatformDb, ownerId: string, id: string, payload: string, createdAt: string) =>
  db.kysely
    .insertInto('oauth_records')
    .values({
      model: CLIENT,
      id,
      payload,
      grant_id: null,
      user_code: null,
      uid: null,
      owner_id: ownerId,
      created_at: createdAt,
      expires_at: null,
      consumed_at: null,
    })
    .execute();

export const updateClient = (db: PlatformDb, ownerId: string, id: string, payload: string) =>
  db.kysely.updateTable('oauth_records').set({ payload }).where('model', '=', CLIENT).where('id', '=', id).where('owner_id', '=', ownerId).execute();

/** Deletes the client and everything issued to it (grants, codes, refresh tokens, sessions' grants); false when it is not the owner's. */
export async function deleteClient(db: PlatformDb, ownerId: string, id: string): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const res = await tx.kysely.deleteFrom('oauth_records').where('model', '=', CLIENT).where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
    if (Number(res.numDeletedRows) === 0) return false;
    // Grants name their client in the payload; client ids are URL-safe, so the JSON text is exact.
    const grants = await tx.kysely
      .selectFrom('oauth_records')
      .select('id')
      .where('model', '=', 'Grant')
      .where('payload', 'like', `%"clientId":${JSON.stringify(id)}%`)
      .execute();
    const ids = grants.map((g) => g.id);
    if (ids.length > 0) {
      await tx.kysely.deleteFrom('oauth_records').where('grant_id', 'in', ids).execute();
      await tx.kysely.deleteFrom('oauth_records').where('model', '=', 'Grant').where('id', 'in', ids).execute();
    }
    return true;
  });
}
