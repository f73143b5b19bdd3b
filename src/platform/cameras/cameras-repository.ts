// The cameras and camera_notes tables (battery readings: battery-readings-repository.ts), and what other
// features ask about cameras: their exids and names, a project's cameras, counts. A camera's password
// is sealed in the stored connection details and opened when read (camera-credentials.ts).
import type { PlatformDb } from '../database.js';
import { openConnection, sealConnection } from './camera-credentials.js';
import type { CamerasTable } from './cameras-tables.js';
import type { CameraRow } from './camera-record.js';
import { contains } from '../../lib/db/contains.js';
import { pageOffset } from '../../lib/http/pagination.js';
import { projectNamesOf } from '../projects/index.js';
import { emailsOf } from '../users/index.js';

const cameraColumns = [
  'id',
  'exid',
  'project_id',
  'name',
  'kind',
  'status',
  'timezone',
  'lat',
  'lng',
  'is_public',
  'connection',
  'sim_state',
  'last_online_at',
  'last_checked_at',
  'created_at',
  'picture_status',
] as const;

type CameraColumns = Pick<CamerasTable, (typeof cameraColumns)[number]>;

/** The cameras with their project's exid and name (a camera whose project is gone is left out), passwords opened. */
function withProjects(db: PlatformDb, rows: CameraColumns[], projects: Map<string, { exid: string; name: string }>): CameraRow[] {
  return rows.flatMap((r) => {
    const p = projects.get(r.project_id);
    return p ? [{ ...r, connection: openConnection(db, r.id, r.connection), project_exid: p.exid, project_name: p.name }] : [];
  });
}

export async function cameraByExid(db: PlatformDb, exid: string): Promise<CameraRow | undefined> {
  const row = await db.kysely.selectFrom('cameras').select(cameraColumns).where('exid', '=', exid).executeTakeFirst();
  return row && withProjects(db, [row], await projectNamesOf(db, [row.project_id]))[0];
}

export async function camerasOfProjects(db: PlatformDb, projectIds: string[]): Promise<CameraRow[]> {
  if (projectIds.length === 0) return [];
  const [rows, projects] = await Promise.all([
    db.kysely.selectFrom('cameras').select(cameraColumns).where('project_id', 'in', projectIds).orderBy('name').orderBy('exid').execute(),
    projectNamesOf(db, projectIds),
  ]);
  return withProjects(db, rows, projects);
}

export const exidTaken = async (db: PlatformDb, exid: string) =>
  !!(await db.kysely.selectFrom('cameras').select('id').where('exid', '=', exid).executeTakeFirst());

export const insertCamera = (db: PlatformDb, row: CamerasTable) =>
  db.kysely
    .insertInto('cameras')
    .values({ ...row, connection: sealConnection(db, row.id, row.connection) })
    .execute();

export const updateCamera = (db: PlatformDb, id: string, set: Partial<CamerasTable>) =>
  db.kysely
    .updateTable('cameras')
    .set(set.connection === undefined ? set : { ...set, connection: sealConnection(db, id, set.connection) })
    .where('id', '=', id)
    .execute();

/** Cameras whose stored connection details may hold a password in clear (written before sealing). */
export const camerasWithPasswords = (db: PlatformDb) =>
  db.kysely.selectFrom('cameras').select(['id', 'connection']).where('connection', 'like', '%"password":%').execute();

/** Replaces the stored connection details if they are still `was` (another node may have sealed them first). */
export const replaceStoredConnection = (db: PlatformDb, id: string, was: string, connection: string) =>
  db.kysely.updateTable('cameras').set({ connection }).where('id', '=', id).where('connection', '=', was).execute();

/** The camera's latest public note, with its author's e-mail (null when the author is gone). */
export async function lastPublicNote(db: PlatformDb, cameraId: string) {
  const note = await db.kysely
    .selectFrom('camera_notes')
    .select(['id', 'content', 'created_at', 'author_id'])
    .where('camera_id', '=', cameraId)
    .where('is_public', '=', 1)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!note) return undefined;
  const { author_id, ...rest } = note;
  const emails = await emailsOf(db, author_id ? [author_id] : []);
  return { ...rest, author_email: (author_id && emails.get(author_id)) ?? null };
}

export const insertNote = (db: PlatformDb, row: { id: string; camera_id: string; author_id: string; content: string; is_public: number; created_at: string }) =>
  db.kysely.insertInto('camera_notes').values(row).execute();

export const deleteCamera = (db: PlatformDb, id: string) => db.kysely.deleteFrom('cameras').where('id', '=', id).execute();

/** Settings columns the cached camera row leaves out. */
export const cameraSettingsExtras = (db: PlatformDb, id: string) =>
  db.kysely.selectFrom('cameras').select(['updated_at', 'heading', 'fov']).where('id', '=', id).executeTakeFirst();

/** The project a camera belongs to, by the camera's exid. */
export const projectIdOfCamera = async (db: PlatformDb, exid: string): Promise<string | undefined> =>
  (await db.kysely.selectFrom('cameras').select('project_id').where('exid', '=', exid).executeTakeFirst())?.project_id;

/** A camera's ids and project, by exid. */
export const cameraRefByExid = (db: PlatformDb, exid: string) =>
  db.kysely.selectFrom('cameras').select(['id', 'exid', 'name', 'project_id']).where('exid', '=', exid).executeTakeFirst();

