// The site link (docs/recorder.md, Platform link): the link itself (one row), the platform's last
// cloud-frame schedules, the durable outbox of frames and events owed to the platform, and each
// device's share flag.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('devices')
    .addColumn('share_with_platform', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createTable('platform_link')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('platform_url', 'text', (c) => c.notNull())
    .addColumn('link_id', 'text', (c) => c.notNull())
    .addColumn('project_exid', 'text', (c) => c.notNull())
    .addColumn('credential', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('link_schedules')
    .addColumn('device_id', 'text', (c) => c.primaryKey())
    .addColumn('camera_exid', 'text', (c) => c.notNull())
    .addColumn('frequency', 'integer', (c) => c.notNull())
    .addColumn('schedule', 'text')
    .addColumn('timezone', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('link_outbox')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('taken_at', 'text', (c) => c.notNull())
    .addColumn('file', 'text')
    .addColumn('data', 'text')
    .addColumn('size', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['link_outbox', 'link_schedules', 'platform_link']) await db.schema.dropTable(t).execute();
  await db.schema.alterTable('devices').dropColumn('share_with_platform').execute();
}
