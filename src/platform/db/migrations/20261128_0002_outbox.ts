// The transactional outbox (docs/notifications.md, The outbox): events written with the change that
// caused them, and their deliveries per channel and target, claimed by nodes with leases.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('outbox_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('project_exid', 'text')
    .addColumn('camera_exid', 'text')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('fanned_out_at', 'text')
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_until', 'text')
    .execute();
  // The dispatcher looks for events not fanned out yet.
  await db.schema.createIndex('outbox_events_fanned_out_idx').on('outbox_events').columns(['fanned_out_at', 'created_at']).execute();
  await db.schema
    .createTable('outbox_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('outbox_events.id').onDelete('cascade'))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('give_up_at', 'text', (c) => c.notNull())
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('delivered_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    // Each event reaches each target of a channel once.
    .addUniqueConstraint('outbox_deliveries_event_target_uq', ['event_id', 'channel', 'target'])
    .execute();
  // The dispatcher claims pending deliveries that are due.
  await db.schema.createIndex('outbox_deliveries_due_idx').on('outbox_deliveries').columns(['status', 'next_attempt_at']).execute();
  // A channel lists the deliveries to one target (a webhook's log).
  await db.schema.createIndex('outbox_deliveries_target_idx').on('outbox_deliveries').columns(['channel', 'target', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('outbox_deliveries').ifExists().execute();
  await db.schema.dropTable('outbox_events').ifExists().execute();
}
