// The audit_events table: written once per security-relevant change, read by filters.
import { pageOffset } from '../../lib/http/pagination.js';
import type { PlatformDb } from '../database.js';
import type { AuditEventsTable, AuditOutcome } from './audit-tables.js';

/** A filter of the audit log, one page of it. */
export interface AuditQuery {
  /** Events where this person acted or was the subject (a person's own log). */
  involving?: string;
  actorUserId?: string;
  subjectUserId?: string;
  action?: string;
  outcome?: AuditOutcome;
  targetType?: string;
  targetId?: string;
  from?: string;
  to?: string;
  page: number;
  pageSize: number;
}

export const insertAuditEvent = (db: PlatformDb, row: AuditEventsTable) => db.kysely.insertInto('audit_events').values(row).execute();

/** One page of the events matching the query (newest first), and how many match in all. */
export async function searchAuditEvents(db: PlatformDb, q: AuditQuery): Promise<{ total: number; rows: AuditEventsTable[] }> {
  let query = db.kysely.selectFrom('audit_events');
  if (q.involving) {
    const who = q.involving;
    query = query.where((eb) => eb.or([eb('actor_user_id', '=', who), eb('subject_user_id', '=', who)]));
  }
  if (q.actorUserId) query = query.where('actor_user_id', '=', q.actorUserId);
  if (q.subjectUserId) query = query.where('subject_user_id', '=', q.subjectUserId);
  if (q.action) query = q.action.endsWith('.*') ? query.where('action', 'like', `${q.action.slice(0, -1)}%`) : query.where('action', '=', q.action);
  if (q.outcome) query = query.where('outcome', '=', q.outcome);
  if (q.targetType) query = query.where('target_type', '=', q.targetType);
  if (q.targetId) query = query.where('target_id', '=', q.targetId);
  if (q.from) query = query.where('created_at', '>=', q.from);
  if (q.to) query = query.where('created_at', '<', q.to);
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.pageSize).offset(pageOffset(q.page, q.pageSize)).execute();
  return { total: Number(total), rows };
}

/** How many events were written since `since` (platform statistics). */
export async function countAuditEventsSince(db: PlatformDb, since: string): Promise<number> {
  const { n } = await db.kysely
    .selectFrom('audit_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(n);
}
