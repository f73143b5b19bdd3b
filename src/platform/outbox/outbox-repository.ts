// The outbox's tables: recording events, claiming them for fan-out and their deliveries for attempts.
// The only file that touches them. A claim is one conditional UPDATE (free, or its claim expired), which
// PostgreSQL re-checks on the row it locks, so two nodes never both claim a row; on PostgreSQL the
// candidates are picked with FOR UPDATE SKIP LOCKED so racing nodes take different rows.
import { sql } from 'kysely';
import type { PlatformDb } from '../database.js';
import type { OutboxDeliveryRow, OutboxEventRow } from './outbox-tables.js';

export async function insertEvent(db: PlatformDb, row: OutboxEventRow): Promise<void> {
  await db.kysely.insertInto('outbox_events').values(row).execute();
}

/** Claims up to `limit` events not fanned out yet, for `node` until `until`. */
export async function claimEvents(db: PlatformDb, node: string, now: string, until: string, limit: number): Promise<OutboxEventRow[]> {
  let candidates = db.kysely
    .selectFrom('outbox_events')
    .select('id')
    .where('fanned_out_at', 'is', null)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .orderBy('created_at')
    .limit(limit);
  if (db.dialect === 'postgres') candidates = candidates.forUpdate().skipLocked();
  return db.kysely
    .updateTable('outbox_events')
    .set({ claimed_by: node, claimed_until: until })
    .where('id', 'in', candidates)
    .where('fanned_out_at', 'is', null)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .returningAll()
    .execute();
}

/** Adds the deliveries of a claimed event (once per target) and marks it fanned out; false when the claim was lost. */
export async function fanOut(db: PlatformDb, node: string, eventId: string, deliveries: OutboxDeliveryRow[], now: string): Promise<boolean> {
  return db.kysely.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable('outbox_events')
      .set({ fanned_out_at: now, claimed_by: null, claimed_until: null })
      .where('id', '=', eventId)
      .where('claimed_by', '=', node)
      .where('fanned_out_at', 'is', null)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) return false;
    if (deliveries.length > 0)
      await trx
        .insertInto('outbox_deliveries')
        .values(deliveries)
        .onConflict((oc) => oc.columns(['event_id', 'channel', 'target']).doNothing())
        .execute();
    return true;
  });
}

/** Gives a claimed event back, to be fanned out again from `retryAt`. */
export async function releaseEvent(db: PlatformDb, node: string, eventId: string, retryAt: string): Promise<void> {
  await db.kysely.updateTable('outbox_events').set({ claimed_until: retryAt }).where('id', '=', eventId).where('claimed_by', '=', node).execute();
}

/** Claims up to `limit` due deliveries of the given channels, for `node` until `until`. */
export async function claimDeliveries(
  db: PlatformDb,
  node: string,
  channels: readonly string[],
  now: string,
  until: string,
  limit: number,
): Promise<OutboxDeliveryRow[]> {
  if (channels.length === 0) return [];
  let candidates = db.kysely
    .selectFrom('outbox_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where('channel', 'in', channels)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .orderBy('next_attempt_at')
    .limit(limit);
  if (db.dialect === 'postgres') candidates = candidates.forUpdate().skipLocked();
  return db.kysely
    .updateTable('outbox_deliveries')
    .set({ claimed_by: node, claimed_until: until })
    .where('id', 'in', candidates)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .returningAll()
    .execute();
}

export async function eventsByIds(db: PlatformDb, ids: readonly string[]): Promise<OutboxEventRow[]> {
  if (ids.length === 0) return [];
  return db.kysely.selectFrom('outbox_events').selectAll().where('id', 'in', ids).execute();
}

export async function eventById(db: PlatformDb, id: string): Promise<OutboxEventRow | undefined> {
  return db.kysely.selectFrom('outbox_events').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Records an attempt's outcome on a delivery this node still holds; false when its claim was lost meanwhile. */
export async function settleDelivery(
  db: PlatformDb,
  node: string,
  id: string,
  change: Pick<OutboxDeliveryRow, 'status' | 'attempts' | 'next_attempt_at' | 'last_error' | 'delivered_at'>,
): Promise<boolean> {
  const r = await db.kysely
    .updateTable('outbox_deliveries')
    .set({ ...change, claimed_by: null, claimed_until: null })
    .where('id', '=', id)
    .where('claimed_by', '=', node)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Gives claimed deliveries back unattempted (the node is stopping). */
export async function releaseDeliveries(db: PlatformDb, node: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.kysely
    .updateTable('outbox_deliveries')
    .set({ claimed_by: null, claimed_until: null })
    .where('id', 'in', ids)
    .where('claimed_by', '=', node)
    .execute();
}

/** Queues one event's delivery to a target again (by hand), or adds it; returns the delivery's id. */
export async function requeueDelivery(db: PlatformDb, row: OutboxDeliveryRow): Promise<string> {
  const existing = await db.kysely
    .selectFrom('outbox_deliveries')
    .select('id')
    .where('event_id', '=', row.event_id)
    .where('channel', '=', row.channel)
    .where('target', '=', row.target)
    .executeTakeFirst();
  if (!existing) {
    await db.kysely.insertInto('outbox_deliveries').values(row).execute();
    return row.id;
  }
  await db.kysely
    .updateTable('outbox_deliveries')
    .set({ status: 'pending', next_attempt_at: row.next_attempt_at, give_up_at: row.give_up_at })
    .where('id', '=', existing.id)
    .execute();
  return existing.id;
}

/** The deliveries of one channel to one target, newest first, with their events' type. */
export async function deliveriesTo(db: PlatformDb, channel: string, target: string, limit: number) {
  return db.kysely
    .selectFrom('outbox_deliveries as d')
    .innerJoin('outbox_events as e', 'e.id', 'd.event_id')
    .select(['d.id', 'd.event_id', 'e.type', 'd.status', 'd.attempts', 'd.next_attempt_at', 'd.last_error', 'd.delivered_at', 'd.created_at'])
    .where('d.channel', '=', channel)
    .where('d.target', '=', target)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(limit)
    .execute();
}

/** One delivery of a channel to a target, by its event. */
export async function deliveryOf(db: PlatformDb, channel: string, target: string, eventId: string): Promise<OutboxDeliveryRow | undefined> {
  return db.kysely
    .selectFrom('outbox_deliveries')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('channel', '=', channel)
    .where('target', '=', target)
    .executeTakeFirst();
}

/** Tells every node listening on `channel` (PostgreSQL) when the surrounding transaction commits. */
export async function notifyNodes(db: PlatformDb, channel: string): Promise<void> {
  await sql`select pg_notify(${channel}, '')`.execute(db.kysely);
}

/**
 * Removes what is finished and older than `before`: deliveries delivered or failed, then the events
 * fanned out with no delivery left. A pending delivery, and so its event, is kept whatever its age.
 */
export async function pruneFinished(db: PlatformDb, before: string): Promise<{ deliveries: number; events: number }> {
  const d = await db.kysely.deleteFrom('outbox_deliveries').where('status', 'in', ['delivered', 'failed']).where('created_at', '<', before).executeTakeFirst();
  const e = await db.kysely
    .deleteFrom('outbox_events')
    .where('fanned_out_at', 'is not', null)
    .where('created_at', '<', before)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('outbox_deliveries').select('id').whereRef('outbox_deliveries.event_id', '=', 'outbox_events.id'))),
    )
    .executeTakeFirst();
  return { deliveries: Number(d.numDeletedRows), events: Number(e.numDeletedRows) };
}
