// A real cluster (docs/deploy.md, Running N nodes): `overlook serve` processes of the CLI on one
// throw-away PostgreSQL database, each with its own data dir and port and the same DATABASE_URL and
// OVERLOOK_SECRET_KEY, optionally behind HAProxy. Used by test/platform/cluster/cli-cluster.test.ts and
// bench/cluster.ts. Every process started here is killed by `close()`, and with SIGKILL when the calling
// process exits, so a failed run leaves nothing behind.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/** The CLI as built (`npm run build`; the default), or as source through tsx. */
type CliBuild = 'source' | 'dist';
const cliArgs = (build: CliBuild) => (build === 'dist' ? [join(ROOT, 'dist', 'cli.js')] : ['--import', 'tsx', join(ROOT, 'src', 'cli.ts')]);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Every child still running when this process exits is killed.
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

function track(proc: ChildProcess): ChildProcess {
  children.add(proc);
  proc.once('exit', () => children.delete(proc));
  return proc;
}

/** Kills `proc` (SIGTERM, then SIGKILL after `graceMs`) and resolves once it has exited. */
async function stop(proc: ChildProcess, graceMs = 3000): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** A free loopback port (free when asked; the caller binds it right away). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

/** Seconds of CPU (user + system, all threads) `pid` has used so far, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name: state is field 3, utime field 14, stime field 15; clock ticks of 1/100 s on Linux.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export { createScratchDatabase, type ScratchDatabase } from './db.js';

export interface CliNode {
  /** 1-based, as the node is named in HAProxy's config (`n1`, `n2`…). */
  index: number;
  url: string;
  port: number;
  pid: number;
  dataDir: string;
  /** The node id it logs at start (docs/deploy.md, Background work), once logged. */
  workNodeId(): string | undefined;
  output(): string;
  /** `kill -9`: nothing released, nothing flushed. */
  kill(): Promise<void>;
  /** Clean shutdown (SIGTERM; SIGKILL after 3 s). */
  stop(): Promise<void>;
  /** SIGTERM and the exit code, with no SIGKILL however long the node drains. */
  terminate(): Promise<number | null>;
  alive(): boolean;
}

export interface ClusterOptions {
  /** The throw-away database's URL (every node's DATABASE_URL). */
  databaseUrl: string;
  nodes: number;
  build?: CliBuild;
  /** More variables for every node (OVERLOOK_WORK_LEASE_SECONDS…). */
  env?: Record<string, string>;
  /** OVERLOOK_LOG_LEVEL of the nodes; `info` (the default here) logs each node's work id. */
  logLevel?: string;
  /** How long a node may take to listen (default 60 s). */
  startTimeoutMs?: number;
}

export interface CliCluster {
  databaseUrl: string;
  secretKey: string;
  nodes: CliNode[];
  /**
   * Starts node `index` (1-based) again on its port and data dir, after it has exited, and puts the new
   * process in its place in `nodes`; resolves once it listens.
   */
  start(index: number): Promise<CliNode>;
  close(): Promise<void>;
}

async function startNode(index: number, build: CliBuild, env: NodeJS.ProcessEnv, root: string, port = 0, timeoutMs = 60_000): Promise<CliNode> {
  const dataDir = join(root, `node${index}`);
  const proc = track(
    spawn(process.execPath, [...cliArgs(build), 'serve', '--host', '127.0.0.1', '--port', String(port), '--data-dir', dataDir], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`node ${index} did not start within ${timeoutMs / 1000} s:\n${out.slice(-2000)}`));
    }, timeoutMs);
    const look = () => {
      const m = /main API listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    proc.stdout!.on('data', look);
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`node ${index} exited (${code ?? signal}) before listening:\n${out.slice(-2000)}`));
    });
  });
  return {
    index,
    url,
    port: Number(new URL(url).port),
    pid: proc.pid!,
    dataDir,
    workNodeId: () => /"node":"([^"]+)"[^\n]*background work: node started/.exec(out)?.[1],
    output: () => out,
    alive: () => proc.exitCode === null && proc.signalCode === null,
    async kill() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise<void>((r) => proc.once('exit', () => r()));
      proc.kill('SIGKILL');
      await exited;
    },
    stop: () => stop(proc),
    terminate: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve(proc.exitCode);
        proc.once('exit', (code) => resolve(code));
        proc.kill('SIGTERM');
      }),
  };
}

/**
 * Starts `nodes` processes at once on `databaseUrl` (which may be empty: they migrate it concurrently
 * and the first makes the shared keys) with one fresh OVERLOOK_SECRET_KEY; resolves when all listen.
 */
