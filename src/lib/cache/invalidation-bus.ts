// Passes every local forget to the other nodes sharing a PostgreSQL database, and applies theirs here
// (docs/deploy.md, Cache invalidation across nodes). One session of its own per node LISTENs on a
// channel (a pool's connections come and go; LISTEN lives as long as its session); forgets are sent
// with pg_notify through the caller's `publish` (the pool the change was written with), and the forget
// resolves once the database has answered, so a change is published before its response. A node ignores
// its own messages and never relays a peer's. When the listening session is lost, forgets may have
// been missed: it reconnects with back-off and, once listening again, forgets everything.
import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import type { CacheFact, CacheFactKind } from './cache-fact.js';
import type { CacheRegistry } from './cache-registry.js';

/** pg_notify refuses payloads of 8000 bytes or more; a message stays well under. */
export const MAX_PAYLOAD_BYTES = 7000;

/** The wire form: a version, the sending node, and the facts as [kind, id] pairs. */
interface Message {
  v: 1;
  node: string;
  facts: [string, string][];
}

interface BusLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface InvalidationBusOptions {
  registry: CacheRegistry;
  /** Where the listening session connects (the database's connection string). */
  connectionString: string;
  /** The session's `application_name`, so operators find it in pg_stat_activity. */
  applicationName?: string;
  /** The channel, from `cacheChannel`: database-wide, so it names the schema. */
  channel: string;
  /** Sends one message: `select pg_notify(channel, payload)` through the app's pool. */
  publish(channel: string, payload: string): Promise<void>;
  log: BusLog;
  /** Back-off between reconnection attempts: starts at `min`, doubles up to `max`. */
  retryMs?: { min: number; max: number };
  /**
   * A query on the listening session every `everyMs`; no answer within `timeoutMs` means the session
   * hangs (a stalled backend, a half-open connection) and is dropped like a lost one.
   */
  heartbeat?: { everyMs: number; timeoutMs: number };
}

/** A hung session is noticed within 1.5 s (docs/deploy.md, Cache invalidation across nodes). */
const HEARTBEAT = { everyMs: 500, timeoutMs: 1000 };

/** The channel of the nodes sharing a database schema (NOTIFY channels are database-wide; identifiers end at 63 bytes). */
export function cacheChannel(pgSchema?: string): string {
  if (!pgSchema) return 'overlook_cache';
  const named = `overlook_cache_${pgSchema}`;
  return named.length <= 63 ? named : `overlook_cache_${createHash('sha256').update(pgSchema).digest('hex').slice(0, 32)}`;
}

/** Splits facts into messages of at most `MAX_PAYLOAD_BYTES` each. */
export function encodeForgets(node: string, facts: readonly CacheFact[], maxBytes = MAX_PAYLOAD_BYTES): string[] {
  const payloads: string[] = [];
  let batch: [string, string][] = [];
  const encode = (pairs: [string, string][]) => JSON.stringify({ v: 1, node, facts: pairs } satisfies Message);
  for (const f of facts) {
    const pair: [string, string] = [f.kind, f.id];
    if (Buffer.byteLength(encode([pair])) > maxBytes) continue; // an id this long names nothing we cache
    if (batch.length > 0 && Buffer.byteLength(encode([...batch, pair])) > maxBytes) {
      payloads.push(encode(batch));
      batch = [];
    }
    batch.push(pair);
  }
  if (batch.length > 0) payloads.push(encode(batch));
  return payloads;
}

/** The message's sender and facts, or null when it is not one of ours. */
export function decodeForgets(payload: string): { node: string; facts: CacheFact[] } | null {
  let msg: unknown;
  try {
    msg = JSON.parse(payload);
  } catch {
    return null;
  }
  const m = msg as Partial<Message> | null;
  if (m?.v !== 1 || typeof m.node !== 'string' || !Array.isArray(m.facts)) return null;
  const facts: CacheFact[] = [];
  for (const p of m.facts) {
    if (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== 'string' || typeof p[1] !== 'string') return null;
    facts.push({ kind: p[0] as CacheFactKind, id: p[1] });
  }
  return { node: m.node, facts };
}