/** A camera of the project, by exid. */
export const cameraOfProject = (db: PlatformDb, projectId: string, exid: string) =>
  db.kysely.selectFrom('cameras').select(['id', 'exid', 'name']).where('project_id', '=', projectId).where('exid', '=', exid).executeTakeFirst();

/** Exid, name, time zone and project of the given cameras, by id (cameras since deleted are absent). */
export async function cameraRefsByIds(
  db: PlatformDb,
  ids: readonly string[],
): Promise<Map<string, { id: string; exid: string; name: string; timezone: string; project_id: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.kysely
    .selectFrom('cameras')
    .select(['id', 'exid', 'name', 'timezone', 'project_id'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** The project's cameras among `exids`. */
export async function projectCamerasAmong(db: PlatformDb, projectId: string, exids: readonly string[]): Promise<{ id: string; exid: string }[]> {
  if (exids.length === 0) return [];
  return db.kysely
    .selectFrom('cameras')
    .select(['id', 'exid'])
    .where('project_id', '=', projectId)
    .where('exid', 'in', [...exids])
    .execute();
}

/** Every camera of the project (ids and exids). */
export const camerasOfProject = (db: PlatformDb, projectId: string) =>
  db.kysely.selectFrom('cameras').select(['id', 'exid']).where('project_id', '=', projectId).execute();

/** The project's cameras as a project's page lists them: by name, then exid. */
export const cameraRefsOf = (db: PlatformDb, projectId: string) =>
  db.kysely.selectFrom('cameras').select(['exid', 'name', 'status']).where('project_id', '=', projectId).orderBy('name').orderBy('exid').execute();

/** The project's cameras as the administration shows them: by name. */
export const cameraSummariesOf = (db: PlatformDb, projectId: string) =>
  db.kysely.selectFrom('cameras').select(['exid', 'name', 'kind', 'status']).where('project_id', '=', projectId).orderBy('name').execute();

/** How many cameras each of the given projects has (absent: none). */
export async function cameraCountsOf(db: PlatformDb, projectIds: readonly string[]): Promise<Map<string, number>> {
  if (projectIds.length === 0) return new Map();
  const rows = await db.kysely
    .selectFrom('cameras')
    .select((eb) => ['project_id', eb.fn.countAll<number>().as('n')])
    .where('project_id', 'in', [...projectIds])
    .groupBy('project_id')
    .execute();
  return new Map(rows.map((r) => [r.project_id, Number(r.n)]));
}

export async function cameraCount(db: PlatformDb): Promise<number> {
  const { n } = await db.kysely
    .selectFrom('cameras')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Positions of the project's cameras that have one. */
export const cameraPositionsOf = (db: PlatformDb, projectId: string) =>
  db.kysely
    .selectFrom('cameras')
    .select(['lat', 'lng'])
    .where('project_id', '=', projectId)
    .where('lat', 'is not', null)
    .where('lng', 'is not', null)
    .execute();

/** The project's oldest camera that has a position. */
export const firstPlacedCamera = (db: PlatformDb, projectId: string) =>
  db.kysely
    .selectFrom('cameras')
    .select(['exid', 'lat', 'lng'])
    .where('project_id', '=', projectId)
    .where('lat', 'is not', null)
    .where('lng', 'is not', null)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .executeTakeFirst();

/** What the recorder needs to connect to the given cameras (every recording camera: asked in chunks, under the databases' parameter limits). */
export async function connectionsOf(db: PlatformDb, ids: readonly string[]) {
  const chunks = [];
  for (let i = 0; i < ids.length; i += 1000) {
    chunks.push(
      db.kysely
        .selectFrom('cameras')
        .select(['id', 'exid', 'kind', 'name', 'timezone', 'connection', 'sim_state'])
        .where('id', 'in', ids.slice(i, i + 1000))
        .execute(),
    );
  }
  return (await Promise.all(chunks)).flat().map((r) => ({ ...r, connection: openConnection(db, r.id, r.connection) }));
}

export interface CameraSearch {
  q?: string;
  /** Only the cameras of this project. */
  projectId?: string;
  page: number;
  pageSize: number;
}

/** One page of cameras (by name, then exid) matching an administrator's search, never their connection details, and how many match in all. */
export async function searchCameras(db: PlatformDb, s: CameraSearch) {
  let query = db.kysely.selectFrom('cameras');
  if (s.q) {
    const text = s.q;
    query = query.where((eb) => eb.or([contains('name', text), contains('exid', text)]));
  }
  if (s.projectId) query = query.where('project_id', '=', s.projectId);
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await query
    .select(['exid', 'name', 'kind', 'status', 'last_online_at', 'created_at', 'project_id'])
    .orderBy('name')
    .orderBy('exid')
    .limit(s.pageSize)
    .offset(pageOffset(s.page, s.pageSize))
    .execute();
  return { total: Number(total), rows };
}

/** A camera as the administration shows it: never its connection details (they hold its credentials). */
export const adminCameraByExid = (db: PlatformDb, exid: string) =>
  db.kysely
    .selectFrom('cameras')
    .select(['exid', 'name', 'kind', 'status', 'timezone', 'last_online_at', 'last_checked_at', 'created_at', 'project_id'])
    .where('exid', '=', exid)
    .executeTakeFirst();
