// The transactional outbox (docs/notifications.md, The outbox). A change records its events in its own
// transaction, so a node that dies after the change loses none. The dispatcher, on every node:
// - fans each new event out: asks every channel for its targets and adds one delivery per target;
// - claims due deliveries with a lease, attempts them, and records the outcome only while it still
//   holds the claim. A killed node's claims expire and another node takes them over; a failed attempt
//   is retried with exponential back-off (first retry, doubling, up to a ceiling) until the event is
//   `giveUpMs` old, then the delivery ends as failed.
// A node wakes at once after a commit (PostgreSQL: NOTIFY in the transaction; SQLite: directly, the one
// connection runs the dispatcher's query after the transaction ends) and polls besides.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { PlatformDatabase, PlatformDb } from '../database.js';
import { newId } from '../../lib/ids.js';
import { type Channel, GiveUp, type NewEvent, type StoredEvent, type EventType } from './events.js';
import * as repo from './outbox-repository.js';
import type { OutboxDeliveryRow, OutboxEventRow } from './outbox-tables.js';

export interface OutboxOptions {
  /** How long a claim on an event or a delivery lasts: a dead node's are taken over after it. Longer than any one attempt. */
  leaseMs: number;
  /** How often the dispatcher looks for due work besides being woken. */
  pollMs: number;
  /** The first retry's delay; each further one doubles, up to `retryMaxMs`. */
  retryFirstMs: number;
  retryMaxMs: number;
  /** How long after an event its deliveries are still attempted. */
  giveUpMs: number;
  /** How long a finished event, its deliveries and the channels' logs of attempts are kept. */
  keepMs: number;
  /** The NOTIFY channel (PostgreSQL), from `outboxChannel`. */
  notifyChannel: string;
  /** Deliveries attempted at once per node. */
  concurrency?: number;
  log?: FastifyBaseLogger;
}

const iso = (ms: number) => new Date(ms).toISOString();
/** How often finished events are pruned. */
const PRUNE_EVERY_MS = 60 * 60_000;
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

function stored(row: OutboxEventRow): StoredEvent {
  return {
    id: row.id,
    type: row.type as EventType,
    projectExid: row.project_exid,
    cameraExid: row.camera_exid,
    data: JSON.parse(row.data) as Record<string, unknown>,
    createdAt: row.created_at,
  };
}

/** The delay before the attempt after `attempts` failed ones: the first retry's, doubling each time, up to the ceiling. */
export const retryDelayMs = (attempts: number, opts: Pick<OutboxOptions, 'retryFirstMs' | 'retryMaxMs'>): number =>
  Math.min(opts.retryMaxMs, opts.retryFirstMs * 2 ** Math.max(0, attempts - 1));

export class Outbox {
  /** This process's id in the claims it makes (random per start). */
  readonly nodeId = randomUUID();
  private readonly channels = new Map<string, Channel>();
  private running: Promise<void> | null = null;
  private again = false;
  private started = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private pruner: NodeJS.Timeout | null = null;
  /** The sweep under way, awaited by `stop` so none outlives the database. */
  private pruning: Promise<void> | null = null;

  constructor(
    private readonly db: PlatformDb,
    private readonly opts: OutboxOptions,
  ) {}

  /**
   * Records an event in the transaction of the change that caused it (`tx`: the transaction as a
   * `PlatformDb`, as `inTransaction` hands it, or a Kysely transaction). It is delivered once that commits.
   */
  async record(tx: PlatformDb | Kysely<PlatformDatabase>, event: NewEvent): Promise<void> {
    const db: PlatformDb = 'kysely' in tx ? tx : { ...this.db, kysely: tx };
    await repo.insertEvent(db, {
      id: newId(),
      type: event.type,
      project_exid: event.projectExid,
      camera_exid: event.cameraExid ?? null,
      data: JSON.stringify(event.data),
      created_at: iso(Date.now()),
      fanned_out_at: null,
      claimed_by: null,
      claimed_until: null,
    });
    if (this.db.dialect === 'postgres') await repo.notifyNodes(db, this.opts.notifyChannel);
    else this.wake();
  }

  /** Plugs a channel in; called by a later plugin while it registers, before the app is ready. */
  addChannel(channel: Channel): void {
    if (this.channels.has(channel.name)) throw new Error(`outbox: a channel named ${channel.name} is already plugged in`);
    this.channels.set(channel.name, channel);
  }

  /**
   * Queues an event's delivery to one target of a channel again, whatever became of it (redelivery by
   * hand); false when there is no such event.
   */
  async redeliver(channel: string, target: string, eventId: string): Promise<boolean> {
    const event = await repo.eventById(this.db, eventId);
    if (!event) return false;
    const now = Date.now();
    await repo.requeueDelivery(this.db, this.newDelivery(eventId, channel, target, now));
    this.wake();
    return true;
  }

  /** A channel's deliveries to one target, newest first (a webhook's log). */
  deliveriesTo(channel: string, target: string, limit: number) {
    return repo.deliveriesTo(this.db, channel, target, limit);
  }

  /** One event's delivery to a target of a channel, with the event; undefined when there is none. */
  async deliveryOf(channel: string, target: string, eventId: string): Promise<{ delivery: OutboxDeliveryRow; event: StoredEvent } | undefined> {
    const delivery = await repo.deliveryOf(this.db, channel, target, eventId);
    const event = delivery && (await repo.eventById(this.db, eventId));
    return delivery && event ? { delivery, event: stored(event) } : undefined;
  }

