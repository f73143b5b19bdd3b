// A person's notifications: created by real events (added to a project, role changed…), listed, marked read.
import type { PlatformDb } from '../database.js';
import { ApiError } from '../../lib/errors.js';
import { pageMeta, type PageMeta } from '../../lib/http/pagination.js';
import { newId } from '../../lib/ids.js';
import * as repo from './notifications-repository.js';
import type { NotificationType } from './notifications-tables.js';

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
  constructor(private readonly db: PlatformDb) {}

  async notify(userId: string, type: NotificationType, message: string, context: Record<string, unknown> = {}): Promise<void> {
    await repo.insertNotification(this.db, {
      id: newId(),
      user_id: userId,
      type,
      message,
      context: JSON.stringify(context),
      read_at: null,
      created_at: new Date().toISOString(),
    });
  }

  async list(
    userId: string,
    opts: { unreadOnly: boolean; page: number; pageSize: number },
  ): Promise<{ meta: PageMeta; unread_count: number; data: Notification[] }> {
    const { total, unread, rows } = await repo.notificationsOf(this.db, userId, opts);
    return { meta: pageMeta(opts.page, opts.pageSize, total), unread_count: unread, data: rows.map(toNotification) };
  }

  /** Marks one of the person's notifications read or unread; someone else's is "not found". */
  async mark(userId: string, id: string, read: boolean): Promise<Notification> {
    const changed = await repo.setReadAt(this.db, userId, id, read ? new Date().toISOString() : null);
    if (changed === 0) throw new ApiError('NOT_FOUND', 'Notification not found');
    return toNotification(await repo.notificationByIdOrThrow(this.db, id));
  }

  async markAllRead(userId: string): Promise<number> {
    return repo.markAllReadOf(this.db, userId, new Date().toISOString());
  }
}
