// Builds of the platform side by side, loaded at once (docs/benchmarks.md, Side by side). On a virtual
// machine whose speed drifts by half within a minute, servers measured one after the other compare
// moments, not code. Here every server runs on the same CPU at the same time, each driven by its own wrk,
// so whatever slows the machine slows them all alike; what is compared is each server's CPU time per
// request, round by round, against the first server's in the same round.
//
// `node --import tsx bench/side-by-side.ts` (or `npm run bench -- side-by-side`) compares the built CLI
// (dist/cli.js) with the bare Fastify route of bench/bare-server.ts, logging its requests to a file. Env: BENCH_SIDE_CLIS (comma-separated
// CLI entry files, e.g. an older build's dist/cli.js first, then this one's; `.ts` runs through tsx),
// BENCH_SIDE_SCENARIOS (health,key,jwt), BENCH_SIDE_BARE (1: the bare route as the first server;
// default 1), BENCH_SIDE_ROUNDS (8), BENCH_SECONDS (2 per round), BENCH_SIDE_WARMUP (1: send the servers
// requests to a few other routes first, as a server in service would have had).
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { onCpu, startChild, stopChild } from './children.js';
import { machine, TICKS_PER_S } from './process-usage.js';
import { benchWorld, type Headers, json } from './world.js';

const ROOT = join(import.meta.dirname, '..');
const CLIS = (process.env.BENCH_SIDE_CLIS ?? join(ROOT, 'dist', 'cli.js')).split(',');
const SCENARIOS = (process.env.BENCH_SIDE_SCENARIOS ?? 'health,key,jwt').split(',');
const WITH_BARE = process.env.BENCH_SIDE_BARE !== '0';
const ROUNDS = Number(process.env.BENCH_SIDE_ROUNDS ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const WARM_OTHER_ROUTES = process.env.BENCH_SIDE_WARMUP !== '0';
const CONNECTIONS = 16;
const WRK = ['/usr/bin/wrk', '/usr/local/bin/wrk'].find((p) => existsSync(p));
// Servers on the last CPU, the load generators on the first: with two or more CPUs and taskset.
const PIN = cpus().length >= 2 && ['/usr/bin/taskset', '/bin/taskset'].some((p) => existsSync(p));
const SERVER_CPU = PIN ? cpus().length - 1 : undefined;
const WRK_CPU = PIN ? 0 : undefined;

const cliArgs = (cli: string, ...args: string[]) => (cli.endsWith('.ts') ? ['--import', 'tsx', cli, ...args] : [cli, ...args]);

/** User and system CPU seconds a process has used, from /proc. */
function cpuSeconds(pid: number): number {
  const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / TICKS_PER_S;
}

function wrk(url: string, headers: Headers, seconds: number): Promise<{ requests: number; non2xx: number }> {
  const args = ['-t', '1', '-c', String(CONNECTIONS), '-d', `${seconds}s`, ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), url];
  const [command, argv] = onCpu(WRK_CPU, WRK!, args);
  return new Promise((resolve, reject) => {
    const p = spawn(command, argv);
    let out = '';
    p.stdout.on('data', (b: Buffer) => {
      out += b;
    });
    p.on('close', (code) => {
      const requests = /(\d+) requests in/.exec(out);
      if (code !== 0 || !requests) return reject(new Error(`wrk failed on ${url}: ${out}`));
      resolve({ requests: Number(requests[1]), non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0) });
    });
  });
}

interface Server {
  name: string;
  pid: number;
  url: (scenario: string) => string;
  headers: (scenario: string) => Headers;
}

