// The webhooks feature's tables (docs/notifications.md, Webhooks): a project's webhooks, and the log of
// every attempt to call one.
import { flag, integer, json, nullable, table, text, timestamp, type TableType, type TablesType } from '../../lib/db/table.js';

const webhooks = table({
  id: text(),
  project_id: text(),
  /** The project's exid, as events name it. */
  project_exid: text(),
  url: text(),
  /** Array of the event types it receives. */
  events: json(),
  /** The signing secret, sealed (secrets feature) and bound to the webhook's id. */
  secret_sealed: text(),
  enabled: flag(),
  /** Why it was disabled (`failures`), null while enabled or when disabled by hand. */
  disabled_reason: nullable(text()),
  /** Failed deliveries since the last one that succeeded. */
  consecutive_failures: integer(),
  created_by: nullable(text()),
  created_at: timestamp(),
  updated_at: timestamp(),
});
export type WebhookRow = TableType<typeof webhooks>;

const webhookAttempts = table({
  id: text(),
  webhook_id: text(),
  event_id: text(),
  event_type: text(),
  attempted_at: timestamp(),
  /** The receiver's HTTP status; null when no answer came (refused, timed out, unreachable). */
  status_code: nullable(integer()),
  /** Why it failed, when it did. */
  error: nullable(text()),
  /** From sending the request to the answer's status, in milliseconds. */
  latency_ms: integer(),
  ok: flag(),
});
export type WebhookAttemptRow = TableType<typeof webhookAttempts>;

export const webhooksTables = { webhooks, webhook_attempts: webhookAttempts };
export type WebhooksTables = TablesType<typeof webhooksTables>;
