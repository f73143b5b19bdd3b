// The connector framework's tables, as stored (connector-store.ts seals and opens the secrets): people's
// connections to providers, OAuth states in progress, uploads made to providers, events providers pushed.
import type { PlatformDb } from '../../database.js';
import type { ConnectorConnectionsTable, ConnectorEventsTable, ConnectorOauthStatesTable, ConnectorUploadsTable } from './connectors-tables.js';

// ---- connections

export const connectionRow = (db: PlatformDb, userId: string, provider: string) =>
  db.kysely.selectFrom('connector_connections').selectAll().where('user_id', '=', userId).where('provider', '=', provider).executeTakeFirst();

/** Creates the person's connection to the provider, or replaces the `replace` columns of the one there. */
export const upsertConnection = (db: PlatformDb, row: ConnectorConnectionsTable, replace: Partial<ConnectorConnectionsTable>) =>
  db.kysely
    .insertInto('connector_connections')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'provider']).doUpdateSet(replace))
    .execute();

export const updateConnection = (db: PlatformDb, userId: string, provider: string, set: Partial<ConnectorConnectionsTable>) =>
  db.kysely.updateTable('connector_connections').set(set).where('user_id', '=', userId).where('provider', '=', provider).execute();

/** Deletes the person's connection to the provider; whether there was one. */
export async function deleteConnection(db: PlatformDb, userId: string, provider: string): Promise<boolean> {
  const r = await db.kysely.deleteFrom('connector_connections').where('user_id', '=', userId).where('provider', '=', provider).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The person's connections, by provider. */
export const connectionsOf = (db: PlatformDb, userId: string) =>
  db.kysely
    .selectFrom('connector_connections')
    .select(['provider', 'auth_kind', 'scopes', 'created_at', 'expires_at'])
    .where('user_id', '=', userId)
    .orderBy('provider')
    .execute();

// ---- OAuth states

export const insertOauthState = (db: PlatformDb, row: ConnectorOauthStatesTable) => db.kysely.insertInto('connector_oauth_states').values(row).execute();

export const deleteOauthStatesExpiredBefore = (db: PlatformDb, at: string) =>
  db.kysely.deleteFrom('connector_oauth_states').where('expires_at', '<', at).execute();

export const oauthState = (db: PlatformDb, state: string) =>
  db.kysely.selectFrom('connector_oauth_states').selectAll().where('state', '=', state).executeTakeFirst();

export const deleteOauthState = (db: PlatformDb, state: string) => db.kysely.deleteFrom('connector_oauth_states').where('state', '=', state).execute();

// ---- uploads

export const insertUpload = (db: PlatformDb, row: ConnectorUploadsTable) => db.kysely.insertInto('connector_uploads').values(row).execute();

/** One page of a project's uploads to one provider (newest first), and how many there are in all. */
export async function uploadsOf(db: PlatformDb, provider: string, projectId: string, opts: { limit: number; offset: number; remoteProjectId?: string }) {
  let q = db.kysely.selectFrom('connector_uploads').where('provider', '=', provider).where('project_id', '=', projectId);
  if (opts.remoteProjectId) q = q.where('remote_project_id', '=', opts.remoteProjectId);
  const { n } = await q.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(opts.limit).offset(opts.offset).execute();
  return { total: Number(n), rows };
}

// ---- events

export const insertEvent = (db: PlatformDb, row: ConnectorEventsTable) => db.kysely.insertInto('connector_events').values(row).execute();

/** A provider's events (newest first), of a project or a person if asked. */
export function eventsOf(db: PlatformDb, provider: string, filter: { projectId?: string; userId?: string; limit: number; offset: number }) {
  let q = db.kysely.selectFrom('connector_events').selectAll().where('provider', '=', provider);
  if (filter.projectId) q = q.where('project_id', '=', filter.projectId);
  if (filter.userId) q = q.where('user_id', '=', filter.userId);
  return q.orderBy('received_at', 'desc').orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute();
}
