// Cluster benchmark (docs/benchmarks.md, Several nodes): three `overlook serve` processes of the built
// CLI on one throw-away PostgreSQL database (BENCH_DATABASE_URL names the server, default the test one),
// launched by the same code as test/platform/cluster/cli-cluster.test.ts.
// (a) Invalidation delay: BENCH_CLUSTER_ROUNDS times (1 000), a key is regenerated through node A, and
//     from the moment A's answer arrives node B is asked with the old value, one request at a time, at
//     most every BENCH_POLL_MS (2) ms, until it refuses it (401); B had the old value cached.
// (b) Key reads per second (GET /v2/cameras/{camera_exid} with x-access-key, autocannon, 32 connections)
//     on one node directly and through HAProxy with one, two and three nodes, two rounds in opposite
//     orders, with the CPU time each process used during the measurement (/proc/<pid>/stat) and the
//     requests answered per CPU second of them all, which other load on the machine disturbs less.
import { cpus, loadavg, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { Client } from 'undici';
import { openDb } from '../src/lib/db/index.js';
import type { PlatformDatabase } from '../src/platform/database.js';
import { createUser } from '../src/platform/users/create-user.js';
import { type CliNode, cpuSeconds, createScratchDatabase, haproxyBinary, startBalancer, startCluster } from '../test/helpers/cli-cluster.js';
import { pgReachable } from './pg-reachable.js';

const ADMIN_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const ROUNDS = Number(process.env.BENCH_CLUSTER_ROUNDS ?? 1000);
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 2);
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 32;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (v: number) => Number(v.toFixed(2));

async function json(client: Client, method: 'GET' | 'POST' | 'PUT', path: string, headers: Record<string, string>, body?: unknown): Promise<any> {
  const res = await client.request({
    method,
    path,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
  return JSON.parse(text);
}

async function status(client: Client, path: string, headers: Record<string, string>): Promise<number> {
  const res = await client.request({ method: 'GET', path, headers });
  await res.body.dump();
  return res.statusCode;
}

/** (a): the time from A's answer to B's first refusal of the old value, per round. */
async function invalidationDelay(a: Client, b: Client, auth: Record<string, string>, keyId: string, firstValue: string, path: string) {
  const delays: number[] = [];
  const intervals: number[] = [];
  let refusedAtFirstPoll = 0;
  let value = firstValue;
  for (let i = 0; i < ROUNDS; i++) {
    // B has the current value cached (it answers 200 with it).
    const warm = await status(b, path, { 'x-access-key': value });
    if (warm !== 200) throw new Error(`round ${i}: node B answered ${warm} to the current value`);
    const fresh = await json(a, 'POST', `/v2/api-keys/${keyId}/regenerate`, auth);
    const answeredAt = performance.now();
    let polls = 0;
    let last = 0;
    for (;;) {
      const started = performance.now();
      if (polls > 0) intervals.push(started - last);
      last = started;
      polls++;
      const s = await status(b, path, { 'x-access-key': value });
      if (s === 401) {
        delays.push(performance.now() - answeredAt);
        if (polls === 1) refusedAtFirstPoll++;
        break;
      }
      if (s !== 200) throw new Error(`round ${i}: node B answered ${s}`);
      if (performance.now() - answeredAt > 5000) throw new Error(`round ${i}: node B still accepts the old value after 5 s`);
      const wait = started + POLL_MS - performance.now();
      if (wait > 0) await sleep(Math.ceil(wait));
    }
    value = fresh.key;
  }
  delays.sort((x, y) => x - y);
  intervals.sort((x, y) => x - y);
  return {
    rounds: ROUNDS,
    p50_ms: ms(pct(delays, 50)),
    p90_ms: ms(pct(delays, 90)),
    p99_ms: ms(pct(delays, 99)),
    max_ms: ms(delays[delays.length - 1]!),
    refused_at_first_poll: refusedAtFirstPoll,
    poll_interval_p50_ms: intervals.length ? ms(pct(intervals, 50)) : null,
    poll_interval_p99_ms: intervals.length ? ms(pct(intervals, 99)) : null,
    polls_after_first: intervals.length,
  };
}

interface Throughput {
  setup: string;
  rps: number;
  /** Requests answered per second of CPU used by the nodes, HAProxy and the client together. */
  requests_per_cpu_s: number;
  node_cpu_s: number[];
  haproxy_cpu_s: number | null;
  client_cpu_s: number;
}

/** (b): autocannon against `url` for DURATION s (after a 2 s warm-up), with every process's CPU time. */
async function throughput(setup: string, url: string, headers: Record<string, string>, nodes: CliNode[], haproxyPid?: number): Promise<Throughput> {
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers });
  const pids = nodes.map((n) => n.pid);
  const before = { nodes: pids.map(cpuSeconds), haproxy: haproxyPid ? cpuSeconds(haproxyPid) : 0, client: process.cpuUsage() };
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  const client = process.cpuUsage(before.client);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${setup}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const round = (v: number) => Number(v.toFixed(2));
  const nodeCpu = pids.map((p, i) => cpuSeconds(p) - before.nodes[i]!);
  const haproxyCpu = haproxyPid ? cpuSeconds(haproxyPid) - before.haproxy : 0;
  const clientCpu = (client.user + client.system) / 1e6;
  const cpu = nodeCpu.reduce((a, v) => a + v, 0) + haproxyCpu + clientCpu;
  return {
    setup,
    rps: Math.round(result.requests.average),
    requests_per_cpu_s: Math.round(result.requests.total / cpu),
    node_cpu_s: nodeCpu.map(round),
    haproxy_cpu_s: haproxyPid ? round(haproxyCpu) : null,
    client_cpu_s: round(clientCpu),
  };
}

