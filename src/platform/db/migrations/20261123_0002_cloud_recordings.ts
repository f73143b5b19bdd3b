// Cloud recording settings: one row per camera that has ever been configured (a camera without a
// row records nothing: status off). The recorder loop reads the `on` rows; retention the rows with a
// positive storage duration.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('camera_recording_settings')
    .addColumn('camera_id', 'text', (c) => c.primaryKey().references('cameras.id').onDelete('cascade'))
    // on | off | paused
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('off'))
    // Snapshots a minute, 1 to 60 (Evercam's meaning).
    .addColumn('frequency', 'integer', (c) => c.notNull().defaultTo(1))
    // Days to keep, or -1 to keep forever.
    .addColumn('storage_duration', 'integer', (c) => c.notNull().defaultTo(-1))
    // JSON: weekday -> ["HH:MM-HH:MM", …] in the camera's time zone; null = always.
    .addColumn('schedule', 'text')
    .addColumn('updated_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('camera_recording_settings_status_idx').on('camera_recording_settings').column('status').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('camera_recording_settings').execute();
}
