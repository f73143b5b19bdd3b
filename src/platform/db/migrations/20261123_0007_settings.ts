// Project settings that hold images: the project's logos and its thumbnail (the image bytes live in
// the object store; these rows say where, and cascade away with their project); and a camera's
// orientation (heading, field of view).
import type { Kysely } from 'kysely';
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run on any schema's database */

export async function up(db: Kysely<any>): Promise<void> {
  // Where a camera looks, for maps: compass heading and horizontal field of view, in degrees.
  await db.schema.alterTable('cameras').addColumn('heading', 'double precision').execute();
  await db.schema.alterTable('cameras').addColumn('fov', 'double precision').execute();
  await db.schema
    .createTable('project_logos')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // Where overlays place it: top-left | top-right | bottom-left | bottom-right.
    .addColumn('position', 'text', (c) => c.notNull())
    .addColumn('object_key', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('project_logos_project_idx').on('project_logos').column('project_id').execute();
  await db.schema
    .createTable('project_thumbnails')
    .addColumn('project_id', 'text', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
    .addColumn('object_key', 'text', (c) => c.notNull())
    // upload | camera
    .addColumn('source', 'text', (c) => c.notNull())
    // The camera and frame time it was taken from (source camera); kept as text so it outlives the camera.
    .addColumn('camera_exid', 'text')
    .addColumn('taken_at', 'text')
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('project_thumbnails').execute();
  await db.schema.dropTable('project_logos').execute();
  await db.schema.alterTable('cameras').dropColumn('fov').execute();
  await db.schema.alterTable('cameras').dropColumn('heading').execute();
}
