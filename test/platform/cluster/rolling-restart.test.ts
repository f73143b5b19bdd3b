// A rolling restart under load (docs/deploy.md, Rolling restart): three `overlook serve` processes on one
// PostgreSQL database behind HAProxy configured as docs/deploy.md says, a steady load of key-authorised
// reads through the balancer on keep-alive connections, and each node in turn stopped with SIGTERM,
// waited for, started again on its port and waited for until the balancer has it back. Every request
// the clients sent is answered 2xx: none lost, no 503 reaching a client.
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../../src/lib/db/index.js';
import type { PlatformDatabase } from '../../../src/platform/database.js';
import { createUser } from '../../../src/platform/users/create-user.js';
import { type Balancer, type CliCluster, createScratchDatabase, type ScratchDatabase, startBalancer, startCluster } from '../../helpers/cli-cluster.js';
import { testDialect } from '../../helpers/db.js';
import { eventually } from '../../helpers/eventually.js';

/** Reads a second the clients aim at, over this many keep-alive connections. */
const RATE = 300;
const CLIENTS = 16;
/**
 * A node starts in a few seconds on a quiet machine; on a shared one under heavy load it was seen to
 * take over a minute, which is slow, not wrong.
 */
const START_TIMEOUT_MS = 400_000;
const EMAIL = 'rolling@cluster.example.com';
const PASSWORD = 'rolling-restart-password';

async function json(url: string, init: RequestInit, status: number): Promise<any> {
  const res = await fetch(url, init);
  const body = await res.json();
  if (res.status !== status) throw new Error(`${init.method ?? 'GET'} ${url}: expected ${status}, got ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** Paced reads of `url` until `stop()`: every answer's status counted, every failure kept. */
function steadyLoad(url: string, headers: Record<string, string>) {
  const dispatcher = new Agent({ connections: CLIENTS, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 30_000 });
  const statuses = new Map<number, number>();
  const wrong: string[] = [];
  let running = true;
  const started = Date.now();
  const client = async (n: number) => {
    // Each client sends one read every CLIENTS / RATE seconds, starting spread over one interval.
    const every = (CLIENTS * 1000) / RATE;
    let due = started + (n * every) / CLIENTS;
    while (running) {
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      due += every;
      try {
        const res = await request(url, { dispatcher, headers });
        const text = await res.body.text();
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        if (res.statusCode < 200 || res.statusCode > 299) wrong.push(`${new Date().toISOString()} ${res.statusCode} ${text.slice(0, 200)}`);
      } catch (err) {
        wrong.push(`${new Date().toISOString()} ${String(err)} ${String((err as Error).cause ?? '')}`);
      }
    }
  };
  const clients = Array.from({ length: CLIENTS }, (_, n) => client(n));
  return {
    statuses,
    wrong,
    answered: () => [...statuses.values()].reduce((a, b) => a + b, 0),
    async stop() {
      running = false;
      await Promise.all(clients);
      await dispatcher.close();
      return (Date.now() - started) / 1000;
    },
  };
}

describe.skipIf(testDialect() !== 'postgres')('a rolling restart of three nodes behind HAProxy under load (PostgreSQL only)', () => {
  let scratch: ScratchDatabase | undefined;
  let cluster: CliCluster | undefined;
  let lb: Balancer | undefined;
  let readUrl: string;
  let keyHeaders: Record<string, string>;

  beforeAll(async () => {
    scratch = await createScratchDatabase(process.env.OVERLOOK_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
    cluster = await startCluster({ databaseUrl: scratch.url, nodes: 3, logLevel: 'warn', startTimeoutMs: START_TIMEOUT_MS });
    // The documented check timeout (2 s): on a busy machine a node answers /ready slowly, and a shorter
    // one saw every node down at once.
    lb = await startBalancer(cluster.nodes, { checkTimeoutMs: 2000 });
    const db = openDb<PlatformDatabase>({ databaseUrl: scratch.url, poolSize: 1 });
    try {
      await createUser(db, { email: EMAIL, password: PASSWORD, firstname: 'Rolling' });
    } finally {
      await db.close();
    }
    const base = cluster.nodes[0]!.url;
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      json(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }, 201);
    const { token } = await json(
      `${base}/v2/auth/login`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: EMAIL, password: PASSWORD }) },
      200,
    );
    const auth = { authorization: `Bearer ${token}` };
    const project = (await post('/v2/projects', { name: 'Rolling site' }, auth)).exid as string;
    const { key } = await post(
      '/v2/api-keys',
      { name: 'rolling reads', expires_at: new Date(Date.now() + 86_400_000).toISOString(), projects: [project], scopes: ['projects:read'] },
      auth,
    );
    readUrl = `${lb.url}/v2/projects/${project}`;
    keyHeaders = { 'x-access-key': key };
  }, 4 * START_TIMEOUT_MS);

  afterAll(async () => {
    const steps = [() => lb?.close(), () => cluster?.close(), () => scratch?.drop()];
    const errors: unknown[] = [];
    for (const step of steps) await Promise.resolve(step()).catch((err) => errors.push(err));
    if (errors.length) throw errors[0];
  }, 30_000);

  it(
    'answers every read 2xx while each node is stopped with SIGTERM and started again',
    async () => {
      const load = steadyLoad(readUrl, keyHeaders);
      const timings: string[] = [];
      try {
        await eventually(() => load.answered() >= RATE / 2, 'the load to run', 60_000);
        for (const index of [1, 2, 3]) {
          const t0 = Date.now();
          const node = cluster!.nodes[index - 1]!;
          const code = await node.terminate();
          expect(code, node.output().slice(-2000)).toBe(0);
          const exited = Date.now();
          const restarted = await cluster!.start(index);
          const listening = Date.now();
          await eventually(async () => (await fetch(`${restarted.url}/ready`)).status === 200, `node ${index} ready`, START_TIMEOUT_MS);
          await eventually(async () => (await lb!.serverStates())[`n${index}`] === 'UP', `HAProxy to have n${index} up again`, START_TIMEOUT_MS);
          timings.push(`n${index}: drained in ${exited - t0} ms, listening after ${listening - exited} ms, back in the balancer after ${Date.now() - t0} ms`);
        }
        // A little load on all three restarted nodes before stopping.
        const after = load.answered();
        await eventually(() => load.answered() >= after + RATE / 2, 'reads after the last restart', 60_000);
      } finally {
        const seconds = await load.stop();
        const stats = await lb!.backendStats();
        const total = load.answered();
        process.stderr.write(
          `[rolling restart] ${total} reads in ${seconds.toFixed(1)} s (${Math.round(total / seconds)}/s): ${JSON.stringify(Object.fromEntries(load.statuses))}; ` +
            `HAProxy retries ${stats.BACKEND?.wretr}, redispatches ${stats.BACKEND?.wredis}; ${timings.join('; ')}\n`,
        );
      }
      expect(load.wrong.slice(0, 20)).toEqual([]);
      expect([...load.statuses.keys()]).toEqual([200]);
      expect(load.answered()).toBeGreaterThan(RATE * 3);
    },
    4 * START_TIMEOUT_MS,
  );
});