export async function startCluster(opts: ClusterOptions): Promise<CliCluster> {
  const root = mkdtempSync(join(tmpdir(), 'overlook-cluster-'));
  const secretKey = randomBytes(32).toString('base64');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: opts.databaseUrl,
    OVERLOOK_SECRET_KEY: secretKey,
    OVERLOOK_LOG_LEVEL: opts.logLevel ?? 'info',
    ...opts.env,
  };
  const started = await Promise.allSettled(
    Array.from({ length: opts.nodes }, (_, i) => startNode(i + 1, opts.build ?? 'dist', env, root, 0, opts.startTimeoutMs)),
  );
  const nodes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const close = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    rmSync(root, { recursive: true, force: true });
  };
  // A node that failed to start has exited, or was killed when its time ran out.
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await close();
    throw (failed as PromiseRejectedResult).reason;
  }
  const start = async (index: number) => {
    const old = nodes[index - 1]!;
    if (old.alive()) throw new Error(`node ${index} still runs`);
    const node = await startNode(index, opts.build ?? 'dist', env, root, old.port, opts.startTimeoutMs);
    nodes[index - 1] = node;
    return node;
  };
  return { databaseUrl: opts.databaseUrl, secretKey, nodes, start, close };
}

/** HAProxy from the system's packages (`apt-get install haproxy`, scripts/setup), or undefined. */
export function haproxyBinary(): string | undefined {
  if (existsSync('/usr/sbin/haproxy')) return '/usr/sbin/haproxy';
  return (process.env.PATH ?? '')
    .split(delimiter)
    .map((d) => join(d, 'haproxy'))
    .find((f) => existsSync(f));
}

export interface Balancer {
  url: string;
  pid: number;
  /** Each server's state as HAProxy's statistics give it (`UP`, `DOWN`, `UP 1/2`…), by name (`n1`…). */
  serverStates(): Promise<Record<string, string>>;
  /** HAProxy's statistics of the backend, by server name and `BACKEND`, then by column (`wretr`, `hrsp_5xx`…). */
  backendStats(): Promise<Record<string, Record<string, string>>>;
  close(): Promise<void>;
}

/**
 * HAProxy on a loopback port in front of `nodes`: round-robin, `option httpchk GET /ready` every
 * 300 ms (down after 2 failed checks), short timeouts; a failed connection, and a read that got no
 * answer (its node died) or a 503 (its node is closing), are retried on another node (docs/deploy.md, Behind a load balancer).
 * Resolves once every node is checked up.
 */
export async function startBalancer(nodes: Pick<CliNode, 'index' | 'port'>[], opts: { checkTimeoutMs?: number } = {}): Promise<Balancer> {
  const bin = haproxyBinary();
  if (!bin) throw new Error('HAProxy is not installed: apt-get install haproxy (scripts/setup installs it)');
  const [port, statsPort] = [await freePort(), await freePort()];
  const dir = mkdtempSync(join(tmpdir(), 'overlook-haproxy-'));
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(
    config,
    [
      'global',
      '  maxconn 4096',
      'defaults',
      '  mode http',
      '  timeout connect 1s',
      '  timeout client 10s',
      '  timeout server 10s',
      `  timeout check ${opts.checkTimeoutMs ?? 1000}ms`,
      '  retries 2',
      '  option redispatch 1',
      '  retry-on conn-failure empty-response 503',
      'frontend api',
      `  bind 127.0.0.1:${port}`,
      '  default_backend nodes',
      'backend nodes',
      '  balance roundrobin',
      '  http-request disable-l7-retry unless METH_GET',
      '  option httpchk GET /ready',
      '  http-check expect status 200',
      '  default-server inter 300ms fall 2 rise 2',
      ...nodes.map((n) => `  server n${n.index} 127.0.0.1:${n.port} check`),
      'frontend stats',
      `  bind 127.0.0.1:${statsPort}`,
      '  stats enable',
      '  stats uri /stats',
      '',
    ].join('\n'),
  );
  const proc = track(spawn(bin, ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] }));
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const close = async () => {
    await stop(proc);
    rmSync(dir, { recursive: true, force: true });
  };
  const backendStats = async () => {
    const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text();
    const [header, ...rows] = csv.trim().split('\n');
    const cols = header!.replace(/^# /, '').split(',');
    const stats: Record<string, Record<string, string>> = {};
    for (const row of rows) {
      const f = row.split(',');
      const named = Object.fromEntries(cols.map((c, i) => [c, f[i] ?? '']));
      if (named.pxname === 'nodes') stats[named.svname!] = named;
    }
    return stats;
  };
  const serverStates = async () =>
    Object.fromEntries(
      Object.entries(await backendStats())
        .filter(([name]) => name !== 'BACKEND')
        .map(([name, row]) => [name, row.status!]),
    );
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (proc.exitCode !== null) {
      await close();
      throw new Error(`haproxy exited (${proc.exitCode}):\n${out}`);
    }
    const states = await serverStates().catch(() => ({}) as Record<string, string>);
    if (Object.keys(states).length === nodes.length && Object.values(states).every((s) => s === 'UP')) break;
    if (Date.now() > deadline) {
      await close();
      throw new Error(`haproxy: not every node up within 15 s: ${JSON.stringify(states)}\n${out}`);
    }
    await sleep(100);
  }
  return { url: `http://127.0.0.1:${port}`, pid: proc.pid!, serverStates, backendStats, close };
}
