// A PostgreSQL server that stops and starts again is survived (docs/deploy.md, A lost database
// connection): while it is down, requests that need it get 503 with Retry-After; once it is back, both
// nodes serve again without a restart, and the invalidation listener is listening again (a change on
// one node reaches the other within 1 s). The test owns a throw-away cluster (initdb + pg_ctl in a
// temporary folder), so stopping it disturbs nothing else.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformConfig } from '../../../src/lib/config.js';
import { type Db, openDb } from '../../../src/lib/db/index.js';
import { migrateToLatest } from '../../../src/lib/db/migrate.js';
import { buildPlatformApp } from '../../../src/platform/app.js';
import type { PlatformDatabase } from '../../../src/platform/database.js';
import { PLATFORM_MIGRATIONS } from '../../../src/platform/db/platform-migrations.js';
import { createUser } from '../../../src/platform/users/create-user.js';
import { testDialect } from '../../helpers/db.js';

/** The server binaries of the newest PostgreSQL installed from Debian's packages, if any. */
function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(join(root, v, 'bin', 'pg_ctl'))) return join(root, v, 'bin');
  return null;
}

const BIN = postgresBin();
const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe.skipIf(testDialect() !== 'postgres' || !BIN)(
  'a PostgreSQL restart (PostgreSQL only, needs the server binaries of Debian’s postgresql package)',
  () => {
    let dir: string;
    let port: number;
    let dbs: Db<PlatformDatabase>[] = [];
    let a: FastifyInstance;
    let b: FastifyInstance;
    let token = '';
    let key = '';
    let keyId = '';
    let cameraUrl = '';

    // initdb refuses to run as root: the cluster belongs to the postgres account then.
    const pg = (tool: string, args: string[]) =>
      execFileSync(asRoot ? 'runuser' : join(BIN!, tool), asRoot ? ['-u', 'postgres', '--', join(BIN!, tool), ...args] : args, {
        stdio: 'pipe',
        timeout: 60_000,
      });
    const start = () =>
      pg('pg_ctl', ['-D', join(dir, 'data'), '-l', join(dir, 'server.log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, 'start']);
    const stop = () => pg('pg_ctl', ['-D', join(dir, 'data'), '-m', 'fast', '-w', 'stop']);

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'overlook-pg-'));
      if (asRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
      port = await freePort();
      pg('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
      start();
      const databaseUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
      const dataDir = mkdtempSync(join(tmpdir(), 'overlook-restart-'));
      const config = { ...platformConfig({ dataDir }, { OVERLOOK_RECORDING_LOOP: '0', OVERLOOK_MEDIA_JOBS: '0' }), databaseUrl };
      const node = async () => {
        const db = openDb<PlatformDatabase>({ databaseUrl, poolSize: 4, onConnectionError: () => {} });
        dbs.push(db);
        const app = await buildPlatformApp({ config, db, logger: false });
        await app.ready();
        return app;
      };
      const migrator = openDb<PlatformDatabase>({ databaseUrl });
      await migrateToLatest(migrator, PLATFORM_MIGRATIONS);
      await migrator.close();
      a = await node();
      b = await node();
      await createUser(dbs[0]!, { email: 'restart@example.com', password: 'restart password 1' });
      token = (await a.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: 'restart@example.com', password: 'restart password 1' } })).json()
        .token;
      const auth = { authorization: `Bearer ${token}` };
      const project = (await a.inject({ method: 'POST', url: '/v2/projects', headers: auth, payload: { name: 'Restart site' } })).json();
      const camera = (
        await a.inject({ method: 'POST', url: '/v2/cameras', headers: auth, payload: { name: 'Gate', project_exid: project.exid, simulated: true } })
      ).json();
      cameraUrl = `/v2/cameras/${camera.exid}`;
      const created = (
        await a.inject({
          method: 'POST',
          url: '/v2/api-keys',
          headers: auth,
          payload: { name: 'restart', expires_at: new Date(Date.now() + 86_400_000).toISOString(), projects: [project.exid], scopes: ['cameras:read'] },
        })
      ).json();
      key = created.key;
      keyId = created.id;
    }, 120_000);

    afterAll(async () => {
      await a?.close().catch(() => {});
      await b?.close().catch(() => {});
      for (const db of dbs) await db.close().catch(() => {});
      dbs = [];
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    const login = (app: FastifyInstance) =>
      app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: 'restart@example.com', password: 'restart password 1' } });

    async function until(app: FastifyInstance, req: InjectOptions, status: number, withinMs: number): Promise<number> {
      const since = Date.now();
      for (;;) {
        const res = await app.inject(req);
        if (res.statusCode === status) return Date.now() - since;
        if (Date.now() - since > withinMs) throw new Error(`${req.url}: still ${res.statusCode} ${res.body.slice(0, 200)} after ${withinMs} ms`);
        await sleep(50);
      }
    }

    it('503 with Retry-After while the server is down, then both nodes serve again by themselves and hear each other’s changes', async () => {
      const read: InjectOptions = { method: 'GET', url: cameraUrl, headers: { 'x-access-key': key } };
      expect((await b.inject(read)).statusCode).toBe(200); // B has the key cached

      stop();
      for (const app of [a, b]) {
        const res = await login(app);
        expect(res.statusCode, res.body).toBe(503);
        expect(res.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
        expect(res.json().code).toBe('SERVICE_UNAVAILABLE');
      }

      start();
      // Each node's pool and listener reconnect on their own: no restart of either app.
      for (const app of [a, b])
        await until(app, { method: 'POST', url: '/v2/auth/login', payload: { username: 'restart@example.com', password: 'restart password 1' } }, 200, 10_000);
      // The listener drops every cache when it listens again; give it a moment to be back before the change.
      await sleep(1_000);
      expect((await b.inject(read)).statusCode).toBe(200); // cached again on B, so only a message can drop it
      const revoked = await a.inject({ method: 'POST', url: `/v2/api-keys/${keyId}/revoke`, headers: { authorization: `Bearer ${token}` } });
      expect(revoked.statusCode, revoked.body).toBe(200);
      await until(b, read, 401, 1_000);
    }, 90_000);
  },
);
