// The notifications table: what each person is told, read or not.
import { pageOffset } from '../../lib/http/pagination.js';
import type { PlatformDb } from '../database.js';
import type { NotificationsTable } from './notifications-tables.js';

export const insertNotification = (db: PlatformDb, row: NotificationsTable) => db.kysely.insertInto('notifications').values(row).execute();

/** One page of the person's notifications (newest first, unread only if asked), how many match, and how many are unread. */
export async function notificationsOf(db: PlatformDb, userId: string, opts: { unreadOnly: boolean; page: number; pageSize: number }) {
  const k = db.kysely;
  let q = k.selectFrom('notifications').where('user_id', '=', userId);
  if (opts.unreadOnly) q = q.where('read_at', 'is', null);
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const { unread } = await k
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('unread'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  const rows = await q
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(opts.pageSize)
    .offset(pageOffset(opts.page, opts.pageSize))
    .execute();
  return { total: Number(total), unread: Number(unread), rows };
}

/** Sets the read time of one of the person's notifications; how many changed (0 when not theirs). */
export async function setReadAt(db: PlatformDb, userId: string, id: string, readAt: string | null): Promise<number> {
  const res = await db.kysely.updateTable('notifications').set({ read_at: readAt }).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(res.numUpdatedRows);
}

export const notificationByIdOrThrow = (db: PlatformDb, id: string) =>
  db.kysely.selectFrom('notifications').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** Marks every unread notification of the person read; how many. */
export async function markAllReadOf(db: PlatformDb, userId: string, at: string): Promise<number> {
  const res = await db.kysely.updateTable('notifications').set({ read_at: at }).where('user_id', '=', userId).where('read_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows);
}
