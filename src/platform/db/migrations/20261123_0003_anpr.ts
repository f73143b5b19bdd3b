// ANPR (number-plate) reads of cameras, the per-camera ingestion tokens cameras push them with, and
// each project's plate watch list. Reads filter by camera and time or by camera and plate, so both
// have an index (ending in id, the lists' tie-break, so pages come straight off the index); the watch
// list is keyed by (project, normalised plate).
import type { Kysely } from 'kysely';

const ts = 'text';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('anpr_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('camera_id', 'text', (c) => c.notNull().references('cameras.id').onDelete('cascade'))
    // Upper-case, without spaces or dashes: what filters, counts and the watch list compare.
    .addColumn('plate', 'text', (c) => c.notNull())
    // The text as the camera read it.
    .addColumn('plate_raw', 'text', (c) => c.notNull())
    .addColumn('captured_at', ts, (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('confidence', 'double precision')
    // JSON [x1, y1, x2, y2], in `bbox_units` (pixels | normalized).
    .addColumn('bbox', 'text')
    .addColumn('bbox_units', 'text')
    // Object-store key of the plate JPEG, when one was sent.
    .addColumn('image_key', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    // The ingestion token that delivered it (kept when the token is revoked).
    .addColumn('token_id', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('anpr_events_camera_time_idx').on('anpr_events').columns(['camera_id', 'captured_at', 'id']).execute();
  await db.schema.createIndex('anpr_events_camera_plate_idx').on('anpr_events').columns(['camera_id', 'plate', 'captured_at', 'id']).execute();

  await db.schema
    .createTable('anpr_ingestion_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('camera_id', 'text', (c) => c.notNull().references('cameras.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_hint', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('last_used_at', ts)
    .addColumn('revoked_at', ts)
    .execute();
  await db.schema.createIndex('anpr_ingestion_tokens_camera_idx').on('anpr_ingestion_tokens').columns(['camera_id', 'created_at']).execute();

  await db.schema
    .createTable('anpr_watchlist')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('plate', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('anpr_watchlist_pk', ['project_id', 'plate'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('anpr_watchlist').ifExists().execute();
  await db.schema.dropTable('anpr_ingestion_tokens').ifExists().execute();
  await db.schema.dropTable('anpr_events').ifExists().execute();
}
