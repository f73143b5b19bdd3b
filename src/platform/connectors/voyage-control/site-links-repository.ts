// The site connectors' tables: which remote site or device feeds which project (its webhook secret
// sealed by site-links.ts), and the event ids each link has received.
import type { PlatformDb } from '../../database.js';
import { inTransaction } from '../../../lib/db/transaction.js';
import type { SiteConnectorLinksTable } from './site-links-tables.js';

/** Inserts the link after deleting the provider's earlier links in the project (all of them, or only the same remote's), in one transaction. */
export async function replaceLink(db: PlatformDb, row: SiteConnectorLinksTable, onePerProject: boolean): Promise<void> {
  await inTransaction(db, async (tx) => {
    let del = tx.kysely.deleteFrom('site_connector_links').where('provider', '=', row.provider).where('project_id', '=', row.project_id);
    if (!onePerProject) del = del.where('remote_id', '=', row.remote_id);
    await del.execute();
    await tx.kysely.insertInto('site_connector_links').values(row).execute();
  });
}

export const linkById = (db: PlatformDb, id: string) => db.kysely.selectFrom('site_connector_links').selectAll().where('id', '=', id).executeTakeFirst();

/** The provider's links in the project, oldest first. */
export const linksOf = (db: PlatformDb, provider: string, projectId: string) =>
  db.kysely
    .selectFrom('site_connector_links')
    .selectAll()
    .where('provider', '=', provider)
    .where('project_id', '=', projectId)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();

/** Deletes the link of that remote; whether there was one. */
export async function deleteLink(db: PlatformDb, provider: string, projectId: string, remoteId: string): Promise<boolean> {
  const r = await db.kysely
    .deleteFrom('site_connector_links')
    .where('provider', '=', provider)
    .where('project_id', '=', projectId)
    .where('remote_id', '=', remoteId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export const deleteDeliveriesBefore = (db: PlatformDb, at: string) => db.kysely.deleteFrom('site_connector_deliveries').where('received_at', '<', at).execute();

/** Notes the delivery unless noted before; whether it is new. */
export async function insertDelivery(db: PlatformDb, linkId: string, eventId: string, at: string): Promise<boolean> {
  const r = await db.kysely
    .insertInto('site_connector_deliveries')
    .values({ link_id: linkId, event_id: eventId, received_at: at })
    .onConflict((oc) => oc.columns(['link_id', 'event_id']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}
