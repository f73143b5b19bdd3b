// A lost database connection is survived (docs/deploy.md, A lost database connection): while the
// database cannot be reached, requests get 503 SERVICE_UNAVAILABLE with Retry-After (never a 500 or a
// crash), and once it answers again the node serves again without a restart.
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../../src/lib/db/index.js';
import { createBaseApp } from '../../../src/lib/http/base-app.js';
import { buildPeerNode, type TestNode } from '../../helpers/cluster.js';
import { testDialect } from '../../helpers/db.js';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function expectUnavailable(res: LightMyRequestResponse, label: string) {
  expect(res.statusCode, `${label}: ${res.body.slice(0, 200)}`).toBe(503);
  expect(res.headers['retry-after'], label).toMatch(/^[1-9][0-9]*$/);
  const body = res.json();
  expect(body.code, label).toBe('SERVICE_UNAVAILABLE');
  expect(typeof body.message, label).toBe('string');
}

describe.skipIf(testDialect() !== 'postgres')('database faults (PostgreSQL only: pg_terminate_backend cuts sessions; SQLite has no connection to lose)', () => {
  let tp: TestPlatform;
  let admin: pg.Client;

  beforeAll(async () => {
    tp = await buildTestPlatform();
    admin = new pg.Client({ connectionString: tp.t.databaseUrl });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await tp?.close();
  });

  /** The database URL with an application_name, so the test finds (and cuts) exactly those sessions. */
  const tagged = (name: string) => {
    const url = new URL(tp.t.databaseUrl!);
    url.searchParams.set('application_name', name);
    return url.toString();
  };
  const terminate = async (name: string) =>
    (await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()', [name])).rowCount ?? 0;

  it('503 SERVICE_UNAVAILABLE with Retry-After when the connection is refused, or the session is terminated mid-query', async () => {
    const app: FastifyInstance = createBaseApp({ logger: false, bodyLimit: 1024 });
    const nowhere = openDb<Record<string, never>>({ databaseUrl: 'postgres://postgres@127.0.0.1:1/overlook', onConnectionError: () => {} });
    const name = `overlook_cut_${tp.t.pgSchema}`;
    const cut = openDb<Record<string, never>>({ databaseUrl: tagged(name), onConnectionError: () => {} });
    app.get('/refused', async () => (await sql`select 1 as one`.execute(nowhere.kysely)).rows);
    app.get('/cut', async () => (await sql`select pg_sleep(10)`.execute(cut.kysely)).rows);
    try {
      expectUnavailable(await app.inject({ method: 'GET', url: '/refused' }), 'connection refused');
      const pending = app.inject({ method: 'GET', url: '/cut' });
      for (let i = 0; i < 100; i++) {
        const running = await admin.query("select 1 from pg_stat_activity where application_name = $1 and query like '%pg_sleep%' and state = 'active'", [
          name,
        ]);
        if (running.rowCount) break;
        await sleep(20);
      }
      expect(await terminate(name)).toBeGreaterThan(0);
      expectUnavailable(await pending, 'session terminated');
    } finally {
      await app.close();
      await nowhere.close().catch(() => {});
      await cut.close().catch(() => {});
    }
  });

  it('every session of a node terminated during a burst of key reads: only 200 or 503, then 200 again within 5 s, no restart', async () => {
    const owner = await tp.person('burst');
    const project = await tp.project(owner, 'Burst site');
    const camera = await tp.camera(owner, project.exid, 'Burst camera');
    const key = await tp.key(owner, { projects: [project.exid], scopes: ['projects:read', 'cameras:read'] });
    const name = `overlook_node_${tp.t.pgSchema}`;
    const lost: Error[] = [];
    const node: TestNode = await buildPeerNode(tp, { databaseUrl: tagged(name), onConnectionError: (err) => lost.push(err) });
    try {
      const reads: (InjectOptions & { url: string })[] = [
        { method: 'GET', url: '/v2/projects', headers: key.headers },
        { method: 'GET', url: `/v2/cameras/${camera.exid}`, headers: key.headers },
        { method: 'GET', url: `/v2/projects/${project.exid}/cameras`, headers: key.headers },
      ];
      for (const r of reads) expect((await node.app.inject(r)).statusCode, r.url).toBe(200);

      const seen = new Map<number, number>();
      const wrong: string[] = [];
      let stop = false;
      const worker = async (i: number) => {
        for (let n = i; !stop; n++) {
          const req = reads[n % reads.length]!;
          const res = await node.app.inject(req);
          seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
          if (res.statusCode === 503) expectUnavailable(res, req.url);
          else if (res.statusCode !== 200) wrong.push(`${req.url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
      };
      const workers = Array.from({ length: 8 }, (_, i) => worker(i));
      await sleep(200);
      let terminated = 0;
      for (let round = 0; round < 3; round++) {
        terminated += await terminate(name);
        await sleep(100);
      }
      await sleep(200);
      stop = true;
      await Promise.all(workers);
      expect(terminated).toBeGreaterThan(0);
      expect(wrong).toEqual([]);
      expect(seen.get(200) ?? 0).toBeGreaterThan(0);
      expect(lost.length).toBeGreaterThan(0);

      const since = Date.now();
      for (const r of reads) {
        for (;;) {
          const res = await node.app.inject(r);
          if (res.statusCode === 200) break;
          expect(res.statusCode, r.url).toBe(503);
          expect(Date.now() - since, `${r.url} still ${res.statusCode} after 5 s`).toBeLessThan(5000);
          await sleep(50);
        }
      }
    } finally {
      await node.close();
    }
  });
});