/** One round: every server under load at once; each one's CPU µs per request. */
async function round(servers: Server[], scenario: string, seconds: number): Promise<number[]> {
  const before = servers.map((s) => cpuSeconds(s.pid));
  const runs = await Promise.all(servers.map((s) => wrk(s.url(scenario), s.headers(scenario), seconds)));
  return servers.map((s, i) => {
    const { requests, non2xx } = runs[i]!;
    if (non2xx > 0) throw new Error(`${s.name} ${scenario}: ${non2xx} of ${requests} answers non-2xx`);
    return ((cpuSeconds(s.pid) - before[i]!) * 1e6) / requests;
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const r3 = (n: number) => Number(n.toFixed(3));

async function main(): Promise<void> {
  if (!WRK) throw new Error('wrk is needed (apt-get install wrk)');
  const dataDir = mkdtempSync(join(tmpdir(), 'overlook-bench-side-'));
  const children: ChildProcess[] = [];
  // Every build on one database (SQLite in WAL, one data dir): the same person, key and camera for all.
  const env: NodeJS.ProcessEnv = { ...process.env, OVERLOOK_DATA_DIR: dataDir, DATABASE_URL: '', OVERLOOK_RECORDING_LOOP: '0' };
  delete env.OVERLOOK_LOG_LEVEL;
  try {
    const email = 'bench@example.com';
    const password = 'bench-password-1';
    await new Promise<void>((resolve, reject) =>
      spawn(process.execPath, cliArgs(CLIS[0]!, 'users', 'create', '--email', email, '--password', password), { env, stdio: 'ignore' }).on('exit', (c) =>
        c === 0 ? resolve() : reject(new Error('overlook users create failed')),
      ),
    );
    const urls: string[] = [];
    const servers: Server[] = [];
    for (const [i, cli] of CLIS.entries()) {
      const port = 3800 + i * 7 + Math.floor(Math.random() * 5);
      const log = openSync(join(dataDir, `platform-${i}.log`), 'a');
      const proc = spawn(...onCpu(SERVER_CPU, process.execPath, cliArgs(cli, 'serve', '--port', String(port))), { env, stdio: ['ignore', log, 'inherit'] });
      closeSync(log);
      children.push(proc);
      const url = `http://127.0.0.1:${port}`;
      const end = Date.now() + 60_000;
      while (
        !(await fetch(`${url}/health`).then(
          (r) => r.ok,
          () => false,
        ))
      ) {
        if (Date.now() > end) throw new Error(`${cli} did not start`);
        await new Promise((r) => setTimeout(r, 200));
      }
      urls.push(url);
      servers.push({ name: `${i}: ${cli.replace(`${ROOT}/`, '')}`, pid: proc.pid!, url: () => url, headers: () => ({}) });
    }
    const world = await benchWorld(urls[0]!, email, password);
    const headersOf: Record<string, Headers> = { health: {}, key: world.key, jwt: world.jwt };
    for (const [i, s] of servers.entries()) {
      const url = urls[i]!;
      s.url = (scenario) => (scenario === 'health' ? `${url}/health` : world.cameraUrl(url));
      s.headers = (scenario) => headersOf[scenario] ?? {};
      if (WARM_OTHER_ROUTES) {
        for (const path of ['/v2/auth/users/me', '/v2/projects', '/v2/cameras', '/v2/api-keys', '/v2/notifications', '/.well-known/jwks.json']) {
          for (let n = 0; n < 5; n++) await fetch(`${url}${path}`, { headers: world.jwt }).then((r) => r.arrayBuffer());
        }
      }
    }
    if (WITH_BARE) {
      const cameraJson = join(dataDir, 'camera.json');
      writeFileSync(cameraJson, JSON.stringify(await json(world.cameraUrl(urls[0]!), { headers: world.key })));
      const bare = await startChild(
        [join(import.meta.dirname, 'bare-server.ts'), cameraJson, '--log', join(dataDir, 'bare.log')],
        /bare listening on (http:\/\/\S+)/,
        {},
        SERVER_CPU,
      );
      children.push(bare.proc);
      servers.unshift({
        name: 'bare Fastify route, request logging',
        pid: bare.proc.pid!,
        url: () => `${bare.url}/v2/cameras/${world.camera.exid}`,
        headers: () => ({}),
      });
    }

    const table: Record<string, Record<string, number | string>> = {};
    const results: Record<string, { server: string; us_per_request: number; to_first: number; to_first_rounds: number[] }[]> = {};
    for (const scenario of SCENARIOS) {
      await round(servers, scenario, 1);
      const rounds: number[][] = [];
      for (let r = 0; r < ROUNDS; r++) rounds.push(await round(servers, scenario, SECONDS));
      results[scenario] = servers.map((s, i) => {
        const perRound = rounds.map((x) => x[0]! / x[i]!);
        const row = { server: s.name, us_per_request: r3(median(rounds.map((x) => x[i]!))), to_first: r3(median(perRound)), to_first_rounds: perRound.map(r3) };
        table[`${scenario} · ${s.name}`] = {
          'CPU µs/request (median)': row.us_per_request,
          "first's CPU over this one's (median)": row.to_first,
          'min–max over the rounds': `${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)}`,
        };
        return row;
      });
    }
    const info = {
      machine: machine(),
      cpus: PIN ? `servers on CPU ${SERVER_CPU}, wrk on CPU ${WRK_CPU}` : 'not pinned',
      wrk: `1 thread, ${CONNECTIONS} connections per server, all at once; ${ROUNDS} rounds of ${SECONDS} s`,
      log_level: 'default (info), request lines to a file',
    };
    console.log(
      "\nSide by side: every server loaded at once on one CPU. The ratio is the first server's CPU per request over this one's, per round (1 = as cheap; the bare route first: the share of the framework's ceiling reached)",
    );
    console.table(info);
    console.table(table);
    console.log(JSON.stringify({ bench: 'side-by-side', ...info, results }));
  } finally {
    await Promise.all(children.map(stopChild));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
