// The upload queue of remote storages (docs/recorder.md, Remote storages): one row per object still to
// send to one storage, and each storage's last success and last error.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('storage_id', 'text', (c) => c.notNull().references('remote_storages.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('object_key', 'text', (c) => c.notNull())
    .addColumn('segment_id', 'text')
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    .addColumn('body', 'blob')
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    // One row per object and storage: queueing the same object again changes nothing.
    .addUniqueConstraint('uploads_storage_key', ['storage_id', 'object_key'])
    .execute();
  await db.schema.createIndex('uploads_due').on('uploads').columns(['storage_id', 'next_attempt_at']).execute();
  await db.schema
    .createTable('upload_status')
    .addColumn('storage_id', 'text', (c) => c.primaryKey().references('remote_storages.id').onDelete('cascade'))
    .addColumn('last_success_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('upload_status').execute();
  await db.schema.dropTable('uploads').execute();
}