export async function benchCluster(): Promise<Record<string, unknown> | undefined> {
  if (!(await pgReachable(ADMIN_URL))) {
    console.log(`skipped: no PostgreSQL at ${ADMIN_URL.replace(/\/\/[^@]*@/, '//')} (set BENCH_DATABASE_URL)`);
    return undefined;
  }
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}`;
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const scratch = await createScratchDatabase(ADMIN_URL);
  const clients: Client[] = [];
  let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
  try {
    cluster = await startCluster({ databaseUrl: scratch.url, nodes: 3, build: 'dist', logLevel: 'warn' });
    const [n1, n2] = cluster.nodes as [CliNode, CliNode, CliNode];
    const email = 'bench@cluster.example.com';
    const password = 'bench-cluster-password';
    const db = openDb<PlatformDatabase>({ databaseUrl: scratch.url, poolSize: 1 });
    try {
      await createUser(db, { email, password, firstname: 'Bench' });
    } finally {
      await db.close();
    }
    const a = new Client(n1.url);
    const b = new Client(n2.url);
    clients.push(a, b);
    const { token } = await json(a, 'POST', '/v2/auth/login', {}, { username: email, password });
    const auth = { authorization: `Bearer ${token}` };
    const project = await json(a, 'POST', '/v2/projects', auth, { name: 'Bench site' });
    const camera = await json(a, 'POST', '/v2/cameras', auth, { name: 'Bench cam', project_exid: project.exid, simulated: true });
    const newKey = () =>
      json(a, 'POST', '/v2/api-keys', auth, {
        name: 'bench',
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
        projects: [project.exid],
        scopes: ['cameras:read'],
      });
    const path = `/v2/cameras/${camera.exid}`;

    const regenerated = await newKey();
    const invalidation = await invalidationDelay(a, b, auth, regenerated.id, regenerated.key, path);
    console.log('\n(a) invalidation delay: key regenerated through node A, old value polled on node B');
    console.table(invalidation);

    const reader = await newKey();
    const headers = { 'x-access-key': reader.key };
    const runs: Throughput[] = [];
    if (!haproxyBinary()) {
      console.log('(b) skipped: HAProxy is not installed (apt-get install haproxy)');
    } else {
      const setups = [0, 1, 2, 3];
      for (const order of [setups, [...setups].reverse()]) {
        for (const n of order) {
          if (n === 0) {
            runs.push(await throughput('one node, direct', `${n1.url}${path}`, headers, cluster.nodes));
            continue;
          }
          const lb = await startBalancer(cluster.nodes.slice(0, n));
          try {
            runs.push(await throughput(`HAProxy, ${n} node${n > 1 ? 's' : ''}`, `${lb.url}${path}`, headers, cluster.nodes, lb.pid));
          } finally {
            await lb.close();
          }
        }
      }
      console.log(`\n(b) key reads per second, ${CONNECTIONS} connections, ${DURATION} s each; CPU seconds used during each run`);
      console.table(runs.map((r) => ({ ...r, node_cpu_s: r.node_cpu_s.join(' / ') })));
    }
    return { machine, load_before: load, database: 'postgres', invalidation, throughput: runs, duration_s: DURATION, connections: CONNECTIONS };
  } finally {
    for (const c of clients) await c.close().catch(() => {});
    await cluster?.close();
    await scratch.drop();
  }
}

if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchCluster();
  if (r) console.log(JSON.stringify({ bench: 'cluster', ...r }));
}
