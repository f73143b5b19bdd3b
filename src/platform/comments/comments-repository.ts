// Queries behind comments on cameras.
import type { Db } from '../../lib/db/index.js';
import type { CommentsTable } from '../../lib/db/schema.js';

export interface CommentRow extends CommentsTable {
  camera_exid: string;
  project_exid: string;
  creator_email: string | null;
  creator_name: string | null;
}

export interface CommentFilter {
  projectId: string;
  cameraId?: string;
  from?: string;
  to?: string;
  archived: 'true' | 'false' | 'all';
}

const commentQuery = (db: Db) =>
  db.kysely
    .selectFrom('comments')
    .innerJoin('cameras', 'cameras.id', 'comments.camera_id')
    .innerJoin('projects', 'projects.id', 'comments.project_id')
    .leftJoin('users', 'users.id', 'comments.author_id')
    .selectAll('comments')
    .select(['cameras.exid as camera_exid', 'projects.exid as project_exid', 'users.email as creator_email'])
    .select((eb) => eb.fn.coalesce(eb.ref('users.firstname'), eb.val('')).as('creator_firstname'))
    .select((eb) => eb.fn.coalesce(eb.ref('users.lastname'), eb.val('')).as('creator_lastname'));

function withName(r: CommentsTable & { camera_exid: string; project_exid: string; creator_email: string | null; creator_firstname: string; creator_lastname: string }): CommentRow {
  const { creator_firstname, creator_lastname, ...rest } = r;
  const name = `${creator_firstname} ${creator_lastname}`.trim();
  return { ...rest, creator_name: rest.creator_email === null ? null : name };
}

function filtered(db: Db, f: CommentFilter) {
  let q = commentQuery(db).where('comments.project_id', '=', f.projectId);
  if (f.cameraId) q = q.where('comments.camera_id', '=', f.cameraId);
  if (f.from) q = q.where('comments.frame_at', '>=', f.from);
  if (f.to) q = q.where('comments.frame_at', '<=', f.to);
  if (f.archived === 'true') q = q.where('comments.archived_at', 'is not', null);
  if (f.archived === 'false') q = q.where('comments.archived_at', 'is', null);
  return q;
}

export async function countComments(db: Db, f: CommentFilter): Promise<number> {
  let q = db.kysely.selectFrom('comments').where('project_id', '=', f.projectId);
  if (f.cameraId) q = q.where('camera_id', '=', f.cameraId);
  if (f.from) q = q.where('frame_at', '>=', f.from);
  if (f.to) q = q.where('frame_at', '<=', f.to);
  if (f.archived === 'true') q = q.where('archived_at', 'is not', null);
  if (f.archived === 'false') q = q.where('archived_at', 'is', null);
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  return Number(total);
}

export async function listComments(db: Db, f: CommentFilter, limit: number, offset: number): Promise<CommentRow[]> {
  const rows = await filtered(db, f).orderBy('comments.frame_at', 'desc').orderBy('comments.id', 'desc').limit(limit).offset(offset).execute();
  return rows.map(withName);
}

export async function commentById(db: Db, projectId: string, id: string): Promise<CommentRow | undefined> {
  const row = await commentQuery(db).where('comments.project_id', '=', projectId).where('comments.id', '=', id).executeTakeFirst();
  return row && withName(row);
}

export const insertComment = (db: Db, row: CommentsTable) => db.kysely.insertInto('comments').values(row).execute();

export const updateComment = (db: Db, id: string, set: Partial<CommentsTable>) => db.kysely.updateTable('comments').set(set).where('id', '=', id).execute();

export const deleteComment = (db: Db, id: string) => db.kysely.deleteFrom('comments').where('id', '=', id).execute();

export const cameraOfProject = (db: Db, projectId: string, exid: string) =>
  db.kysely.selectFrom('cameras').select(['id', 'exid', 'name']).where('project_id', '=', projectId).where('exid', '=', exid).executeTakeFirst();

/** The project's members among the given e-mails (case-insensitive) and user ids. */
export async function membersAmong(db: Db, projectId: string, emails: string[], ids: string[]): Promise<{ id: string; email: string }[]> {
  if (emails.length === 0 && ids.length === 0) return [];
  return db.kysely
    .selectFrom('project_members')
    .innerJoin('users', 'users.id', 'project_members.user_id')
    .select(['users.id', 'users.email'])
    .where('project_members.project_id', '=', projectId)
    .where((eb) => {
      const ors = [];
      if (emails.length > 0) ors.push(eb(eb.fn('lower', ['users.email']), 'in', emails));
      if (ids.length > 0) ors.push(eb('users.id', 'in', ids));
      return eb.or(ors);
    })
    .execute();
}

export const emailOf = async (db: Db, userId: string) => (await db.kysely.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst())?.email ?? null;

/** E-mails of the given users, by id (people since deleted are simply absent). */
export async function emailsOf(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.kysely.selectFrom('users').select(['id', 'email']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.email]));
}
