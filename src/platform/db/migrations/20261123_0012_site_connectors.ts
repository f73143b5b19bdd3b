// Site connectors (Voyage Control, the doorbell provider): which remote site or device feeds which
// project (and camera), with the per-link webhook secret the provider signs its calls with (sealed by
// the connector vault), and the event ids already delivered, so a replayed webhook is refused. Events
// themselves go to the framework's `connector_events`.
import type { Kysely } from 'kysely';

const ts = 'text';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('site_connector_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('camera_id', 'text', (c) => c.references('cameras.id').onDelete('cascade'))
    // Whose connection reads the provider for this link (the admin who linked it).
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // Voyage Control venue id, or doorbell device id.
    .addColumn('remote_id', 'text', (c) => c.notNull())
    .addColumn('remote_name', 'text')
    .addColumn('webhook_secret_enc', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('site_connector_links_remote_uq', ['provider', 'project_id', 'remote_id'])
    .execute();
  await db.schema
    .createTable('site_connector_deliveries')
    .addColumn('link_id', 'text', (c) => c.notNull().references('site_connector_links.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('received_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('site_connector_deliveries_pk', ['link_id', 'event_id'])
    .execute();
  await db.schema.createIndex('site_connector_deliveries_time_idx').on('site_connector_deliveries').column('received_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('site_connector_deliveries').ifExists().execute();
  await db.schema.dropTable('site_connector_links').ifExists().execute();
}
