// Cloud recordings: the index of stored JPEGs per camera, and its per-15-minute summary counts
// (the summary answers "which days / hours have recordings" without scanning millions of rows).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('snapshots')
    .addColumn('camera_id', 'text', (c) => c.notNull().references('cameras.id').onDelete('cascade'))
    .addColumn('taken_at', 'text', (c) => c.notNull())
    .addColumn('object_key', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('snapshots_pk', ['camera_id', 'taken_at'])
    .execute();

  await db.schema
    .createTable('snapshot_buckets')
    .addColumn('camera_id', 'text', (c) => c.notNull().references('cameras.id').onDelete('cascade'))
    .addColumn('bucket', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('snapshot_buckets_pk', ['camera_id', 'bucket'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('snapshot_buckets').ifExists().execute();
  await db.schema.dropTable('snapshots').ifExists().execute();
}
