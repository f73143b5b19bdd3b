// The request path against an ordinary service (docs/benchmarks.md, The request path). Every server is a
// process of its own: the platform (the built CLI, `overlook serve`, at the default log level with request
// logging on, its log written to a file); the yardstick, a bare Fastify 5 route from the same node_modules
// with Fastify's default pino request logging to a file (bench/bare-server.ts --log); the same route with
// the logger off; and @fastify/static over the platform's object folder (bench/static-server.ts). Each
// scenario is loaded side by side with its yardstick: both at once, each by its own wrk (1 thread, 32
// connections, BENCH_SECONDS = 5 s, after a warm-up), so that whatever slows the machine slows both
// alike. BENCH_RUNS (5) runs, in alternating order, give the noise.
// Reported for each: requests/s, the server's CPU µs per request and wrk's p99 latency. /health, the
// key-authorised camera read, the same with a JWT and a key refused (403) as a ratio to the yardstick; the
// stored JPEG (API key, Accept: image/jpeg) to @fastify/static on the same file; a media-token segment
// read to the yardstick loaded beside it.
// Env: BENCH_SECONDS, BENCH_WARMUP_SECONDS (2), BENCH_RUNS, BENCH_REQUEST_PATH_PARTS (json,jpeg,media),
// BENCH_PIN (default on where `taskset` exists and there are two CPUs or more: every server on the last
// CPU, wrk on the first; 0: wherever the scheduler puts them), BENCH_SCENARIOS (some of the JSON ones),
// BENCH_LOG_LEVEL (unset: the default level), BENCH_CLI (a `.ts` runs through tsx), BENCH_CPU_PROF
// (folder for the platform's CPU profile), BENCH_DATABASE_URL (PostgreSQL instead of SQLite).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { onCpu, startChild, stopChild } from './children.js';
import { machine, TICKS_PER_S } from './process-usage.js';
import { benchWorld, type Headers, json } from './world.js';

const ROOT = join(import.meta.dirname, '..');
const CLI = process.env.BENCH_CLI ?? join(ROOT, 'dist', 'cli.js');
/** The CLI as node arguments: a `.ts` BENCH_CLI (e.g. src/cli.ts) runs through tsx, without a build. */
const cliArgs = (...args: string[]) => (CLI.endsWith('.ts') ? ['--import', 'tsx', CLI, ...args] : [CLI, ...args]);
/** BENCH_CPU_PROF=<folder>: the platform writes a V8 CPU profile there when it stops (`--cpu-prof`). */
const PROFILE = process.env.BENCH_CPU_PROF;
/** BENCH_SCENARIOS=logged,key: only these of the JSON scenarios (logged, bare, health, key, jwt, refused_key). */
const ONLY = process.env.BENCH_SCENARIOS?.split(',');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PARTS = (process.env.BENCH_REQUEST_PATH_PARTS ?? 'json,jpeg,media').split(',');
const CONNECTIONS = 32;
const WRK = ['/usr/bin/wrk', '/usr/local/bin/wrk'].find((p) => existsSync(p));
/** Where servers and wrk run: each on a CPU of its own, unless BENCH_PIN=0 or there is nothing to pin with. */
const PIN = process.env.BENCH_PIN !== '0' && cpus().length >= 2 && ['/usr/bin/taskset', '/bin/taskset'].some((p) => existsSync(p));
const SERVER_CPU = PIN ? cpus().length - 1 : undefined;
const WRK_CPU = PIN ? 0 : undefined;

/** One load: a URL, its headers, the server process that answers it. `refused`: answers must be non-2xx ('rolling': some may be). */
type Scenario = { name: string; url: string; headers: Headers; pid: number; refused?: boolean | 'rolling' };