export class InvalidationBus {
  /** This node's id, in every message it sends. */
  readonly nodeId = randomUUID();
  private client: pg.Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private delay: number;
  private readonly unsubscribe: () => void;

  constructor(private readonly opts: InvalidationBusOptions) {
    this.delay = this.retryRange.min;
    this.unsubscribe = opts.registry.onForget((facts, origin) => (origin === 'local' ? this.send(facts) : undefined));
  }

  private get retryRange() {
    return this.opts.retryMs ?? { min: 100, max: 5000 };
  }

  /** Connects and listens; a failure is logged and retried, so a node starts while the database is away. */
  async start(): Promise<void> {
    await this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe();
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  /**
   * Sends the facts and resolves once the database has taken every message (pg_notify answered: it is
   * delivered to the listeners as it commits), so the change's response leaves after its peers were told.
   */
  private async send(facts: readonly CacheFact[]): Promise<void> {
    if (this.closed) return;
    const sent = encodeForgets(this.nodeId, facts).map((payload) =>
      this.opts.publish(this.opts.channel, payload).catch((err) => {
        // Peers keep what they cached until its staleness bound (docs/deploy.md).
        this.opts.log.warn({ err, facts: facts.length }, 'cache invalidation could not be sent to other nodes');
      }),
    );
    await Promise.all(sent);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    // keepAlive: a session cut by the network (no FIN) is noticed, not listened on forever.
    const client = new pg.Client({
      connectionString: this.opts.connectionString,
      ...(this.opts.applicationName ? { application_name: this.opts.applicationName } : {}),
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
    });
    this.client = client;
    let lost = false;
    let beat: NodeJS.Timeout | undefined;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      clearInterval(beat);
      if (this.client === client) this.client = null;
      client.end().catch(() => {});
      if (this.closed) return;
      this.opts.log.warn({ err, retryInMs: this.delay }, 'cache invalidation listener lost its database session; reconnecting');
      this.schedule();
    };
    client.on('error', (err) => onLost(err));
    client.on('end', () => onLost());
    client.on('notification', (n) => {
      if (n.channel !== this.opts.channel || !n.payload) return;
      const msg = decodeForgets(n.payload);
      if (!msg || msg.node === this.nodeId || msg.facts.length === 0) return;
      void this.opts.registry.forget(msg.facts, 'peer');
    });
    try {
      await client.connect();
      await client.query(`LISTEN "${this.opts.channel}"`);
    } catch (err) {
      onLost(err as Error);
      return;
    }
    if (lost || this.closed) return;
    const { everyMs, timeoutMs } = this.opts.heartbeat ?? HEARTBEAT;
    let beating = false;
    beat = setInterval(() => {
      if (beating) return;
      beating = true;
      const deadline = setTimeout(() => {
        // Nothing said on this session can be trusted to arrive: forget now, not only once reconnected.
        this.opts.registry.forgetAll();
        onLost(new Error(`no answer to the heartbeat within ${timeoutMs} ms`));
      }, timeoutMs);
      // Named after the channel, so an operator (and a test) can tell this session in pg_stat_activity.
      client
        .query(`select 1 /* heartbeat of LISTEN "${this.opts.channel}" */`)
        .then(
          () => {},
          (err: Error) => onLost(err),
        )
        .finally(() => {
          clearTimeout(deadline);
          beating = false;
        });
    }, everyMs);
    beat.unref();
    this.delay = this.retryRange.min;
    // Whatever changed while nobody listened was not heard: start afresh from the database.
    this.opts.registry.forgetAll();
  }

  private schedule(): void {
    if (this.retry || this.closed) return;
    const wait = this.delay;
    this.delay = Math.min(this.delay * 2, this.retryRange.max);
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, wait);
    this.retry.unref();
  }
}
