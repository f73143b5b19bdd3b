// The site link (docs/site-link.md): recorders linked to a project, the devices each shares (one camera
// each) and the events they send. Codes and credentials are kept only as SHA-256 hashes. Everything goes
// with its project; a device's row and its events go with their camera.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('recorder_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.unique())
    .addColumn('code_expires_at', 'text')
    .addColumn('credential_hash', 'text', (c) => c.unique())
    .addColumn('recorder_name', 'text')
    .addColumn('recorder_version', 'text')
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('paired_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('last_seen_at', 'text')
    .addColumn('connection_id', 'text')
    .addColumn('node_id', 'text')
    .addColumn('node_url', 'text')
    .execute();
  await db.schema.createIndex('recorder_links_project_idx').on('recorder_links').column('project_id').execute();

  await db.schema
    .createTable('recorder_link_devices')
    .addColumn('link_id', 'text', (c) => c.notNull().references('recorder_links.id').onDelete('cascade'))
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('camera_id', 'text', (c) => c.notNull().references('cameras.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('recorder_link_devices_pk', ['link_id', 'device_id'])
    .addUniqueConstraint('recorder_link_devices_camera_uq', ['camera_id'])
    .execute();

  await db.schema
    .createTable('recorder_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('camera_id', 'text', (c) => c.notNull().references('cameras.id').onDelete('cascade'))
    .addColumn('link_id', 'text', (c) => c.references('recorder_links.id').onDelete('set null'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('dedupe_key', 'text', (c) => c.notNull())
    .addColumn('anpr_event_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('recorder_events_dedupe_uq', ['camera_id', 'dedupe_key'])
    .execute();
  await db.schema.createIndex('recorder_events_camera_at_idx').on('recorder_events').columns(['camera_id', 'at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('recorder_events').execute();
  await db.schema.dropTable('recorder_link_devices').execute();
  await db.schema.dropTable('recorder_links').execute();
}
