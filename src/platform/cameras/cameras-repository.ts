// Queries behind cameras, their notes and battery readings.
import type { Db } from '../../lib/db/index.js';
import type { CamerasTable } from '../../lib/db/schema.js';
import type { CameraRow } from './camera-record.js';

function cameraQuery(db: Db) {
  return db.kysely
    .selectFrom('cameras')
    .innerJoin('projects', 'projects.id', 'cameras.project_id')
    .select([
      'cameras.id',
      'cameras.exid',
      'cameras.project_id',
      'cameras.name',
      'cameras.kind',
      'cameras.status',
      'cameras.timezone',
      'cameras.lat',
      'cameras.lng',
      'cameras.is_public',
      'cameras.connection',
      'cameras.sim_state',
      'cameras.last_online_at',
      'cameras.last_checked_at',
      'cameras.created_at',
      'projects.exid as project_exid',
      'projects.name as project_name',
    ]);
}

export const cameraByExid = (db: Db, exid: string): Promise<CameraRow | undefined> => cameraQuery(db).where('cameras.exid', '=', exid).executeTakeFirst();

export async function camerasOfProjects(db: Db, projectIds: string[]): Promise<CameraRow[]> {
  if (projectIds.length === 0) return [];
  return cameraQuery(db).where('cameras.project_id', 'in', projectIds).orderBy('cameras.name').orderBy('cameras.exid').execute();
}

export const exidTaken = async (db: Db, exid: string) => !!(await db.kysely.selectFrom('cameras').select('id').where('exid', '=', exid).executeTakeFirst());

export const insertCamera = (db: Db, row: CamerasTable) => db.kysely.insertInto('cameras').values(row).execute();

export const updateCamera = (db: Db, id: string, set: Partial<CamerasTable>) => db.kysely.updateTable('cameras').set(set).where('id', '=', id).execute();

export const lastPublicNote = (db: Db, cameraId: string) =>
  db.kysely
    .selectFrom('camera_notes')
    .leftJoin('users', 'users.id', 'camera_notes.author_id')
    .select(['camera_notes.id', 'camera_notes.content', 'camera_notes.created_at', 'users.email as author_email'])
    .where('camera_notes.camera_id', '=', cameraId)
    .where('camera_notes.is_public', '=', 1)
    .orderBy('camera_notes.created_at', 'desc')
    .orderBy('camera_notes.id', 'desc')
    .executeTakeFirst();

export const insertNote = (db: Db, row: { id: string; camera_id: string; author_id: string; content: string; is_public: number; created_at: string }) =>
  db.kysely.insertInto('camera_notes').values(row).execute();
