// The sessions and session_activities tables: sign-in sessions (live, revoked, impersonated) and the
// per-person log of sign-ins and sign-outs.
import { pageOffset } from '../../lib/http/pagination.js';
import type { PlatformDb } from '../database.js';
import type { ActivityAction, SessionActivitiesTable, SessionsTable } from './auth-tables.js';

export const insertSession = (db: PlatformDb, row: SessionsTable) => db.kysely.insertInto('sessions').values(row).execute();

export const sessionById = (db: PlatformDb, id: string) => db.kysely.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();

/** When the session began and ends; throws when there is no such session. */
export const sessionTimesOf = (db: PlatformDb, id: string) =>
  db.kysely.selectFrom('sessions').select(['created_at', 'expires_at']).where('id', '=', id).executeTakeFirstOrThrow();

/** Writes one last-seen time for several sessions at once. */
export const touchSessions = (db: PlatformDb, ids: string[], at: string) =>
  db.kysely.updateTable('sessions').set({ last_seen_at: at }).where('id', 'in', ids).execute();

/** Ends the person's session unless already ended; how many ended (0 or 1). */
export async function revokeSession(db: PlatformDb, id: string, userId: string, at: string): Promise<number> {
  const res = await db.kysely
    .updateTable('sessions')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Ends every session of the person not already ended; how many ended. */
export async function revokeSessionsOf(db: PlatformDb, userId: string, at: string): Promise<number> {
  const res = await db.kysely.updateTable('sessions').set({ revoked_at: at }).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Ends a session whoever it belongs to, unless already ended; how many ended (0 or 1). */
export async function revokeSessionById(db: PlatformDb, id: string, at: string): Promise<number> {
  const res = await db.kysely.updateTable('sessions').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Ends every impersonation the admin opened that has not ended; how many ended. */
export async function revokeImpersonationsBy(db: PlatformDb, adminId: string, at: string): Promise<number> {
  const res = await db.kysely
    .updateTable('sessions')
    .set({ revoked_at: at })
    .where('impersonator_id', '=', adminId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** The ids of the person's sessions not ended, but for `exceptId`. */
export async function openSessionIdsOf(db: PlatformDb, userId: string, exceptId: string): Promise<string[]> {
  const rows = await db.kysely
    .selectFrom('sessions')
    .select('id')
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('id', '!=', exceptId)
    .execute();
  return rows.map((r) => r.id);
}

const live = (db: PlatformDb, now: string) => db.kysely.selectFrom('sessions').where('revoked_at', 'is', null).where('expires_at', '>', now);

/** The person's live sessions, newest first. */
export const liveSessionsOf = (db: PlatformDb, userId: string, now: string) =>
  live(db, now)
    .select(['id', 'created_at', 'last_seen_at', 'expires_at', 'ip', 'user_agent', 'impersonator_id'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .execute();

export async function countLiveSessionsOf(db: PlatformDb, userId: string, now: string): Promise<number> {
  const { n } = await live(db, now)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Live impersonated sessions, newest first. */
export const liveImpersonations = (db: PlatformDb, now: string) =>
  live(db, now)
    .select(['id', 'user_id', 'impersonator_id', 'created_at', 'expires_at', 'last_seen_at'])
    .where('impersonator_id', 'is not', null)
    .orderBy('created_at', 'desc')
    .execute();

/** Platform statistics: live sessions, and how many of them are impersonations. */
export async function liveSessionCounts(db: PlatformDb, now: string): Promise<{ active: number; impersonated: number }> {
  const count = live(db, now).select((eb) => eb.fn.countAll<number>().as('n'));
  const [active, impersonated] = await Promise.all([count.executeTakeFirstOrThrow(), count.where('impersonator_id', 'is not', null).executeTakeFirstOrThrow()]);
  return { active: Number(active.n), impersonated: Number(impersonated.n) };
}

export const insertActivity = (db: PlatformDb, row: SessionActivitiesTable) => db.kysely.insertInto('session_activities').values(row).execute();

/** One page of the person's session activities (newest first), and how many there are in all. */
export async function activitiesOf(db: PlatformDb, userId: string, q: { action?: ActivityAction; page: number; pageSize: number }) {
  let query = db.kysely.selectFrom('session_activities').where('user_id', '=', userId);
  if (q.action) query = query.where('action', '=', q.action);
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await query
    .select(['id', 'session_id', 'action', 'ip', 'user_agent', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(q.pageSize)
    .offset(pageOffset(q.page, q.pageSize))
    .execute();
  return { total: Number(total), rows };
}
