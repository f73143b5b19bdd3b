// Queries behind video walls and their tiles.
import type { Db } from '../../lib/db/index.js';
import type { VideoWallsTable } from '../../lib/db/schema.js';

export interface WallRow extends VideoWallsTable {
  project_exid: string;
  created_by_email: string | null;
}

export interface TileRow {
  wall_id: string;
  row_index: number;
  column_index: number;
  camera_exid: string;
  camera_name: string;
}

const wallQuery = (db: Db) =>
  db.kysely
    .selectFrom('video_walls')
    .innerJoin('projects', 'projects.id', 'video_walls.project_id')
    .leftJoin('users', 'users.id', 'video_walls.created_by')
    .selectAll('video_walls')
    .select(['projects.exid as project_exid', 'users.email as created_by_email']);

export const wallById = (db: Db, id: string): Promise<WallRow | undefined> => wallQuery(db).where('video_walls.id', '=', id).executeTakeFirst();

export async function wallsOfProjects(db: Db, projectIds: string[]): Promise<WallRow[]> {
  if (projectIds.length === 0) return [];
  return wallQuery(db).where('video_walls.project_id', 'in', projectIds).orderBy('video_walls.name').orderBy('video_walls.id').execute();
}

export async function tilesOf(db: Db, wallIds: string[]): Promise<TileRow[]> {
  if (wallIds.length === 0) return [];
  return db.kysely
    .selectFrom('video_wall_tiles')
    .innerJoin('cameras', 'cameras.id', 'video_wall_tiles.camera_id')
    .select(['video_wall_tiles.wall_id', 'video_wall_tiles.row_index', 'video_wall_tiles.column_index', 'cameras.exid as camera_exid', 'cameras.name as camera_name'])
    .where('video_wall_tiles.wall_id', 'in', wallIds)
    .orderBy('video_wall_tiles.row_index')
    .orderBy('video_wall_tiles.column_index')
    .execute();
}

/** The project's cameras among `exids`, by exid. */
export async function projectCameras(db: Db, projectId: string, exids: string[]): Promise<Map<string, string>> {
  if (exids.length === 0) return new Map();
  const rows = await db.kysely.selectFrom('cameras').select(['id', 'exid']).where('project_id', '=', projectId).where('exid', 'in', exids).execute();
  return new Map(rows.map((r) => [r.exid, r.id]));
}

/** Writes the wall and replaces its tiles, in one transaction. */
export async function saveWall(db: Db, wall: VideoWallsTable, tiles: { row_index: number; column_index: number; camera_id: string }[] | null, isNew: boolean): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    if (isNew) await trx.insertInto('video_walls').values(wall).execute();
    else await trx.updateTable('video_walls').set({ name: wall.name, grid_rows: wall.grid_rows, grid_columns: wall.grid_columns, updated_at: wall.updated_at }).where('id', '=', wall.id).execute();
    if (tiles === null) return;
    await trx.deleteFrom('video_wall_tiles').where('wall_id', '=', wall.id).execute();
    if (tiles.length > 0) await trx.insertInto('video_wall_tiles').values(tiles.map((t) => ({ wall_id: wall.id, ...t }))).execute();
  });
}

export const deleteWall = (db: Db, id: string) => db.kysely.deleteFrom('video_walls').where('id', '=', id).executeTakeFirst();

/** The project a wall belongs to, for the access layer. */
export const projectOfWall = (db: Db, id: string) =>
  db.kysely.selectFrom('video_walls').innerJoin('projects', 'projects.id', 'video_walls.project_id').select(['projects.id', 'projects.exid']).where('video_walls.id', '=', id).executeTakeFirst();
