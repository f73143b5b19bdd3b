// Queries behind projects.
import type { Db } from '../../lib/db/index.js';
import type { ProjectsTable } from '../../lib/db/schema.js';
import type { Role } from '../access/policy.js';

/** A project row with its owner and camera count. */
export interface ProjectRow extends Omit<ProjectsTable, 'updated_at'> {
  owner_id: string | null;
  owner_email: string | null;
  camera_count: number;
}

function baseQuery(db: Db) {
  return db.kysely
    .selectFrom('projects')
    .leftJoin('project_members as o', (j) => j.onRef('o.project_id', '=', 'projects.id').on('o.role', '=', 'owner'))
    .leftJoin('users as ou', 'ou.id', 'o.user_id')
    .select((eb) => [
      'projects.id',
      'projects.exid',
      'projects.name',
      'projects.status',
      'projects.timezone',
      'projects.created_at',
      'ou.id as owner_id',
      'ou.email as owner_email',
      eb.selectFrom('cameras').select((e) => e.fn.countAll<number>().as('n')).whereRef('cameras.project_id', '=', 'projects.id').as('camera_count'),
    ]);
}

export async function projectsByIds(db: Db, ids: string[]): Promise<ProjectRow[]> {
  if (ids.length === 0) return [];
  const rows = await baseQuery(db).where('projects.id', 'in', ids).orderBy('projects.name').orderBy('projects.exid').execute();
  return rows.map((r) => ({ ...r, camera_count: Number(r.camera_count ?? 0) }));
}

export async function projectById(db: Db, id: string): Promise<ProjectRow | undefined> {
  const r = await baseQuery(db).where('projects.id', '=', id).executeTakeFirst();
  return r && { ...r, camera_count: Number(r.camera_count ?? 0) };
}

export const exidTaken = async (db: Db, exid: string) => !!(await db.kysely.selectFrom('projects').select('id').where('exid', '=', exid).executeTakeFirst());

export async function insertProject(db: Db, p: { id: string; exid: string; name: string; status: string; timezone: string; ownerId: string; now: string }): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    await trx.insertInto('projects').values({ id: p.id, exid: p.exid, name: p.name, status: p.status, timezone: p.timezone, created_at: p.now, updated_at: p.now }).execute();
    await trx.insertInto('project_members').values({ project_id: p.id, user_id: p.ownerId, role: 'owner' satisfies Role, created_at: p.now }).execute();
  });
}

export const contactsOf = (db: Db, projectId: string) =>
  db.kysely
    .selectFrom('project_members')
    .innerJoin('users', 'users.id', 'project_members.user_id')
    .select(['users.id', 'users.email', 'users.firstname', 'users.lastname', 'project_members.role'])
    .where('project_members.project_id', '=', projectId)
    .orderBy('users.lastname')
    .orderBy('users.email')
    .execute();

export const cameraRefsOf = (db: Db, projectId: string) =>
  db.kysely.selectFrom('cameras').select(['exid', 'name', 'status']).where('project_id', '=', projectId).orderBy('name').orderBy('exid').execute();
