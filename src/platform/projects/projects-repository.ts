// The projects table (logos and thumbnails: project-images-repository.ts); a project's contacts come
// from the members' and users' repositories, asked once.
import type { PlatformDb } from '../database.js';
import type { ProjectsTable } from './projects-tables.js';
import type { Role } from '../access/index.js';
import { contains } from '../../lib/db/contains.js';
import { inTransaction } from '../../lib/db/transaction.js';
import { pageOffset } from '../../lib/http/pagination.js';
import { insertMember, membersOf } from '../members/index.js';
import { profilesOf } from '../users/index.js';

/** The columns a project is listed with. */
const projectColumns = ['id', 'exid', 'name', 'status', 'timezone', 'created_at'] as const;

export type ProjectColumns = Pick<ProjectsTable, (typeof projectColumns)[number]>;

/** The given projects, by name then exid. */
export async function projectRowsByIds(db: PlatformDb, ids: readonly string[]): Promise<ProjectColumns[]> {
  if (ids.length === 0) return [];
  return db.kysely
    .selectFrom('projects')
    .select(projectColumns)
    .where('id', 'in', [...ids])
    .orderBy('name')
    .orderBy('exid')
    .execute();
}

export const exidTaken = async (db: PlatformDb, exid: string) =>
  !!(await db.kysely.selectFrom('projects').select('id').where('exid', '=', exid).executeTakeFirst());

export async function insertProject(
  db: PlatformDb,
  p: { id: string; exid: string; name: string; status: ProjectsTable['status']; timezone: string; ownerId: string; now: string },
): Promise<void> {
  await inTransaction(db, async (tx) => {
    await tx.kysely
      .insertInto('projects')
      .values({ id: p.id, exid: p.exid, name: p.name, status: p.status, timezone: p.timezone, created_at: p.now, updated_at: p.now })
      .execute();
    await insertMember(tx, { project_id: p.id, user_id: p.ownerId, role: 'owner' satisfies Role, created_at: p.now });
  });
}

/** The project's members with their names and e-mails, by last name then e-mail. */
export async function contactsOf(db: PlatformDb, projectId: string) {
  const members = await membersOf(db, projectId);
  const roles = new Map(members.map((m) => [m.user_id, m.role]));
  const people = await profilesOf(db, [...roles.keys()], 'name');
  return [...people.values()].map((u) => ({ ...u, role: roles.get(u.id)! }));
}

/** A project's id and exid, by exid. */
export const projectRefByExid = (db: PlatformDb, exid: string) =>
  db.kysely.selectFrom('projects').select(['id', 'exid']).where('exid', '=', exid).executeTakeFirst();

/** A project's id and exid, by id. */
export const projectRefById = (db: PlatformDb, id: string) => db.kysely.selectFrom('projects').select(['id', 'exid']).where('id', '=', id).executeTakeFirst();

/** The projects among the given exids, with their ids. */
export async function projectRefsByExids(db: PlatformDb, exids: readonly string[]): Promise<{ id: string; exid: string }[]> {
  if (exids.length === 0) return [];
  return db.kysely
    .selectFrom('projects')
    .select(['id', 'exid'])
    .where('exid', 'in', [...exids])
    .execute();
}

export const projectRowById = (db: PlatformDb, id: string) => db.kysely.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();

/** The project; throws when there is none (callers that have already found it). */
export const projectRowByIdOrThrow = (db: PlatformDb, id: string) =>
  db.kysely.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

export const projectRowByExid = (db: PlatformDb, exid: string) => db.kysely.selectFrom('projects').selectAll().where('exid', '=', exid).executeTakeFirst();

/** Exids and names of the given projects, by id, in name (then exid) order. */
export async function projectNamesOf(db: PlatformDb, ids: readonly string[]): Promise<Map<string, { id: string; exid: string; name: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.kysely
    .selectFrom('projects')
    .select(['id', 'exid', 'name'])
    .where('id', 'in', [...new Set(ids)])
    .orderBy('name')
    .orderBy('exid')
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** Exids of the given projects, by id, in exid order. */
export async function projectExidsOf(db: PlatformDb, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.kysely
    .selectFrom('projects')
    .select(['id', 'exid'])
    .where('id', 'in', [...new Set(ids)])
    .orderBy('exid')
    .execute();
  return new Map(rows.map((r) => [r.id, r.exid]));
}

export const updateProject = (db: PlatformDb, id: string, set: Partial<ProjectsTable>) =>
  db.kysely.updateTable('projects').set(set).where('id', '=', id).execute();

/** Deletes the project; its rows in other tables go with it (foreign keys cascade). */
export const deleteProject = (db: PlatformDb, id: string) => db.kysely.deleteFrom('projects').where('id', '=', id).execute();

export async function projectCount(db: PlatformDb): Promise<number> {
  const { n } = await db.kysely
    .selectFrom('projects')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

export interface ProjectSearch {
  q?: string;
  /** Only these projects (an empty list finds none). */
  ids?: readonly string[];
  page: number;
  pageSize: number;
}

/** One page of projects (by name, then exid) matching an administrator's search, and how many match in all. */
export async function searchProjects(db: PlatformDb, s: ProjectSearch): Promise<{ total: number; rows: ProjectColumns[] }> {
  if (s.ids?.length === 0) return { total: 0, rows: [] };
  let query = db.kysely.selectFrom('projects');
  if (s.q) {
    const text = s.q;
    query = query.where((eb) => eb.or([contains('name', text), contains('exid', text)]));
  }
  if (s.ids) query = query.where('id', 'in', [...s.ids]);
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await query.select(projectColumns).orderBy('name').orderBy('exid').limit(s.pageSize).offset(pageOffset(s.page, s.pageSize)).execute();
  return { total: Number(total), rows };
}
