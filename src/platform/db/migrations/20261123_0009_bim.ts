// BIM of cameras: uploaded model renders (captures) with the date each represents, renders requested
// but not made yet (pending), the camera's pose and lens for the overlay (one row a camera), and
// overlay layers. Captures are looked up by (camera, date) — the nearest one for a date — so that pair
// is indexed and unique. Every table follows its camera by cascade; the images are objects, removed by
// the BIM deletion hook.
import type { Kysely } from 'kysely';

const ts = 'text';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bim_captures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('camera_id', 'text', (c) => c.notNull().references('cameras.id').onDelete('cascade'))
    // The moment of the model the render shows (not the upload time).
    .addColumn('captured_at', ts, (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('image_key', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('uploaded_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bim_captures_camera_time_idx').on('bim_captures').columns(['camera_id', 'captured_at']).unique().execute();

  await db.schema
    .createTable('bim_pending')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('camera_id', 'text', (c) => c.notNull().references('cameras.id').onDelete('cascade'))
    .addColumn('requested_for', ts, (c) => c.notNull())
    // pending | processing | completed | failed
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('message', 'text')
    .addColumn('capture_id', 'text', (c) => c.references('bim_captures.id').onDelete('set null'))
    .addColumn('requested_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bim_pending_camera_idx').on('bim_pending').columns(['camera_id', 'status', 'requested_for']).execute();

  await db.schema
    .createTable('bim_camera_parameters')
    .addColumn('camera_id', 'text', (c) => c.primaryKey().references('cameras.id').onDelete('cascade'))
    .addColumn('x', 'double precision', (c) => c.notNull())
    .addColumn('y', 'double precision', (c) => c.notNull())
    .addColumn('z', 'double precision', (c) => c.notNull())
    .addColumn('yaw', 'double precision', (c) => c.notNull())
    .addColumn('pitch', 'double precision', (c) => c.notNull())
    .addColumn('roll', 'double precision', (c) => c.notNull())
    .addColumn('fov', 'double precision', (c) => c.notNull())
    .addColumn('image_width', 'integer', (c) => c.notNull())
    .addColumn('image_height', 'integer', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('bim_layers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('camera_id', 'text', (c) => c.notNull().references('cameras.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('image_key', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('has_alpha', 'integer', (c) => c.notNull())
    .addColumn('opacity', 'double precision', (c) => c.notNull())
    .addColumn('z_index', 'integer', (c) => c.notNull())
    .addColumn('visible', 'integer', (c) => c.notNull())
    .addColumn('from_date', ts)
    .addColumn('to_date', ts)
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bim_layers_camera_idx').on('bim_layers').columns(['camera_id', 'z_index', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bim_layers').ifExists().execute();
  await db.schema.dropTable('bim_camera_parameters').ifExists().execute();
  await db.schema.dropTable('bim_pending').ifExists().execute();
  await db.schema.dropTable('bim_captures').ifExists().execute();
}
