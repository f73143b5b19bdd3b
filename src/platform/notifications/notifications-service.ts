// A person's notifications: created by real events (added to a project, role changed…), listed, marked read.
import type { Db } from '../../lib/db/index.js';
import { ApiError } from '../../lib/errors.js';
import { pageMeta, pageOffset, type PageMeta } from '../../lib/http/pagination.js';
import { newId } from '../../lib/ids.js';

export type NotificationType = 'project_shared' | 'role_changed' | 'removed_from_project' | 'camera_status_changed' | 'mention' | 'api_key_expiring' | 'site_access_event' | 'doorbell_ring' | 'doorbell_event'
  /** Media hub renders, for the requester (Evercam's timelapse_created / timelapse_failed, and the same for clips and compares). */
  | `${'clip' | 'compare' | 'timelapse'}_${'created' | 'failed'}`;

export interface Notification {
  id: string;
  type: string;
  message: string;
  context: Record<string, unknown>;
  read: boolean;
  read_timestamp: string | null;
  created_at: string;
}

interface NotificationRow {
  id: string;
  type: string;
  message: string;
  context: string;
  read_at: string | null;
  created_at: string;
}

function toNotification(r: NotificationRow): Notification {
  return {
    id: r.id,
    type: r.type,
    message: r.message,
    context: JSON.parse(r.context) as Record<string, unknown>,
    read: r.read_at !== null,
    read_timestamp: r.read_at,
    created_at: r.created_at,
  };
}

export class NotificationsService {
  constructor(private readonly db: Db) {}

  async notify(userId: string, type: NotificationType, message: string, context: Record<string, unknown> = {}): Promise<void> {
    await this.db.kysely
      .insertInto('notifications')
      .values({ id: newId(), user_id: userId, type, message, context: JSON.stringify(context), read_at: null, created_at: new Date().toISOString() })
      .execute();
  }

  async list(userId: string, opts: { unreadOnly: boolean; page: number; pageSize: number }): Promise<{ meta: PageMeta; unread_count: number; data: Notification[] }> {
    const k = this.db.kysely;
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
    return { meta: pageMeta(opts.page, opts.pageSize, Number(total)), unread_count: Number(unread), data: rows.map(toNotification) };
  }

  /** Marks one of the person's notifications read or unread; someone else's is "not found". */
  async mark(userId: string, id: string, read: boolean): Promise<Notification> {
    const res = await this.db.kysely
      .updateTable('notifications')
      .set({ read_at: read ? new Date().toISOString() : null })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) throw new ApiError('NOT_FOUND', 'Notification not found');
    return toNotification(await this.db.kysely.selectFrom('notifications').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
  }

  async markAllRead(userId: string): Promise<number> {
    const res = await this.db.kysely
      .updateTable('notifications')
      .set({ read_at: new Date().toISOString() })
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }
}
