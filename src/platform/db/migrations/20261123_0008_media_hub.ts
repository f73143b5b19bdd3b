// The media hub: one row per item of a project (clip, compare, timelapse, url, file). Rendered kinds
// carry their render options and job state in the same row, so a restart finds every unfinished job
// by status alone. Rows go with their project or camera (cascade); their stored files go through the
// media hub's deletion hooks.
import type { Kysely } from 'kysely';

const ts = 'text';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('media_hub_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    // Null for url and file items not tied to a camera.
    .addColumn('camera_id', 'text', (c) => c.references('cameras.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    // pending | processing | completed | failed
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('from_date', ts)
    .addColumn('to_date', ts)
    .addColumn('requester_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    // Kept when the requester's account goes, so the item still says who asked for it.
    .addColumn('requester_email', 'text', (c) => c.notNull())
    .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(0))
    // JSON: the render options (duration, schedule, size, overlays) or compare dates.
    .addColumn('options', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('link_url', 'text')
    .addColumn('file_name', 'text')
    .addColumn('content_type', 'text')
    .addColumn('file_size', 'integer')
    .addColumn('object_key', 'text')
    .addColumn('gif_key', 'text')
    .addColumn('thumbnail_key', 'text')
    .addColumn('logo_key', 'text')
    .addColumn('error', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('completed_at', ts)
    .execute();
  await db.schema.createIndex('media_hub_items_project_idx').on('media_hub_items').columns(['project_id', 'created_at', 'id']).execute();
  // The job runner's queue: pending items, oldest first.
  await db.schema.createIndex('media_hub_items_status_idx').on('media_hub_items').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('media_hub_items_camera_idx').on('media_hub_items').columns(['camera_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('media_hub_items').ifExists().execute();
}
