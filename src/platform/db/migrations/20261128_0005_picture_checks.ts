// Picture checks and activity (docs/analysis.md): per-camera check memory and thresholds, each check's
// state, every analysed frame's activity score and the per-quarter-hour sums the timeline reads.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('picture_cameras')
    .addColumn('camera_id', 'text', (c) => c.primaryKey().references('cameras.id').onDelete('cascade'))
    .addColumn('thresholds', 'text')
    .addColumn('reference', 'text')
    .addColumn('reference_at', 'text')
    .addColumn('previous', 'text')
    .addColumn('previous_at', 'text')
    .addColumn('detail_level', 'double precision')
    .addColumn('unchanged_run', 'integer', (c) => c.notNull())
    .addColumn('unchanged_since', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('picture_check_states')
    .addColumn('camera_id', 'text', (c) => c.notNull().references('cameras.id').onDelete('cascade'))
    .addColumn('check_name', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('since', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('picture_check_states_pk', ['camera_id', 'check_name'])
    .execute();

  await db.schema
    .createTable('picture_frame_activity')
    .addColumn('camera_id', 'text', (c) => c.notNull().references('cameras.id').onDelete('cascade'))
    .addColumn('taken_at', 'text', (c) => c.notNull())
    .addColumn('score', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('picture_frame_activity_pk', ['camera_id', 'taken_at'])
    .execute();

  await db.schema
    .createTable('picture_activity_quarters')
    .addColumn('camera_id', 'text', (c) => c.notNull().references('cameras.id').onDelete('cascade'))
    .addColumn('bucket', 'integer', (c) => c.notNull())
    .addColumn('score', 'double precision', (c) => c.notNull())
    .addColumn('frames', 'integer', (c) => c.notNull())
    .addColumn('peak_at', 'text', (c) => c.notNull())
    .addColumn('peak_score', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('picture_activity_quarters_pk', ['camera_id', 'bucket'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('picture_activity_quarters').ifExists().execute();
  await db.schema.dropTable('picture_frame_activity').ifExists().execute();
  await db.schema.dropTable('picture_check_states').ifExists().execute();
  await db.schema.dropTable('picture_cameras').ifExists().execute();
}
