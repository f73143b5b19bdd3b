// A real cluster (docs/deploy.md, Running N nodes): three `overlook serve` processes of the CLI, started
// at once on one empty PostgreSQL database with the same DATABASE_URL and OVERLOOK_SECRET_KEY and
// nothing else shared, behind HAProxy (round-robin, health checks on /health). Credentials issued by one
// node work on all; a key revoked or a member removed on one node is refused by the others within 1 s;
// sign-in failures count across nodes; a cloud-recorded camera is recorded by one node at a time, no
// second twice; and when that node is killed with SIGKILL during a burst of reads through the balancer,
// no valid key is refused, HAProxy marks the node down, and another node takes the camera over.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../../src/lib/db/index.js';
import type { PlatformDatabase } from '../../../src/platform/database.js';
import { createUser } from '../../../src/platform/users/create-user.js';
import {
  type Balancer,
  type CliCluster,
  type CliNode,
  createScratchDatabase,
  type ScratchDatabase,
  startBalancer,
  startCluster,
} from '../../helpers/cli-cluster.js';
import { testDialect } from '../../helpers/db.js';

const LEASE_SECONDS = 2;
const FAILURES_PER_ACCOUNT = 5;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

async function call(base: string, method: string, path: string, opts: { headers?: Record<string, string>; body?: unknown } = {}): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }), ...opts.headers },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, body, headers: res.headers };
}

async function must(answer: Promise<Answer>, status: number, what: string): Promise<Answer> {
  const a = await answer;
  if (a.status !== status) throw new Error(`${what}: expected ${status}, got ${a.status} ${JSON.stringify(a.body).slice(0, 300)}`);
  return a;
}

/** Asks `base` every 20 ms until it answers `status`; fails if that takes longer than `withinMs` from `since`. */
async function answers(base: string, path: string, headers: Record<string, string>, status: number, since: number, withinMs = 1000): Promise<void> {
  for (;;) {
    const a = await call(base, 'GET', path, { headers });
    if (a.status === status) return;
    if (Date.now() - since > withinMs) throw new Error(`${base}${path}: expected ${status} within ${withinMs} ms, still ${a.status}`);
    await sleep(20);
  }
}

async function until(what: string, ok: () => Promise<boolean>, withinMs: number): Promise<void> {
  const start = Date.now();
  while (!(await ok())) {
    if (Date.now() - start > withinMs) throw new Error(`not within ${withinMs} ms: ${what}`);
    await sleep(100);
  }
}

/**
 * No second recorded twice, across every node that recorded: consecutive frames at least half a second
 * apart (a frame is stamped when its capture starts, a few ms after its slot), and no more frames than
 * seconds between the first and the last.
 */
function expectOneASecond(taken: number[]): void {
  const listing = taken.map((t) => new Date(t).toISOString()).join(', ');
  const gaps = taken.slice(1).map((t, i) => t - taken[i]!);
  expect(Math.min(...gaps), listing).toBeGreaterThanOrEqual(500);
  expect(taken.length, listing).toBeLessThanOrEqual(Math.round((taken[taken.length - 1]! - taken[0]!) / 1000) + 1);
}

