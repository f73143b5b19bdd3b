// Two `overlook serve` processes whose query pools go through PgBouncer in transaction mode, with the
// LISTEN sessions (OVERLOOK_DB_LISTEN_URL) and migrations (OVERLOOK_DB_MIGRATIONS_URL) on a direct
// connection (docs/deploy.md, Connections). The server pool is smaller than the nodes' pools, so the
// clients' transactions share server connections: queries work, a key revoked on one node is refused by
// the other on the next request, sign-in failures count across nodes (the throttle's store, whose named
// statements would not survive transaction pooling), and background work leases are taken and renewed.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../../src/lib/db/index.js';
import type { PlatformDatabase } from '../../../src/platform/database.js';
import { createUser } from '../../../src/platform/users/create-user.js';
import { type CliCluster, createScratchDatabase, type ScratchDatabase, startCluster } from '../../helpers/cli-cluster.js';
import { testDialect } from '../../helpers/db.js';
import { eventually } from '../../helpers/eventually.js';
import { type Bouncer, pgbouncerInstalled, startPgBouncer } from '../../helpers/pgbouncer.js';

const PG_URL = process.env.OVERLOOK_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const FAILURES_PER_ACCOUNT = 4;

async function call(base: string, method: string, path: string, opts: { headers?: Record<string, string>; body?: unknown } = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }), ...opts.headers },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

describe.skipIf(testDialect() !== 'postgres' || !pgbouncerInstalled())('the platform through PgBouncer in transaction mode', () => {
  let scratch: ScratchDatabase | undefined;
  let bouncer: Bouncer | undefined;
  let cluster: CliCluster | undefined;
  let direct: pg.Pool | undefined;
  let n1: string;
  let n2: string;
  let ownerAuth: Record<string, string>;
  let project: string;

  beforeAll(async () => {
    scratch = await createScratchDatabase(PG_URL);
    bouncer = await startPgBouncer(PG_URL, { serverPoolSize: 3 });
    cluster = await startCluster({
      databaseUrl: bouncer.url(scratch.url),
      nodes: 2,
      env: {
        OVERLOOK_DB_LISTEN_URL: scratch.url,
        OVERLOOK_DB_MIGRATIONS_URL: scratch.url,
        OVERLOOK_DB_POOL_SIZE: '6',
        OVERLOOK_WORK_LEASE_SECONDS: '2',
        OVERLOOK_LOGIN_FAILURES_PER_ACCOUNT: String(FAILURES_PER_ACCOUNT),
      },
    });
    [n1, n2] = cluster.nodes.map((n) => n.url) as [string, string];
    direct = new pg.Pool({ connectionString: scratch.url, max: 1 });
    const db = openDb<PlatformDatabase>({ databaseUrl: scratch.url, poolSize: 1 });
    try {
      await createUser(db, { email: 'owner@bouncer.example.com', password: 'owner-bouncer-password', firstname: 'Owner' });
      await createUser(db, { email: 'guessed@bouncer.example.com', password: 'guessed-bouncer-password', firstname: 'Guessed' });
    } finally {
      await db.close();
    }
    const login = await call(n1, 'POST', '/v2/auth/login', { body: { username: 'owner@bouncer.example.com', password: 'owner-bouncer-password' } });
    expect(login.status).toBe(200);
    ownerAuth = { authorization: `Bearer ${login.body.token}` };
  }, 180_000);

  afterAll(async () => {
    const steps = [() => cluster?.close(), () => direct?.end(), () => bouncer?.close(), () => scratch?.drop()];
    for (const step of steps) await Promise.resolve(step()).catch(() => {});
  }, 30_000);

  it('answers queries on both nodes, many at once, over a server pool smaller than theirs', async () => {
    const created = await call(n2, 'POST', '/v2/projects', { headers: ownerAuth, body: { name: 'Bouncer site' } });
    expect(created.status).toBe(201);
    project = created.body.exid;
    const reads = await Promise.all(Array.from({ length: 40 }, (_, i) => call(i % 2 ? n1 : n2, 'GET', `/v2/projects/${project}`, { headers: ownerAuth })));
    expect(reads.map((r) => r.status)).toEqual(reads.map(() => 200));
  });

  it('a key revoked on one node is refused by the other within 1 s of the response', async () => {
    for (let i = 0; i < 3; i++) {
      const k = await call(n1, 'POST', '/v2/api-keys', {
        headers: ownerAuth,
        body: { name: 'bouncer key', expires_at: new Date(Date.now() + 86_400_000).toISOString(), projects: [project], scopes: ['projects:read'] },
      });
      expect(k.status).toBe(201);
      const keyAuth = { 'x-access-key': k.body.key };
      expect((await call(n2, 'GET', '/v2/projects', { headers: keyAuth })).status).toBe(200);
      expect((await call(n1, 'POST', `/v2/api-keys/${k.body.id}/revoke`, { headers: ownerAuth })).status).toBe(200);
      // The other node hears of it over LISTEN/NOTIFY: within a second of the response (docs/access-model.md).
      await eventually(async () => (await call(n2, 'GET', '/v2/projects', { headers: keyAuth })).status === 401, 'the other node to refuse the key', 1000);
    }
  });

  it('sign-in failures count across the nodes (the throttle store runs through the pooler)', async () => {
    const signIn = (base: string, password: string) => call(base, 'POST', '/v2/auth/login', { body: { username: 'guessed@bouncer.example.com', password } });
    for (let i = 0; i < FAILURES_PER_ACCOUNT; i++) expect((await signIn(i % 2 ? n1 : n2, 'not-it')).status, `failure ${i + 1}`).toBe(401);
    expect((await signIn(n1, 'guessed-bouncer-password')).status).toBe(429);
    expect((await signIn(n2, 'guessed-bouncer-password')).status).toBe(429);
  });

  it('background work leases are taken and renewed, on the database clock', async () => {
    const nodeIds = cluster!.nodes.map((n) => n.workNodeId());
    const retention = async () =>
      (
        await direct!.query<{ holder: string; expires_at: string; live: boolean }>(
          `select holder, expires_at, expires_at > to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as live
           from work_leases where name = 'retention'`,
        )
      ).rows[0];
    const first = await eventually(
      async () => {
        const r = await retention();
        return r?.live && r;
      },
      'a live retention lease',
      15_000,
    );
    expect(nodeIds).toContain(first.holder);
    // The heartbeat (every third of the 2 s term) pushes the expiry on, through the pooler.
    const renewed = await eventually(
      async () => {
        const r = await retention();
        return r && r.expires_at > first.expires_at && r;
      },
      'the retention lease renewed',
      10_000,
    );
    expect(renewed).toMatchObject({ holder: first.holder, live: true });
  });

  it('logged no prepared-statement or LISTEN failure', () => {
    for (const n of cluster!.nodes) expect(n.output()).not.toMatch(/prepared statement|cannot LISTEN|advisory/i);
  });
});
