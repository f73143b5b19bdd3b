// The notifications feature's table: what a person is told (project shared, mentions, renders done…).
import { json, nullable, table, text, timestamp, type TableType, type TablesType } from '../../lib/db/table.js';

export type NotificationType =
  | 'project_shared'
  | 'role_changed'
  | 'removed_from_project'
  | 'camera_status_changed'
  | 'mention'
  | 'api_key_expiring'
  /** A key's value was reported as leaked (POST /v2/api-keys/leaks) and the key was revoked. */
  | 'api_key_leaked'
  | 'site_access_event'
  | 'doorbell_ring'
  | 'doorbell_event'
  /** A project webhook was disabled after repeated failed deliveries (docs/notifications.md), for the project's owner. */
  | 'webhook_disabled'
  /** Media hub renders, for the requester (Evercam's timelapse_created / timelapse_failed, and the same for clips and compares). */
  | `${'clip' | 'compare' | 'timelapse'}_${'created' | 'failed'}`;

const notifications = table({
  id: text(),
  user_id: text(),
  type: text<NotificationType>(),
  message: text(),
  /** Object: camera_exid, project_exid, actor_email… */
  context: json(),
  read_at: nullable(timestamp()),
  created_at: timestamp(),
});
export type NotificationsTable = TableType<typeof notifications>;

export const notificationsTables = { notifications };
export type NotificationsTables = TablesType<typeof notificationsTables>;