describe.skipIf(testDialect() !== 'postgres')(
  'three `overlook serve` processes behind HAProxy are one platform (PostgreSQL only: with SQLite there is one node)',
  () => {
    let scratch: ScratchDatabase | undefined;
    let cluster: CliCluster | undefined;
    let lb: Balancer | undefined;
    let pool: pg.Pool | undefined;
    let nodes: CliNode[];
    const people = { owner: 'owner', member: 'member', throttled: 'throttled' } as const;
    const passwords: Record<string, string> = {};
    let ownerAuth: Record<string, string>;
    let project: string;
    let camera: { exid: string; id: string };

    const email = (who: string) => `${who}@cluster.example.com`;
    const signIn = (base: string, who: string, password = passwords[who]!) =>
      call(base, 'POST', '/v2/auth/login', { body: { username: email(who), password } });

    const frames = async (): Promise<number[]> =>
      (await pool!.query<{ taken_at: string }>('select taken_at from snapshots where camera_id = $1 order by taken_at', [camera.id])).rows.map((r) =>
        Date.parse(r.taken_at),
      );
    const cameraHolder = async (): Promise<string | undefined> =>
      (await pool!.query<{ holder: string }>('select holder from work_leases where name = $1', [`camera:${camera.id}`])).rows[0]?.holder;

    beforeAll(async () => {
      scratch = await createScratchDatabase(process.env.OVERLOOK_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
      // Started at once on the empty database: they migrate it concurrently and agree on one set of keys.
      cluster = await startCluster({
        databaseUrl: scratch.url,
        nodes: 3,
        env: { OVERLOOK_WORK_LEASE_SECONDS: String(LEASE_SECONDS), OVERLOOK_LOGIN_FAILURES_PER_ACCOUNT: String(FAILURES_PER_ACCOUNT) },
      });
      nodes = cluster.nodes;
      lb = await startBalancer(nodes);
      pool = new pg.Pool({ connectionString: scratch.url, max: 2 });

      const db = openDb<PlatformDatabase>({ databaseUrl: scratch.url, poolSize: 1 });
      try {
        for (const who of Object.values(people)) {
          passwords[who] = `${who}-cluster-password`;
          await createUser(db, { email: email(who), password: passwords[who]!, firstname: who });
        }
      } finally {
        await db.close();
      }
      const [n1] = nodes;
      ownerAuth = { authorization: `Bearer ${(await must(signIn(n1!.url, people.owner), 200, 'sign in')).body.token}` };
      project = (await must(call(n1!.url, 'POST', '/v2/projects', { headers: ownerAuth, body: { name: 'Cluster site' } }), 201, 'project')).body.exid;
      const cam = await must(
        call(n1!.url, 'POST', '/v2/cameras', { headers: ownerAuth, body: { name: 'Cluster camera', project_exid: project, simulated: true } }),
        201,
        'camera',
      );
      camera = { exid: cam.body.exid, id: (await pool.query<{ id: string }>('select id from cameras where exid = $1', [cam.body.exid])).rows[0]!.id };
      // One frame a second from now on; the tests below run while it records.
      await must(
        call(n1!.url, 'PUT', `/v2/cameras/${camera.exid}/cloud-recordings`, { headers: ownerAuth, body: { status: 'on', frequency: 60 } }),
        200,
        'cloud recording',
      );
    }, 120_000);

    afterAll(async () => {
      const steps = [() => lb?.close(), () => cluster?.close(), () => pool?.end(), () => scratch?.drop()];
      const errors: unknown[] = [];
      for (const step of steps) await Promise.resolve(step()).catch((err) => errors.push(err));
      if (errors.length) throw errors[0];
    }, 30_000);

    const newKey = async (base: string) =>
      (
        await must(
          call(base, 'POST', '/v2/api-keys', {
            headers: ownerAuth,
            body: {
              name: 'cluster key',
              expires_at: new Date(Date.now() + 86_400_000).toISOString(),
              projects: [project],
              scopes: ['cameras:read', 'projects:read'],
            },
          }),
          201,
          'create key',
        )
      ).body as { id: string; key: string };

    it('a JWT and an API key issued through one node are accepted by every node, directly and through the balancer', async () => {
      const fromNode = await newKey(nodes[0]!.url);
      const fromBalancer = await newKey(lb!.url);
      // Six requests through the round-robin balancer reach each node twice.
      const bases = [...nodes.map((n) => n.url), ...Array.from({ length: 6 }, () => lb!.url)];
      for (const base of bases) {
        for (const headers of [ownerAuth, { 'x-access-key': fromNode.key }, { 'x-access-key': fromBalancer.key }]) {
          const a = await call(base, 'GET', `/v2/cameras/${camera.exid}`, { headers });
          expect(a.status, `${base}: ${JSON.stringify(a.body)}`).toBe(200);
          expect(a.body.exid).toBe(camera.exid);
        }
      }
      // The same signing keys everywhere: each node publishes the same JWKS.
      const jwks = await Promise.all(nodes.map(async (n) => JSON.stringify((await call(n.url, 'GET', '/.well-known/jwks.json')).body)));
      expect(new Set(jwks).size).toBe(1);
    });

    it('a key revoked on node 1 is refused by nodes 2 and 3 within 1 s', async () => {
      const k = await newKey(nodes[0]!.url);
      const headers = { 'x-access-key': k.key };
      const path = `/v2/cameras/${camera.exid}`;
      for (const n of nodes.slice(1)) await answers(n.url, path, headers, 200, Date.now()); // cached there now
      await must(call(nodes[0]!.url, 'POST', `/v2/api-keys/${k.id}/revoke`, { headers: ownerAuth }), 200, 'revoke');
      const at = Date.now();
      await Promise.all(nodes.slice(1).map((n) => answers(n.url, path, headers, 401, at)));
    });

    it('a member removed on node 1 gets 404 for the project on nodes 2 and 3 within 1 s', async () => {
      const memberAuth = { authorization: `Bearer ${(await must(signIn(nodes[1]!.url, people.member), 200, 'sign in')).body.token}` };
      const path = `/v2/projects/${project}`;
      for (const n of nodes.slice(1)) await answers(n.url, path, memberAuth, 404, Date.now());
      await must(
        call(nodes[0]!.url, 'POST', `/v2/projects/${project}/members`, { headers: ownerAuth, body: { email: email(people.member), role: 'viewer' } }),
        201,
        'add',
      );
      const added = Date.now();
      await Promise.all(nodes.slice(1).map((n) => answers(n.url, path, memberAuth, 200, added)));
      const users = (await pool!.query<{ id: string }>('select id from users where email = $1', [email(people.member)])).rows;
      await must(call(nodes[0]!.url, 'DELETE', `/v2/projects/${project}/members/${users[0]!.id}`, { headers: ownerAuth }), 204, 'remove');
      const removed = Date.now();
      await Promise.all(nodes.slice(1).map((n) => answers(n.url, path, memberAuth, 404, removed)));
    });

    it('sign-in failures count across the nodes: 429 after as many failures as on one node', async () => {
      for (let i = 0; i < FAILURES_PER_ACCOUNT; i++) {
        const wrong = await signIn(nodes[i % 3]!.url, people.throttled, 'wrong-password');
        expect(wrong.status, `failure ${i + 1} on node ${(i % 3) + 1}`).toBe(401);
      }
      for (const base of [nodes[FAILURES_PER_ACCOUNT % 3]!.url, lb!.url]) {
        const blocked = await signIn(base, people.throttled);
        expect(blocked.status).toBe(429);
        expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    });

    it('the camera is recorded by one node, one frame a second, no second twice', async () => {
      await until('ten seconds of recording', async () => (await frames()).length >= 10, 20_000);
      expectOneASecond(await frames());
      const holder = await cameraHolder();
      expect(nodes.map((n) => n.workNodeId())).toContain(holder);
    });

    it('kill -9 of the recording node during a burst of key reads through the balancer: no valid key refused, the node marked down, its camera taken over', async () => {
      const holder = await cameraHolder();
      const victim = nodes.find((n) => n.workNodeId() === holder);
      expect(victim, `camera lease held by ${holder}`).toBeDefined();
      const { key } = await newKey(nodes.find((n) => n !== victim)!.url);
      const headers = { 'x-access-key': key };

      const TOTAL = 2000;
      const KILL_AFTER = 500;
      const statuses = new Map<number, number>();
      const failures: string[] = [];
      let next = 0;
      let done = 0;
      let killing: Promise<void> | undefined;
      let killedAt = 0;
      const worker = async () => {
        while (next < TOTAL) {
          next++;
          try {
            const res = await fetch(`${lb!.url}/v2/cameras/${camera.exid}`, { headers });
            await res.arrayBuffer();
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          } catch (err) {
            failures.push(`${done}: ${String(err)} ${String((err as Error).cause)}`);
          }
          if (++done === KILL_AFTER) {
            killedAt = Date.now();
            killing = victim!.kill();
          }
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      await killing;
      expect(killedAt).toBeGreaterThan(0);
      // A read in flight on the killed node is resent by HAProxy to another node (retry-on empty-response),
      // so no request fails at the client.
      expect(failures).toEqual([]);
      // Every answer is 200, or the balancer's 502/503 for a request in flight on the killed node.
      const wrong = [...statuses.keys()].filter((s) => s !== 200 && s !== 502 && s !== 503);
      expect(wrong, JSON.stringify(Object.fromEntries(statuses))).toEqual([]);
      expect(statuses.get(200) ?? 0).toBeGreaterThanOrEqual(TOTAL - 50);

      await until('HAProxy marks the killed node down', async () => (await lb!.serverStates())[`n${victim!.index}`]?.startsWith('DOWN') ?? false, 5000);

      // Another node takes the camera once its lease expires, and goes on from its last frame.
      await until(
        'the camera recorded again by another node',
        async () => {
          const h = await cameraHolder();
          return h !== holder && (await frames()).some((t) => t > killedAt + 1000);
        },
        LEASE_SECONDS * 1000 + 10_000,
      );
      const live = nodes.filter((n) => n !== victim).map((n) => n.workNodeId());
      expect(live).toContain(await cameraHolder());
      const since = async () => (await frames()).filter((t) => t > killedAt + 1000).length;
      await until('two frames recorded by the new holder', async () => (await since()) >= 2, 10_000);
      expectOneASecond(await frames());
    });
  },
);
