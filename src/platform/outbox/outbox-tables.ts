// The outbox's tables (docs/notifications.md, The outbox): each event, written in the transaction of the
// change that caused it, and one delivery per channel and target, claimed by a node with a lease.
import { integer, json, nullable, oneOf, table, text, timestamp, type TableType, type TablesType } from '../../lib/db/table.js';

const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

const outboxEvents = table({
  id: text(),
  type: text(),
  project_exid: nullable(text()),
  camera_exid: nullable(text()),
  /** The event's own fields, as JSON. */
  data: json(),
  created_at: timestamp(),
  /** When its deliveries were made; null until a node has fanned it out. */
  fanned_out_at: nullable(timestamp()),
  /** The node fanning it out, until when (a node that dies meanwhile leaves it to the others). */
  claimed_by: nullable(text()),
  claimed_until: nullable(timestamp()),
});

const outboxDeliveries = table({
  id: text(),
  event_id: text(),
  /** The channel's name: `webhook`, `mqtt`, `email`. */
  channel: text(),
  /** What the channel delivers to: a webhook id, `broker`, a person id. */
  target: text(),
  status: oneOf(DELIVERY_STATUSES),
  /** Attempts made so far. */
  attempts: integer(),
  /** When the next attempt is due. */
  next_attempt_at: timestamp(),
  /** After this, a failed attempt is the last one. */
  give_up_at: timestamp(),
  /** The node attempting it, until when; another node takes it over after that. */
  claimed_by: nullable(text()),
  claimed_until: nullable(timestamp()),
  last_error: nullable(text()),
  delivered_at: nullable(timestamp()),
  created_at: timestamp(),
});
export type OutboxDeliveryRow = TableType<typeof outboxDeliveries>;
export type OutboxEventRow = TableType<typeof outboxEvents>;

export const outboxTables = { outbox_events: outboxEvents, outbox_deliveries: outboxDeliveries };
export type OutboxTables = TablesType<typeof outboxTables>;