  /** Starts dispatching: at once, when woken, and every `pollMs`. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.opts.log?.info({ node: this.nodeId, channels: [...this.channels.keys()] }, 'outbox: dispatching');
    this.timer = setInterval(() => this.wake(), this.opts.pollMs);
    this.timer.unref();
    this.pruner = setInterval(() => this.sweep(), PRUNE_EVERY_MS);
    this.pruner.unref();
    this.wake();
    this.sweep();
  }

  private sweep(): void {
    if (this.pruning || this.stopped) return;
    this.pruning = this.prune().finally(() => {
      this.pruning = null;
    });
  }

  /**
   * Removes finished events and deliveries older than the keeping time, and the channels' logs of that
   * age. Every node does it: deleting what another node already deleted is nothing.
   */
  async prune(now = Date.now()): Promise<void> {
    const before = iso(now - this.opts.keepMs);
    try {
      const removed = await repo.pruneFinished(this.db, before);
      for (const channel of this.channels.values()) await channel.prune?.(before);
      if (removed.deliveries + removed.events > 0) this.opts.log?.info({ ...removed, before }, 'outbox: pruned finished events');
    } catch (err) {
      this.opts.log?.warn({ err }, 'outbox: pruning failed; tried again later');
    }
  }

  /** Stops dispatching and waits for the attempts under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.pruner) clearInterval(this.pruner);
    this.timer = null;
    this.pruner = null;
    await Promise.all([this.running, this.pruning]);
  }

  /** Asks the dispatcher to look for work now (after a commit, a NOTIFY, a poll). */
  wake(): void {
    if (!this.started || this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.dispatch()
      .catch((err) => this.opts.log?.warn({ err }, 'outbox: dispatch failed; retried on the next poll'))
      .finally(() => {
        this.running = null;
        if (this.again && !this.stopped) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Works until nothing is left to do now. */
  private async dispatch(): Promise<void> {
    for (;;) {
      this.again = false;
      const fanned = await this.fanOutNew();
      const attempted = await this.attemptDue();
      if (this.stopped || (!fanned && !attempted && !this.again)) return;
    }
  }

  /** A delivery due at `now`, attempted until `giveUpMs` after `since` (the event's creation, or a redelivery). */
  private newDelivery(eventId: string, channel: string, target: string, now: number, since = now): OutboxDeliveryRow {
    return {
      id: newId(),
      event_id: eventId,
      channel,
      target,
      status: 'pending',
      attempts: 0,
      next_attempt_at: iso(now),
      give_up_at: iso(since + this.opts.giveUpMs),
      claimed_by: null,
      claimed_until: null,
      last_error: null,
      delivered_at: null,
      created_at: iso(now),
    };
  }

  /** Fans out a batch of new events; true when there were any. */
  private async fanOutNew(): Promise<boolean> {
    const now = Date.now();
    const events = await repo.claimEvents(this.db, this.nodeId, iso(now), iso(now + this.opts.leaseMs), 100);
    for (const row of events) {
      const event = stored(row);
      const deliveries: OutboxDeliveryRow[] = [];
      const since = Date.parse(row.created_at);
      try {
        for (const channel of this.channels.values()) {
          for (const target of new Set(await channel.targets(event))) deliveries.push(this.newDelivery(event.id, channel.name, target, Date.now(), since));
        }
      } catch (err) {
        this.opts.log?.warn({ err, event: event.id }, 'outbox: targets not found; the event is fanned out later');
        await repo.releaseEvent(this.db, this.nodeId, event.id, iso(Date.now() + this.opts.retryFirstMs));
        continue;
      }
      await repo.fanOut(this.db, this.nodeId, event.id, deliveries, iso(Date.now()));
    }
    return events.length > 0;
  }

  /** Claims due deliveries and attempts them; true when there were any. */
  private async attemptDue(): Promise<boolean> {
    const concurrency = this.opts.concurrency ?? 16;
    const now = Date.now();
    const claimed = await repo.claimDeliveries(this.db, this.nodeId, [...this.channels.keys()], iso(now), iso(now + this.opts.leaseMs), concurrency * 2);
    if (claimed.length === 0) return false;
    const events = new Map((await repo.eventsByIds(this.db, [...new Set(claimed.map((d) => d.event_id))])).map((e) => [e.id, stored(e)]));
    const queue = [...claimed];
    const worker = async () => {
      for (let d = queue.shift(); d; d = queue.shift()) {
        if (this.stopped) {
          await repo.releaseDeliveries(this.db, this.nodeId, [d.id, ...queue.splice(0).map((x) => x.id)]);
          return;
        }
        await this.attempt(d, events.get(d.event_id));
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, claimed.length) }, worker));
    return true;
  }

  private async attempt(d: OutboxDeliveryRow, event: StoredEvent | undefined): Promise<void> {
    const channel = this.channels.get(d.channel);
    const attempts = d.attempts + 1;
    try {
      if (!channel || !event) throw new GiveUp('no such channel or event');
      await channel.deliver(event, d.target);
    } catch (err) {
      const at = Date.now();
      const next = at + retryDelayMs(attempts, this.opts);
      const last = err instanceof GiveUp || next > Date.parse(d.give_up_at);
      const kept = await repo.settleDelivery(this.db, this.nodeId, d.id, {
        status: last ? 'failed' : 'pending',
        attempts,
        next_attempt_at: iso(last ? at : next),
        last_error: errorText(err),
        delivered_at: null,
      });
      if (kept) this.opts.log?.info({ delivery: d.id, channel: d.channel, attempts, err: errorText(err), last }, 'outbox: delivery failed');
      return;
    }
    const kept = await repo.settleDelivery(this.db, this.nodeId, d.id, {
      status: 'delivered',
      attempts,
      next_attempt_at: d.next_attempt_at,
      last_error: null,
      delivered_at: iso(Date.now()),
    });
    if (!kept) this.opts.log?.warn({ delivery: d.id }, 'outbox: delivered after its claim ran out; another node may deliver it again');
  }
}
