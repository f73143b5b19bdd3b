// The comments table: comments on cameras' frames.
import type { PlatformDb } from '../database.js';
import type { CommentsTable } from './comments-tables.js';
import { cameraRefsByIds } from '../cameras/index.js';
import { projectExidsOf } from '../projects/index.js';
import { profilesOf } from '../users/index.js';

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

/** The comments with their camera's and project's exids and their author's e-mail and name, each owner asked once. */
async function withRefs(db: PlatformDb, rows: CommentsTable[]): Promise<CommentRow[]> {
  const authors = rows.flatMap((r) => (r.author_id ? [r.author_id] : []));
  const [cameras, projects, people] = await Promise.all([
    cameraRefsByIds(
      db,
      rows.map((r) => r.camera_id),
    ),
    projectExidsOf(
      db,
      rows.map((r) => r.project_id),
    ),
    profilesOf(db, authors),
  ]);
  return rows.flatMap((r) => {
    const camera = cameras.get(r.camera_id);
    const projectExid = projects.get(r.project_id);
    if (!camera || projectExid === undefined) return [];
    const author = r.author_id ? people.get(r.author_id) : undefined;
    const creator = author
      ? { creator_email: author.email, creator_name: `${author.firstname} ${author.lastname}`.trim() }
      : { creator_email: null, creator_name: null };
    return [{ ...r, camera_exid: camera.exid, project_exid: projectExid, ...creator }];
  });
}

function filtered(db: PlatformDb, f: CommentFilter) {
  let q = db.kysely.selectFrom('comments').selectAll().where('project_id', '=', f.projectId);
  if (f.cameraId) q = q.where('camera_id', '=', f.cameraId);
  if (f.from) q = q.where('frame_at', '>=', f.from);
  if (f.to) q = q.where('frame_at', '<=', f.to);
  if (f.archived === 'true') q = q.where('archived_at', 'is not', null);
  if (f.archived === 'false') q = q.where('archived_at', 'is', null);
  return q;
}

export async function countComments(db: PlatformDb, f: CommentFilter): Promise<number> {
  let q = db.kysely.selectFrom('comments').where('project_id', '=', f.projectId);
  if (f.cameraId) q = q.where('camera_id', '=', f.cameraId);
  if (f.from) q = q.where('frame_at', '>=', f.from);
  if (f.to) q = q.where('frame_at', '<=', f.to);
  if (f.archived === 'true') q = q.where('archived_at', 'is not', null);
  if (f.archived === 'false') q = q.where('archived_at', 'is', null);
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  return Number(total);
}

export async function listComments(db: PlatformDb, f: CommentFilter, limit: number, offset: number): Promise<CommentRow[]> {
  return withRefs(db, await filtered(db, f).orderBy('frame_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute());
}

export async function commentById(db: PlatformDb, projectId: string, id: string): Promise<CommentRow | undefined> {
  const row = await db.kysely.selectFrom('comments').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  return row && (await withRefs(db, [row]))[0];
}

export const insertComment = (db: PlatformDb, row: CommentsTable) => db.kysely.insertInto('comments').values(row).execute();

export const updateComment = (db: PlatformDb, id: string, set: Partial<CommentsTable>) =>
  db.kysely.updateTable('comments').set(set).where('id', '=', id).execute();

export const deleteComment = (db: PlatformDb, id: string) => db.kysely.deleteFrom('comments').where('id', '=', id).execute();
