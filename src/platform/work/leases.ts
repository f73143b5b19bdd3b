// Leases on background work, so that work runs once across the nodes sharing a database and a dead
// node's work is taken over (docs/deploy.md, Background work).
//
// - A lease is a row per unit of work (`camera:<id>`, `retention`, `media:<id>`…) naming the node that
//   holds it and when it expires. `acquire` takes it with one conditional upsert: only when it is free,
//   expired or already this node's. Expiry is stamped and compared with the database's clock, in the
//   statements themselves, so a node whose clock is off neither steals a live lease nor loses its own.
// - Expired rows of dead nodes are swept: at most once per lease term, each node deletes the rows that
//   expired over a lease term ago.
// - This node's id is random per process start. A heartbeat (every lease/3, 10 s for the default 30 s)
//   renews every lease the node holds; a lease another node took meanwhile is dropped and the `onLost`
//   listeners are told. `stop` (clean shutdown) releases them all; a killed node's leases expire and
//   other nodes take them on their next look.
// - `holds(name)` answers from memory whether the lease is still surely ours: its last renewal is less
//   than lease − lease/3 old. After a pause (a stalled process, a lost database) it answers false until
//   the lease is taken again, so work does not resume on a lease another node may now hold. That is a
//   span on this node's own clock, which an offset from the database's does not change.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { PlatformDb } from '../database.js';
import { leaseHolder, liveLeases, releaseLeases, renewLeases, sweepExpiredLeases, takeLease } from './work-repository.js';

export interface WorkLeasesOptions {
  /** How long a lease lasts without renewal (default 30 s): a dead node's work is taken over after at most this long. */
  leaseMs?: number;
  log?: FastifyBaseLogger;
  /** Where the other nodes reach this one (OVERLOOK_NODE_URL), recorded with each lease it takes; null while it does not listen. */
  address?: () => string | null;
  /** This node's clock, for its own spans only (how long a lease is surely held); tests skew it. */
  now?: () => number;
}

/** The node holding a lease and where it can be reached (null: it does not listen). */
export interface LeaseHolder {
  nodeId: string;
  url: string | null;
}

export class WorkLeases {
  /** This process's node id (random per start). */
  readonly nodeId = randomUUID();
  readonly leaseMs: number;
  /** How often the heartbeat renews (a third of the lease). */
  readonly renewMs: number;
  /** Lease name → until when (local clock) this node surely holds it. */
  private readonly held = new Map<string, number>();
  private readonly lostListeners = new Set<(name: string) => void>();
  private timer: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;
  private halted = false;
  /** When (this node's clock) the last sweep of expired rows ran. */
  private sweptAt = Number.NEGATIVE_INFINITY;
  private readonly now: () => number;

  constructor(
    private readonly db: PlatformDb,
    private readonly opts: WorkLeasesOptions = {},
  ) {
    this.leaseMs = Math.max(30, Math.round(opts.leaseMs ?? 30_000));
    this.renewMs = Math.max(10, Math.floor(this.leaseMs / 3));
    this.now = opts.now ?? Date.now;
  }

  /** Where the other nodes reach this one (recorded with its leases); null while it does not listen. */
  address(): string | null {
    return this.opts.address?.() ?? null;
  }

  /** Starts the heartbeat. */
  start(): void {
    if (this.timer || this.halted) return;
    this.opts.log?.info({ node: this.nodeId, leaseMs: this.leaseMs }, 'background work: node started');
    this.timer = setInterval(() => void this.renew(), this.renewMs);
    this.timer.unref();
  }

  /** Clean shutdown: stops the heartbeat and releases every lease, so other nodes take the work at once. */
  async stop(): Promise<void> {
    this.stopHeartbeat();
    await this.renewing;
    const names = [...this.held.keys()];
    this.held.clear();
    const wasHalted = this.halted;
    this.halted = true;
    if (wasHalted || names.length === 0) return;
    await releaseLeases(this.db, this.nodeId, names).catch((err) => this.opts.log?.warn({ err }, 'background work: leases not released; they expire'));
  }

