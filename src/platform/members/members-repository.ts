// The project_members table: who holds which role on which project. Other features ask here for a
// project's owner, admins or members, and a person's memberships (in batches where they list many).
import type { PlatformDb } from '../database.js';
import { inTransaction } from '../../lib/db/transaction.js';
import type { Role } from '../access/index.js';
import type { ProjectMembersTable } from './members-tables.js';
import { profilesOf } from '../users/index.js';

/** Every project the person is a member of, with their role. */
export const membershipsOf = (db: PlatformDb, userId: string) =>
  db.kysely.selectFrom('project_members').select(['project_id', 'role']).where('user_id', '=', userId).execute();

/** The project's members, oldest membership first. */
export const membersOf = (db: PlatformDb, projectId: string) =>
  db.kysely.selectFrom('project_members').select(['user_id', 'role', 'created_at']).where('project_id', '=', projectId).orderBy('created_at').execute();

export const memberOf = (db: PlatformDb, projectId: string, userId: string) =>
  db.kysely
    .selectFrom('project_members')
    .select(['user_id', 'role', 'created_at'])
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .executeTakeFirst();

/** The project's members with their names and e-mails, oldest membership first, then by e-mail (people since deleted are left out). */
export async function memberProfilesOf(db: PlatformDb, projectId: string) {
  const members = await membersOf(db, projectId);
  const people = await profilesOf(
    db,
    members.map((m) => m.user_id),
  );
  const byEmail = new Map([...people.keys()].map((id, i) => [id, i]));
  // Rows come by membership date; people of the same date go by e-mail, as ordered by the users query.
  const order = new Map(members.map((m, i) => [m.user_id, i]));
  return members
    .filter((m) => people.has(m.user_id))
    .sort((a, b) => (a.created_at === b.created_at ? byEmail.get(a.user_id)! - byEmail.get(b.user_id)! : order.get(a.user_id)! - order.get(b.user_id)!))
    .map((m) => {
      const u = people.get(m.user_id)!;
      return { user_id: u.id, email: u.email, firstname: u.firstname, lastname: u.lastname, role: m.role, created_at: m.created_at };
    });
}

/** One member with their name and e-mail. */
export async function memberProfile(db: PlatformDb, projectId: string, userId: string) {
  const m = await memberOf(db, projectId, userId);
  const u = m && (await profilesOf(db, [userId])).get(userId);
  return u && { user_id: u.id, email: u.email, firstname: u.firstname, lastname: u.lastname, role: m.role, created_at: m.created_at };
}

export const insertMember = (db: PlatformDb, row: ProjectMembersTable) => db.kysely.insertInto('project_members').values(row).execute();

export const setRole = (db: PlatformDb, projectId: string, userId: string, role: Role) =>
  db.kysely.updateTable('project_members').set({ role }).where('project_id', '=', projectId).where('user_id', '=', userId).execute();

export const deleteMember = (db: PlatformDb, projectId: string, userId: string) =>
  db.kysely.deleteFrom('project_members').where('project_id', '=', projectId).where('user_id', '=', userId).execute();

/** The project's owner, if it has one. */
export const ownerOf = async (db: PlatformDb, projectId: string): Promise<string | undefined> =>
  (await db.kysely.selectFrom('project_members').select('user_id').where('project_id', '=', projectId).where('role', '=', 'owner').executeTakeFirst())?.user_id;

/** The owners of the given projects, by project id (a project without one is absent). */
export async function ownersOf(db: PlatformDb, projectIds: readonly string[]): Promise<Map<string, string>> {
  if (projectIds.length === 0) return new Map();
  const rows = await db.kysely
    .selectFrom('project_members')
    .select(['project_id', 'user_id'])
    .where('project_id', 'in', [...projectIds])
    .where('role', '=', 'owner')
    .execute();
  return new Map(rows.map((r) => [r.project_id, r.user_id]));
}

/** The projects the person owns. */
export async function projectIdsOwnedBy(db: PlatformDb, userId: string): Promise<string[]> {
  const rows = await db.kysely.selectFrom('project_members').select('project_id').where('user_id', '=', userId).where('role', '=', 'owner').execute();
  return rows.map((r) => r.project_id);
}

/** How many members each of the given projects has (absent: none). */
export async function memberCountsOf(db: PlatformDb, projectIds: readonly string[]): Promise<Map<string, number>> {
  if (projectIds.length === 0) return new Map();
  const rows = await db.kysely
    .selectFrom('project_members')
    .select((eb) => ['project_id', eb.fn.countAll<number>().as('n')])
    .where('project_id', 'in', [...projectIds])
    .groupBy('project_id')
    .execute();
  return new Map(rows.map((r) => [r.project_id, Number(r.n)]));
}

/** Those of the given people who are members of the project. */
export async function membersAmong(db: PlatformDb, projectId: string, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db.kysely
    .selectFrom('project_members')
    .select('user_id')
    .where('project_id', '=', projectId)
    .where('user_id', 'in', [...userIds])
    .execute();
  return new Set(rows.map((r) => r.user_id));
}

/** Those of the given projects the person is a member of. */
export async function projectsOfMemberAmong(db: PlatformDb, userId: string, projectIds: readonly string[]): Promise<Set<string>> {
  if (projectIds.length === 0) return new Set();
  const rows = await db.kysely
    .selectFrom('project_members')
    .select('project_id')
    .where('user_id', '=', userId)
    .where('project_id', 'in', [...projectIds])
    .execute();
  return new Set(rows.map((r) => r.project_id));
}

/** The project's admins and owner. */
export async function adminsOf(db: PlatformDb, projectId: string): Promise<string[]> {
  const rows = await db.kysely
    .selectFrom('project_members')
    .select('user_id')
    .where('project_id', '=', projectId)
    .where('role', 'in', ['admin', 'owner'])
    .execute();
  return rows.map((r) => r.user_id);
}

/** Makes `to` the owner and the previous owner (if any) an admin, in one transaction. */
export async function moveOwnership(db: PlatformDb, projectId: string, previousOwnerId: string | undefined, to: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    if (previousOwnerId) await setRole(tx, projectId, previousOwnerId, 'admin');
    await setRole(tx, projectId, to, 'owner');
  });
}

/** Whether the two people are members of at least one project in common. */
export async function shareAProject(db: PlatformDb, a: string, b: string): Promise<boolean> {
  const row = await db.kysely
    .selectFrom('project_members as mine')
    .innerJoin('project_members as theirs', 'theirs.project_id', 'mine.project_id')
    .select('mine.project_id')
    .where('mine.user_id', '=', a)
    .where('theirs.user_id', '=', b)
    .limit(1)
    .executeTakeFirst();
  return !!row;
}
