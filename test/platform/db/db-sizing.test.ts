// PostgreSQL sizing and faults (docs/deploy.md, Connections): the pool's size and application_name are
// the configured ones, the listener names itself `<name>-listen`; "too many clients" is answered 503 with
// its own message; a node started while the database is down waits for it instead of exiting.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform } from '../../../src/platform/server.js';
import { createScratchDatabase, type ScratchDatabase, testDialect } from '../../helpers/db.js';

const PG_URL = process.env.OVERLOOK_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function admin<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(text, values)).rows;
  } finally {
    await c.end();
  }
}

async function until<T>(get: () => Promise<T>, ok: (v: T) => boolean, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'overlook-dbsize-'));
  dirs.push(d);
  return d;
};

describe.skipIf(testDialect() !== 'postgres')('PostgreSQL sizing and faults', () => {
  let scratch: ScratchDatabase;
  const role = `ovl_${randomBytes(4).toString('hex')}`;
  const name = `ovl-${randomBytes(3).toString('hex')}`;
  beforeAll(async () => {
    scratch = await createScratchDatabase(PG_URL);
    const db = new URL(scratch.url).pathname.slice(1);
    await admin(PG_URL, `CREATE ROLE ${role} LOGIN`);
    await admin(PG_URL, `ALTER DATABASE ${db} OWNER TO ${role}`);
  });
  afterAll(async () => {
    await scratch.drop();
    await admin(PG_URL, `DROP ROLE IF EXISTS ${role}`);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('keeps to the pool size, names its connections, and answers "too many clients" with its own 503', async () => {
    const url = new URL(scratch.url);
    url.username = role;
    const db = url.pathname.slice(1);
    const node = await startPlatform(
      { port: '0', dataDir: dataDir() },
      { DATABASE_URL: url.toString(), OVERLOOK_DB_POOL_SIZE: '2', OVERLOOK_DB_APPLICATION_NAME: name, OVERLOOK_LOG_LEVEL: 'silent' },
    );
    const backends = () =>
      admin<{ application_name: string; pid: number }>(PG_URL, 'select application_name, pid from pg_stat_activity where datname = $1', [db]);
    try {
      await Promise.all(Array.from({ length: 12 }, () => fetch(`${node.url}/ready`).then((r) => expect(r.status).toBe(200))));
      const seen = await until(backends, (rows) => rows.some((r) => r.application_name === `${name}-listen`), 'the listener');
      expect(seen.filter((r) => r.application_name === name).length).toBeLessThanOrEqual(2);
      // Two sessions listen: the cache bus and the outbox's wake-up (docs/deploy.md, Connections).
      expect(seen.filter((r) => r.application_name === `${name}-listen`)).toHaveLength(2);
      expect(seen.every((r) => r.application_name === name || r.application_name === `${name}-listen`)).toBe(true);

      // No new connection allowed to the role, and the pool's open ones ended: the next query needs one.
      await admin(PG_URL, `ALTER ROLE ${role} CONNECTION LIMIT 0`);
      await admin(PG_URL, 'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = $2', [db, name]);
      // A pooled connection not yet seen to end answers first as a lost database (also a 503); the next
      // query needs a new connection, which the limit refuses.
      const full = await until(
        async () => {
          const r = await fetch(`${node.url}/ready`);
          return { status: r.status, retryAfter: r.headers.get('retry-after'), body: (await r.json()) as { code: string; message: string } };
        },
        (r) => r.status === 503 && !/cannot be reached/.test(r.body.message),
        'a 503 that is not a lost connection',
      );
      expect(full.retryAfter).toBeTruthy();
      expect(full.body.code).toBe('SERVICE_UNAVAILABLE');
      expect(full.body.message).toMatch(/too many clients/);

      await admin(PG_URL, `ALTER ROLE ${role} CONNECTION LIMIT -1`);
      await until(
        () => fetch(`${node.url}/ready`).then((r) => r.status),
        (s) => s === 200,
        'ready again',
      );
    } finally {
      await admin(PG_URL, `ALTER ROLE ${role} CONNECTION LIMIT -1`);
      await node.close();
    }
  });

  it('waits for a database that is down at start, then serves; with no wait it gives up at once', async () => {
    // A relay on a loopback port that first cuts every connection (a database not up yet), then passes
    // them on to PostgreSQL; to a database of its own, never migrated, as a first start's would be.
    const own = await createScratchDatabase(PG_URL);
    const target = new URL(own.url);
    let attempts = 0;
    let up = false;
    const relay = createServer((client) => {
      if (!up) {
        attempts++;
        client.destroy();
        return;
      }
      const upstream = connect(Number(target.port || 5432), target.hostname);
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
    const url = new URL(own.url);
    url.port = String((relay.address() as { port: number }).port);
    const env = { DATABASE_URL: url.toString(), OVERLOOK_LOG_LEVEL: 'silent' };
    try {
      await expect(startPlatform({ port: '0', dataDir: dataDir() }, { ...env, OVERLOOK_DB_START_WAIT_SECONDS: '0' })).rejects.toThrow(/Connection terminated/);
      const before = attempts;
      const starting = startPlatform({ port: '0', dataDir: dataDir() }, { ...env, OVERLOOK_DB_START_WAIT_SECONDS: '60' });
      await until(
        async () => attempts - before,
        (n) => n >= 2,
        'a second attempt',
      );
      up = true;
      const node = await starting;
      try {
        expect((await fetch(`${node.url}/ready`)).status).toBe(200);
      } finally {
        await node.close();
      }
    } finally {
      await new Promise((r) => relay.close(r));
      await own.drop();
    }
  }, 90_000);
});
