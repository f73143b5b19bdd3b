// Wakes this node's dispatcher when another node (or this one) commits an event, on PostgreSQL: a
// session of its own LISTENs on the outbox's channel (LISTEN lives as long as its session, so not in
// the pool). A lost session is reopened with back-off; what was sent meanwhile is found by the poll,
// and the dispatcher is woken once listening again.
import { createHash } from 'node:crypto';
import pg from 'pg';

interface WakeupLog {
  warn(obj: object, msg: string): void;
}

/** The channel of the nodes sharing a database schema (NOTIFY channels are database-wide; identifiers end at 63 bytes). */
export function outboxChannel(pgSchema?: string): string {
  if (!pgSchema) return 'overlook_outbox';
  const named = `overlook_outbox_${pgSchema}`;
  return named.length <= 63 ? named : `overlook_outbox_${createHash('sha256').update(pgSchema).digest('hex').slice(0, 32)}`;
}

export class OutboxWakeup {
  private client: pg.Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private delay = 100;

  constructor(
    private readonly connectionString: string,
    private readonly channel: string,
    private readonly wake: () => void,
    private readonly log: WakeupLog,
    /** Shown in pg_stat_activity, as the cache listener's is (docs/deploy.md, Connections). */
    private readonly applicationName?: string,
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({
      connectionString: this.connectionString,
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
      ...(this.applicationName ? { application_name: this.applicationName } : {}),
    });
    this.client = client;
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = null;
      client.end().catch(() => {});
      if (this.closed) return;
      this.log.warn({ err, retryInMs: this.delay }, 'outbox: listener lost its database session; reconnecting');
      this.schedule();
    };
    client.on('error', (err) => onLost(err));
    client.on('end', () => onLost());
    client.on('notification', (n) => {
      if (n.channel === this.channel) this.wake();
    });
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
    } catch (err) {
      onLost(err as Error);
      return;
    }
    if (lost || this.closed) return;
    this.delay = 100;
    this.wake();
  }

  private schedule(): void {
    if (this.retry || this.closed) return;
    const wait = this.delay;
    this.delay = Math.min(this.delay * 2, 5000);
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, wait);
    this.retry.unref();
  }
}
