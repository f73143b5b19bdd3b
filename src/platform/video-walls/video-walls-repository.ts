// The video_walls and video_wall_tiles tables: walls of a project and the cameras on their grid.
import type { PlatformDb } from '../database.js';
import type { VideoWallsTable } from './video-walls-tables.js';
import { cameraRefsByIds, projectCamerasAmong } from '../cameras/index.js';
import { projectExidsOf, projectRefById } from '../projects/index.js';
import { emailsOf } from '../users/index.js';

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

/** The walls with their project's exid and their creator's e-mail, each owner asked once (a wall whose project is gone is left out). */
async function withRefs(db: PlatformDb, walls: VideoWallsTable[]): Promise<WallRow[]> {
  const [projects, emails] = await Promise.all([
    projectExidsOf(
      db,
      walls.map((w) => w.project_id),
    ),
    emailsOf(
      db,
      walls.flatMap((w) => (w.created_by ? [w.created_by] : [])),
    ),
  ]);
  return walls.flatMap((w) => {
    const projectExid = projects.get(w.project_id);
    if (projectExid === undefined) return [];
    return [{ ...w, project_exid: projectExid, created_by_email: (w.created_by && emails.get(w.created_by)) || null }];
  });
}

export async function wallById(db: PlatformDb, id: string): Promise<WallRow | undefined> {
  const wall = await db.kysely.selectFrom('video_walls').selectAll().where('id', '=', id).executeTakeFirst();
  return wall && (await withRefs(db, [wall]))[0];
}

export async function wallsOfProjects(db: PlatformDb, projectIds: string[]): Promise<WallRow[]> {
  if (projectIds.length === 0) return [];
  return withRefs(db, await db.kysely.selectFrom('video_walls').selectAll().where('project_id', 'in', projectIds).orderBy('name').orderBy('id').execute());
}

/** The walls' tiles, by row then column, with their camera's exid and name (a tile whose camera is gone is left out). */
export async function tilesOf(db: PlatformDb, wallIds: string[]): Promise<TileRow[]> {
  if (wallIds.length === 0) return [];
  const tiles = await db.kysely
    .selectFrom('video_wall_tiles')
    .select(['wall_id', 'row_index', 'column_index', 'camera_id'])
    .where('wall_id', 'in', wallIds)
    .orderBy('row_index')
    .orderBy('column_index')
    .execute();
  const cameras = await cameraRefsByIds(
    db,
    tiles.map((t) => t.camera_id),
  );
  return tiles.flatMap(({ camera_id, ...t }) => {
    const c = cameras.get(camera_id);
    return c ? [{ ...t, camera_exid: c.exid, camera_name: c.name }] : [];
  });
}

/** The project's cameras among `exids`, by exid. */
export async function projectCameras(db: PlatformDb, projectId: string, exids: string[]): Promise<Map<string, string>> {
  return new Map((await projectCamerasAmong(db, projectId, exids)).map((r) => [r.exid, r.id]));
}

/** Writes the wall and replaces its tiles, in one transaction. */
export async function saveWall(
  db: PlatformDb,
  wall: VideoWallsTable,
  tiles: { row_index: number; column_index: number; camera_id: string }[] | null,
  isNew: boolean,
): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    if (isNew) await trx.insertInto('video_walls').values(wall).execute();
    else
      await trx
        .updateTable('video_walls')
        .set({ name: wall.name, grid_rows: wall.grid_rows, grid_columns: wall.grid_columns, updated_at: wall.updated_at })
        .where('id', '=', wall.id)
        .execute();
    if (tiles === null) return;
    await trx.deleteFrom('video_wall_tiles').where('wall_id', '=', wall.id).execute();
    if (tiles.length > 0)
      await trx
        .insertInto('video_wall_tiles')
        .values(tiles.map((t) => ({ wall_id: wall.id, ...t })))
        .execute();
  });
}

export const deleteWall = (db: PlatformDb, id: string) => db.kysely.deleteFrom('video_walls').where('id', '=', id).executeTakeFirst();

/** The project a wall belongs to, for the access layer. */
export async function projectOfWall(db: PlatformDb, id: string) {
  const wall = await db.kysely.selectFrom('video_walls').select('project_id').where('id', '=', id).executeTakeFirst();
  return wall && projectRefById(db, wall.project_id);
}
