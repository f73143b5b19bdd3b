// Weather cache, video walls with their tiles, and comments on cameras.
// The weather cache is kept per project (keyed by place, time zone and day) so it goes with the project.
// Tiles and comments cascade with their camera; walls, comments and the weather cache with their
// project, so deleting either leaves no dangling rows.
import type { Kysely } from 'kysely';

const ts = 'text';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('weather_cache')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    // `day:<lat>,<lng>:<tz>:<YYYY-MM-DD>` or `current:<lat>,<lng>:<tz>`: a moved camera or a new
    // time zone simply makes new keys.
    .addColumn('key', 'text', (c) => c.notNull())
    // JSON: the hourly values of a day, or the current conditions, in the API's shape.
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('fetched_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('weather_cache_pk', ['project_id', 'key'])
    .execute();

  await db.schema
    .createTable('video_walls')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('grid_rows', 'integer', (c) => c.notNull())
    .addColumn('grid_columns', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('video_walls_project_idx').on('video_walls').columns(['project_id', 'name', 'id']).execute();

  await db.schema
    .createTable('video_wall_tiles')
    .addColumn('wall_id', 'text', (c) => c.notNull().references('video_walls.id').onDelete('cascade'))
    .addColumn('row_index', 'integer', (c) => c.notNull())
    .addColumn('column_index', 'integer', (c) => c.notNull())
    .addColumn('camera_id', 'text', (c) => c.notNull().references('cameras.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('video_wall_tiles_pk', ['wall_id', 'row_index', 'column_index'])
    .execute();
  await db.schema.createIndex('video_wall_tiles_camera_idx').on('video_wall_tiles').column('camera_id').execute();

  await db.schema
    .createTable('comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('camera_id', 'text', (c) => c.notNull().references('cameras.id').onDelete('cascade'))
    .addColumn('author_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    // The moment of the recording the comment is about (ISO-8601 UTC).
    .addColumn('frame_at', ts, (c) => c.notNull())
    .addColumn('x', 'double precision', (c) => c.notNull())
    .addColumn('y', 'double precision', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    // JSON array of the user ids already notified of a mention (so an edit notifies only new ones).
    .addColumn('mentions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('archived_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('comments_project_time_idx').on('comments').columns(['project_id', 'frame_at', 'id']).execute();
  await db.schema.createIndex('comments_camera_time_idx').on('comments').columns(['camera_id', 'frame_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('comments').ifExists().execute();
  await db.schema.dropTable('video_wall_tiles').ifExists().execute();
  await db.schema.dropTable('video_walls').ifExists().execute();
  await db.schema.dropTable('weather_cache').ifExists().execute();
}
