// The project_invitations table: invitations to a project for e-mails that have no account yet, one
// per project and e-mail. Expired rows are left in place and never read as pending; adding the e-mail
// again refreshes the row.
import type { PlatformDb } from '../database.js';
import type { ProjectInvitationsTable } from './members-tables.js';

const columns = ['id', 'project_id', 'email', 'role', 'invited_by', 'created_at', 'expires_at'] as const;

/** Creates the project's invitation for the e-mail, or refreshes the one there (role, token, expiry, inviter). */
export const upsertInvitation = (db: PlatformDb, row: ProjectInvitationsTable) =>
  db.kysely
    .insertInto('project_invitations')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['project_id', 'email']).doUpdateSet({
        role: row.role,
        token_hash: row.token_hash,
        invited_by: row.invited_by,
        created_at: row.created_at,
        expires_at: row.expires_at,
      }),
    )
    .execute();

export const invitationById = (db: PlatformDb, id: string) =>
  db.kysely.selectFrom('project_invitations').select(columns).where('id', '=', id).executeTakeFirst();

/** The project's invitation for the e-mail (expired or not). */
export const invitationFor = (db: PlatformDb, projectId: string, email: string) =>
  db.kysely.selectFrom('project_invitations').select(columns).where('project_id', '=', projectId).where('email', '=', email).executeTakeFirst();

/** The invitations waiting for the e-mail (not expired at `now`), newest first. */
export const pendingInvitationsFor = (db: PlatformDb, email: string, now: string) =>
  db.kysely
    .selectFrom('project_invitations')
    .select(columns)
    .where('email', '=', email)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();

/** The project's pending invitations (not expired at `now`), by e-mail. */
export const pendingInvitationsOf = (db: PlatformDb, projectId: string, now: string) =>
  db.kysely.selectFrom('project_invitations').select(columns).where('project_id', '=', projectId).where('expires_at', '>', now).orderBy('email').execute();

/** Deletes the invitation; how many were deleted (0 when another request took it first). */
export async function deleteInvitation(db: PlatformDb, id: string): Promise<number> {
  const res = await db.kysely.deleteFrom('project_invitations').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Deletes the project's invitation for the e-mail, if any (the person joined another way). */
export const deleteInvitationFor = (db: PlatformDb, projectId: string, email: string) =>
  db.kysely.deleteFrom('project_invitations').where('project_id', '=', projectId).where('email', '=', email).execute();

/** Deletes the invitations that expired before `at`. */
export const deleteInvitationsExpiredBefore = (db: PlatformDb, at: string) =>
  db.kysely.deleteFrom('project_invitations').where('expires_at', '<', at).execute();

/** Gives the invitation a new token (its hash): the link of an earlier e-mail stops working. */
export async function setInvitationToken(db: PlatformDb, id: string, tokenHash: string): Promise<boolean> {
  const res = await db.kysely.updateTable('project_invitations').set({ token_hash: tokenHash }).where('id', '=', id).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** The invitation whose token has this hash (expired or not). */
export const invitationByTokenHash = (db: PlatformDb, tokenHash: string) =>
  db.kysely.selectFrom('project_invitations').select(columns).where('token_hash', '=', tokenHash).executeTakeFirst();

/** Deletes the invitations the person made to the project with one of `roles`; the e-mails and roles deleted. */
export async function deleteInvitationsBy(db: PlatformDb, projectId: string, inviterId: string, roles: readonly string[]) {
  if (roles.length === 0) return [];
  const rows = await db.kysely
    .selectFrom('project_invitations')
    .select(['id', 'email', 'role'])
    .where('project_id', '=', projectId)
    .where('invited_by', '=', inviterId)
    .where('role', 'in', roles as ('viewer' | 'editor' | 'admin')[])
    .execute();
  if (rows.length > 0)
    await db.kysely
      .deleteFrom('project_invitations')
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
  return rows;
}