interface WrkResult {
  rps: number;
  requests: number;
  non2xx: number;
  /** The server process's CPU time (user + system) per request, in µs: steadier than rps on a busy machine. */
  cpuUs: number;
  /** wrk's 99th percentile latency, in ms. */
  p99Ms: number;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

/** The 99% line of wrk's latency distribution (`--latency`), in ms. */
function p99(out: string): number {
  const m = /^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(out);
  return m ? Number(m[1]) * UNIT_MS[m[2]!]! : Number.NaN;
}

/** CPU seconds (user + system) a process has used, from /proc. */
function cpuSeconds(pid: number): number {
  const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / TICKS_PER_S;
}

/** The wrk command line: 1 thread (C, light on the CPU the servers need), 32 connections, latency percentiles. */
const wrkArgs = (url: string, headers: Headers, seconds: number) => [
  '-t',
  '1',
  '-c',
  String(CONNECTIONS),
  '-d',
  `${seconds}s`,
  '--latency',
  ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
  url,
];

/** wrk's output, read. `refused`: every answer must be non-2xx (checked before by status). */
function readWrk(url: string, out: string, status: number | null, refused: boolean | 'rolling'): Omit<WrkResult, 'cpuUs'> {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  const requests = /(\d+) requests in/.exec(out);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const errors = /Socket errors:.*/.exec(out);
  if (!rps || !requests || status !== 0) throw new Error(`wrk failed on ${url}: ${out}`);
  if (errors) throw new Error(`${url}: ${errors[0]}`);
  if (refused === true ? non2xx !== Number(requests[1]) : refused === false && non2xx > 0)
    throw new Error(`${url}: ${non2xx} of ${requests[1]} answers non-2xx`);
  // 'rolling' (live segments, which roll off): the answers that were not 2xx are left out of the rate.
  const ok = refused === 'rolling' ? 1 - non2xx / Number(requests[1]) : 1;
  if (ok < 1) process.stderr.write(`${url.slice(0, 80)}…: ${non2xx} of ${requests[1]} answers non-2xx, left out\n`);
  return { rps: Number(rps[1]) * ok, requests: Number(requests[1]), non2xx, p99Ms: p99(out) };
}

/** One wrk run against `s`, resolved when it ends. */
function wrk(s: Scenario, seconds: number): Promise<Omit<WrkResult, 'cpuUs'>> {
  const [command, argv] = onCpu(WRK_CPU, WRK!, wrkArgs(s.url, s.headers, seconds));
  return new Promise((resolve, reject) => {
    const p = spawn(command, argv);
    let out = '';
    p.stdout.on('data', (b: Buffer) => {
      out += b;
    });
    p.on('error', reject);
    p.on('close', (code) => {
      try {
        resolve(readWrk(s.url, out, code, s.refused ?? false));
      } catch (err) {
        reject(err);
      }
    });
  });
}

/**
 * Scenarios loaded at once, each by its own wrk, for `seconds`; each one's server CPU per request over
 * the same interval. Servers loaded together share whatever CPU the machine leaves them, so a drift of
 * the machine moves them alike.
 */
async function together(scenarios: Scenario[], seconds: number): Promise<WrkResult[]> {
  const before = scenarios.map((s) => cpuSeconds(s.pid));
  const results = await Promise.all(scenarios.map((s) => wrk(s, seconds)));
  return results.map((r, i) => ({ ...r, cpuUs: ((cpuSeconds(scenarios[i]!.pid) - before[i]!) * 1e6) / r.requests }));
}

async function until<T>(what: string, f: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      const v = await f();
      if (v !== undefined) return v;
    } catch {
      /* not yet */
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

/** Newlines in a file, read in 1 MiB pieces: a quiet machine's log passes the longest string V8 allows. */
function lines(file: string): number {
  const fd = openSync(file, 'r');
  const buf = Buffer.allocUnsafe(1 << 20);
  let count = 0;
  try {
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) {
      for (let i = buf.indexOf(10); i !== -1 && i < n; i = buf.indexOf(10, i + 1)) count++;
    }
  } finally {
    closeSync(fd);
  }
  return count;
}
const r3 = (n: number) => Number(n.toFixed(3));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** Mean, and the spread over the runs as (max − min) / mean. */
const summary = (xs: number[]) => ({
  mean: r3(mean(xs)),
  min: r3(Math.min(...xs)),
  max: r3(Math.max(...xs)),
  spread: r3((Math.max(...xs) - Math.min(...xs)) / mean(xs)),
});

async function main(): Promise<void> {
  if (!WRK) throw new Error('wrk is needed (apt-get install wrk)');
  const dataDir = mkdtempSync(join(tmpdir(), 'overlook-bench-path-'));
  const logFile = join(dataDir, 'platform.log');
  const children: ChildProcess[] = [];
  // No recording loop: what is measured is the request path alone (as in bench/cameras.ts).
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    OVERLOOK_DATA_DIR: dataDir,
    DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
    OVERLOOK_RECORDING_LOOP: '0',
  };
  // The default level unless asked otherwise: request logging is part of what is measured.
  delete env.OVERLOOK_LOG_LEVEL;
  if (process.env.BENCH_LOG_LEVEL) env.OVERLOOK_LOG_LEVEL = process.env.BENCH_LOG_LEVEL;
  const loadBefore = loadavg();
  try {
    const email = 'bench@example.com';
    const password = 'bench-password-1';
    const made = spawnSync(process.execPath, cliArgs('users', 'create', '--email', email, '--password', password), {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (made.status !== 0) throw new Error('overlook users create failed');

    // The platform's log goes to a file, as a service's stdout goes to a pipe or file in production.
    const port = 3950 + Math.floor(Math.random() * 40);
    const logFd = openSync(logFile, 'a');
    const platformArgs = [...(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`] : []), ...cliArgs('serve', '--port', String(port))];
    const platform = spawn(...onCpu(SERVER_CPU, process.execPath, platformArgs), { env, stdio: ['ignore', logFd, 'inherit'] });
    closeSync(logFd);
    children.push(platform);
    const url = `http://127.0.0.1:${port}`;
    // A shared machine can take minutes to start it on one CPU.
    await until('the platform', async () => ((await fetch(`${url}/health`)).ok ? true : undefined), 300_000);

    const { jwt, key, refusedKey, camera, cameraUrl: cameraUrlOf } = await benchWorld(url, email, password);
    const cameraUrl = cameraUrlOf(url);
    const refusedStatus = (await fetch(cameraUrl, { headers: refusedKey })).status;
    if (refusedStatus !== 403) throw new Error(`the refused key got ${refusedStatus}, not 403`);

    // The bare routes answer the very JSON the platform answers.
    const cameraJson = join(dataDir, 'camera.json');
    writeFileSync(cameraJson, JSON.stringify(await json(cameraUrl, { headers: key })));
    const bareArgs = [join(import.meta.dirname, 'bare-server.ts'), cameraJson];
    const logged = await startChild([...bareArgs, '--log', join(dataDir, 'bare.log')], /bare listening on (http:\/\/\S+)/, {}, SERVER_CPU);
    children.push(logged.proc);
    const bare = await startChild(bareArgs, /bare listening on (http:\/\/\S+)/, {}, SERVER_CPU);
    children.push(bare.proc);

    const scenarios: Scenario[] = [
      { name: 'logged', url: `${logged.url}/v2/cameras/${camera.exid}`, headers: {}, pid: logged.proc.pid! },
      { name: 'bare', url: `${bare.url}/v2/cameras/${camera.exid}`, headers: {}, pid: bare.proc.pid! },
      { name: 'health', url: `${url}/health`, headers: {}, pid: platform.pid! },
      { name: 'key', url: cameraUrl, headers: key, pid: platform.pid! },
      { name: 'jwt', url: cameraUrl, headers: jwt, pid: platform.pid! },
      { name: 'refused_key', url: cameraUrl, headers: refusedKey, pid: platform.pid!, refused: true },
    ];

    // Stored JPEG: one frame the simulated camera takes, served by the API and by @fastify/static.
    let jpeg: { api: Scenario; stat: Scenario; bytes: number } | undefined;
    if (PARTS.includes('jpeg')) {
      const shot = await json(`${url}/v2/cameras/${camera.exid}/snapshots`, { method: 'POST', headers: jwt, body: '{}' });
      const apiUrl = `${url}/v2/cameras/${camera.exid}/recordings/snapshots/${shot.created_at}`;
      const apiHeaders = { ...key, accept: 'image/jpeg' };
      const res = await fetch(apiUrl, { headers: apiHeaders });
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200) throw new Error(`the stored JPEG: ${res.status} ${body.toString().slice(0, 200)}`);
      const objects = join(dataDir, 'objects');
      const file = filesUnder(objects).find((f) => f.endsWith('.jpg') && statSync(f).size === body.length && readFileSync(f).equals(body));
      if (!file) throw new Error('the stored JPEG is not under the object folder');
      const statik = await startChild([join(import.meta.dirname, 'static-server.ts'), objects], /static listening on (http:\/\/\S+)/, {}, SERVER_CPU);
      children.push(statik.proc);
      jpeg = {
        api: { name: 'jpeg_api', url: apiUrl, headers: apiHeaders, pid: platform.pid! },
        stat: { name: 'jpeg_static', url: `${statik.url}/${file.slice(objects.length + 1)}`, headers: {}, pid: statik.proc.pid! },
        bytes: body.length,
      };
    }

    let platformRequests = 0;
    const counted = (s: Scenario, r: WrkResult) => {
      if (s.pid === platform.pid) platformRequests += r.requests;
    };
    const warm = async (s: Scenario) => counted(s, (await together([s], WARMUP_SECONDS))[0]!);
    /** `s` and its yardstick loaded at once; `s`'s figures under `as`, the yardstick's beside them under `baseAs`. */
    const pair = async (s: Scenario, base: Scenario, into: Record<string, number>, as = s.name, baseAs = `${as}__base`) => {
      // A live segment lives about 14 s (six 2 s segments in the playlist, then deleted): at most 4 s on one.
      const seconds = s.refused === 'rolling' ? Math.min(SECONDS, 4) : SECONDS;
      const [r, b] = await together([s, base], seconds);
      for (const [name, x] of [
        [as, r!],
        [baseAs, b!],
      ] as const) {
        into[name] = x.rps;
        into[`${name}_cpu_us`] = x.cpuUs;
        into[`${name}_p99_ms`] = x.p99Ms;
      }
      counted(s, r!);
    };
    const yardstickOfJson = scenarios[0]!;
    const json_ = PARTS.includes('json') ? scenarios.filter((s) => !ONLY || ONLY.includes(s.name)) : [];
    for (const s of json_) await warm(s);
    if (jpeg) for (const s of [jpeg.api, jpeg.stat]) await warm(s);

    const runs: Record<string, number>[] = [];
    for (let i = 0; i < RUNS; i++) {
      const got: Record<string, number> = {};
      // Alternate the order run by run, so drift over time does not favour one scenario.
      for (const s of i % 2 === 0 ? json_ : [...json_].reverse()) {
        if (s === yardstickOfJson) continue;
        // The bare route without logging is the yardstick's own pair: the yardstick's figures are kept from it.
        if (s.name === 'bare') await pair(s, yardstickOfJson, got, 'bare', 'logged');
        else await pair(s, yardstickOfJson, got);
      }
      if (jpeg) await pair(jpeg.api, jpeg.stat, got, 'jpeg_api', 'jpeg_static');
      runs.push(got);
      process.stderr.write(`run ${i + 1}/${RUNS}: ${JSON.stringify(got)}\n`);
    }

    // Media-token segment reads last: the simulated stream's ffmpeg would load the machine meanwhile.
    // Each round asks for a fresh playlist and reads its newest segment (segments roll off after ~14 s).
    if (PARTS.includes('media')) {
      const hls = await json(`${url}/v2/cameras/${camera.exid}/hls?format=json`, { headers: key });
      const playlistUrl = hls.playlist_url.replace(/^https?:\/\/[^/]+/, url);
      const newestSegment = async (): Promise<string> => {
        const text = await until('the live playlist', async () => {
          const r = await fetch(playlistUrl).catch(() => fetch(playlistUrl));
          const t = await r.text();
          return r.ok && /seg_\d+\.ts/.test(t) ? t : undefined;
        });
        const uris = text.split('\n').filter((l) => /seg_\d+\.ts/.test(l));
        return new URL(uris[uris.length - 1]!, playlistUrl).toString();
      };
      await warm({ name: 'media', url: await newestSegment(), headers: {}, pid: platform.pid!, refused: 'rolling' });
      for (let i = 0; i < RUNS; i++) {
        const media: Scenario = { name: 'media_segment', url: await newestSegment(), headers: {}, pid: platform.pid!, refused: 'rolling' };
        await pair(media, yardstickOfJson, runs[i]!, 'media_segment', 'logged_beside_media');
      }
    }
    const loadAfter = loadavg();

    const ratio = (a: string, b: string) => (runs.every((r) => r[a] !== undefined && r[b] !== undefined) ? summary(runs.map((r) => r[a]! / r[b]!)) : undefined);
    const rps = (a: string) => (runs.every((r) => r[a] !== undefined) ? summary(runs.map((r) => r[a]!)) : undefined);
    const table: Record<string, Record<string, number | string>> = {};
    /** One row: requests/s and their ratio to `base` beside it; server CPU µs per request and the base's CPU per request over it. */
    const row = (name: string, what: string, target: number | null, base = 'logged') => {
      const rp = rps(name);
      if (!rp) return;
      const rt = ratio(name, base);
      const cpu = rps(`${name}_cpu_us`);
      const cpuRatio = ratio(`${base}_cpu_us`, `${name}_cpu_us`);
      table[name] = {
        what,
        rps_mean: Math.round(rp.mean),
        rps_min: Math.round(rp.min),
        rps_max: Math.round(rp.max),
        ratio: rt?.mean ?? '',
        ratio_min: rt?.min ?? '',
        ratio_max: rt?.max ?? '',
        target: target ?? '',
        met: target === null || !rt ? '' : rt.min >= target ? 'yes' : rt.mean >= target ? 'mean only' : 'no',
        server_cpu_us_per_req: cpu ? Number(cpu.mean.toFixed(1)) : '',
        cpu_ratio: cpuRatio?.mean ?? '',
        p99_ms: rps(`${name}_p99_ms`)?.mean ?? '',
      };
    };
    row('logged', 'bare Fastify route, default pino request logging to a file (the yardstick)', null);
    row('bare', 'bare Fastify route, logger off', null);
    row('health', 'GET /health', null, 'health__base');
    row('key', 'GET /v2/cameras/{id}, API key', 0.8, 'key__base');
    row('jwt', 'GET /v2/cameras/{id}, JWT', 0.8, 'jwt__base');
    row('refused_key', 'same, key without the scope (403)', null, 'refused_key__base');
    row('logged_beside_media', 'the yardstick, beside the segment reads', null, 'logged_beside_media');
    row('media_segment', 'live HLS segment, media token (to the yardstick beside it)', null, 'logged_beside_media');
    row('jpeg_static', '@fastify/static, same file', null, 'jpeg_static');
    row('jpeg_api', `stored JPEG (${jpeg?.bytes ?? 0} B), API key (to @fastify/static)`, 0.8, 'jpeg_static');

    const logLines = lines(logFile);
    const info = {
      machine: machine(),
      database: env.DATABASE_URL ? 'postgres' : 'sqlite',
      log_level: env.OVERLOOK_LOG_LEVEL ?? 'default (info)',
      wrk: `1 thread, ${CONNECTIONS} connections, ${SECONDS} s, ${WARMUP_SECONDS} s warm-up, ${RUNS} runs`,
      cpus: PIN ? `servers on CPU ${SERVER_CPU}, wrk on CPU ${WRK_CPU}` : 'not pinned',
      load_average_before: loadBefore.map((n) => n.toFixed(2)).join(' '),
      load_average_after: loadAfter.map((n) => n.toFixed(2)).join(' '),
      // One line per request is the logging's promise: counted from the platform's log file.
      log_lines_per_request: r3(logLines / Math.max(1, platformRequests)),
      logged_to_bare: ratio('logged', 'bare')?.mean ?? '',
    };
    console.log(
      "\nThe request path against a bare Fastify route with Fastify's default request logging. ratio: requests/s over the yardstick's loaded at the same time, mean of the runs (min/max: the noise); cpu_ratio: the yardstick's server CPU per request over this one's (steadier on a busy machine); p99_ms: wrk's 99th percentile latency",
    );
    console.table(info);
    console.table(table);
    console.log(JSON.stringify({ bench: 'request-path', ...info, runs, table }));
  } finally {
    await Promise.all(children.map(stopChild));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