  /** What a killed process does: renews nothing and releases nothing from now on, so its leases expire (tests). */
  halt(): void {
    this.halted = true;
    this.stopHeartbeat();
    this.held.clear();
  }

  /** Whether this node surely holds `name` now (from memory; see the top of this file). */
  holds(name: string): boolean {
    const until = this.held.get(name);
    return until !== undefined && this.now() < until;
  }

  /** The leases this node holds (surely or not) whose name starts with `prefix`. */
  heldWith(prefix: string): string[] {
    return [...this.held.keys()].filter((n) => n.startsWith(prefix));
  }

  /** Takes or keeps `name` when it is free, expired or already ours; true when this node now holds it. */
  async acquire(name: string): Promise<boolean> {
    if (this.halted) return false;
    const sent = this.now();
    const ok = await takeLease(this.db, name, this.nodeId, this.opts.address?.() ?? null, this.leaseMs);
    if (ok && !this.halted) this.held.set(name, sent + this.leaseMs - this.renewMs);
    else this.held.delete(name);
    return ok && !this.halted;
  }

  /** Gives leases back (work finished or handed to another node). */
  async release(...names: string[]): Promise<void> {
    for (const n of names) this.held.delete(n);
    if (this.halted || names.length === 0) return;
    await releaseLeases(this.db, this.nodeId, names);
  }

  /** Every node's unexpired leases whose name starts with `prefix` (no `%` or `_` in it), name → holder. */
  live(prefix: string): Promise<Map<string, string>> {
    return liveLeases(this.db, prefix);
  }

  /** Which node holds `name` now (unexpired) and its address; null when nobody does. */
  async holder(name: string): Promise<LeaseHolder | null> {
    const row = await leaseHolder(this.db, name);
    return row ? { nodeId: row.holder, url: row.holderUrl } : null;
  }

  /** Told the name of each lease the heartbeat found taken by another node; returns the unsubscribe. */
  onLost(listener: (name: string) => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  private stopHeartbeat(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One heartbeat: extends every held lease (the ones no longer ours are dropped and reported), and sweeps. */
  private renew(): Promise<void> {
    if (this.renewing) return this.renewing;
    this.renewing = (async () => {
      await this.sweep();
      const names = [...this.held.keys()];
      if (names.length === 0 || this.halted) return;
      const sent = this.now();
      let kept: Set<string>;
      try {
        kept = new Set(await renewLeases(this.db, this.nodeId, names, this.leaseMs));
      } catch (err) {
        this.opts.log?.warn({ err }, 'background work: leases not renewed; work pauses when they run out');
        return;
      }
      if (this.halted) return;
      for (const n of names) {
        if (!this.held.has(n)) continue; // released meanwhile
        if (kept.has(n)) this.held.set(n, Math.max(this.held.get(n)!, sent + this.leaseMs - this.renewMs));
        else {
          this.held.delete(n);
          this.opts.log?.warn({ lease: n }, 'background work: lease lost to another node');
          for (const l of this.lostListeners) l(n);
        }
      }
    })().finally(() => {
      this.renewing = null;
    });
    return this.renewing;
  }

  /** At most once per lease term: deletes the rows that expired over a lease term ago (dead nodes' leases). */
  private async sweep(): Promise<void> {
    if (this.halted || this.now() - this.sweptAt < this.leaseMs) return;
    this.sweptAt = this.now();
    try {
      const swept = await sweepExpiredLeases(this.db, this.leaseMs);
      if (swept > 0) this.opts.log?.info({ swept }, 'background work: expired leases of stopped nodes deleted');
    } catch (err) {
      this.opts.log?.warn({ err }, 'background work: expired leases not swept; the next heartbeat tries again');
    }
  }
}
