// Main API benchmark: requests per second of GET /v2/cameras/{camera_exid} with an API key, with a key
// that carries its own limits (a rate limit it never reaches and an address allow-list: one counter-store
// call per request) and with a JWT, each as a ratio to GET /health on the same server in the same run
// (autocannon, 32 connections).
// The server runs in its own process (the built CLI), so the load generator does not share its event loop.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const ROOT = join(import.meta.dirname, '..');
/** BENCH_CLI: another build of the CLI (e.g. one made outside dist/). */
const CLI = process.env.BENCH_CLI ?? join(ROOT, 'dist', 'cli.js');
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;

function run(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`overlook ${args.join(' ')} exited ${code}`))));
  });
}

function startServer(env: NodeJS.ProcessEnv, port: number): Promise<{ proc: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [CLI, 'serve', '--port', String(port)], {
      env: { ...env, OVERLOOK_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    proc.stdout!.on('data', (d: Buffer) => {
      const m = /listening on (http:\/\/\S+)/.exec(d.toString());
      if (m) resolve({ proc, url: m[1]! });
    });
    proc.on('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function json(url: string, init: RequestInit & { body?: string } = {}): Promise<any> {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(init.headers ?? {}) } });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function measure(url: string, headers: Record<string, string>, duration = DURATION): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration, headers, pipelining: 1 });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

export async function benchPlatform(): Promise<Record<string, number | string>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'overlook-bench-'));
  const env = { ...process.env, OVERLOOK_DATA_DIR: dataDir, DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '' };
  const email = 'bench@example.com';
  const password = 'bench-password-1';
  await run(['users', 'create', '--email', email, '--password', password], env);
  const port = 3900 + Math.floor(Math.random() * 50);
  const { proc, url } = await startServer(env, port);
  try {
    const { token } = await json(`${url}/v2/auth/login`, { method: 'POST', body: JSON.stringify({ username: email, password }) });
    const auth = { authorization: `Bearer ${token}` };
    const project = await json(`${url}/v2/projects`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Bench site' }) });
    const camera = await json(`${url}/v2/cameras`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'Bench cam', project_exid: project.exid, simulated: true }),
    });
    const key = await json(`${url}/v2/api-keys`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'bench', expires_at: new Date(Date.now() + 86_400_000).toISOString(), projects: [project.exid], scopes: ['cameras:read'] }),
    });
    // The same key with limits of its own: counted on every request, never refused during the run.
    const limited = await json(`${url}/v2/api-keys`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        name: 'bench limited',
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
        projects: [project.exid],
        scopes: ['cameras:read'],
        rate_limit: { requests: 1_000_000, window_seconds: 86_400 },
        allowed_ips: ['127.0.0.0/8', '::1/128'],
      }),
    });
    const cameraUrl = `${url}/v2/cameras/${camera.exid}`;
    // Warm every path up first (JIT, caches), then measure each twice in alternating order.
    const keyHeaders = { 'x-access-key': key.key };
    const limitedHeaders = { 'x-access-key': limited.key };
    for (const [u, h] of [
      [`${url}/health`, {}],
      [cameraUrl, keyHeaders],
      [cameraUrl, limitedHeaders],
      [cameraUrl, auth],
    ] as const)
      await measure(u, h, 3);
    const rounds: { health: number; key: number; limited: number; jwt: number }[] = [];
    for (let i = 0; i < 2; i++) {
      const health = await measure(`${url}/health`, {});
      const order = i === 0 ? (['key', 'limited', 'jwt'] as const) : (['jwt', 'limited', 'key'] as const);
      const headers = { key: keyHeaders, limited: limitedHeaders, jwt: auth };
      const got = { health, key: 0, limited: 0, jwt: 0 };
      for (const which of order) got[which] = await measure(cameraUrl, headers[which]);
      rounds.push(got);
    }
    const avg = (f: (r: (typeof rounds)[number]) => number) => rounds.reduce((a, r) => a + f(r), 0) / rounds.length;
    const healthAvg = avg((r) => r.health);
    const withKey = avg((r) => r.key);
    const withJwt = avg((r) => r.jwt);
    const withLimitedKey = avg((r) => r.limited);
    return {
      machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}`,
      database: env.DATABASE_URL ? 'postgres' : 'sqlite',
      duration_s: DURATION,
      connections: CONNECTIONS,
      health_rps: Math.round(healthAvg),
      camera_api_key_rps: Math.round(withKey),
      camera_limited_key_rps: Math.round(withLimitedKey),
      camera_jwt_rps: Math.round(withJwt),
      api_key_ratio: Number((withKey / healthAvg).toFixed(3)),
      limited_api_key_ratio: Number((withLimitedKey / healthAvg).toFixed(3)),
      jwt_ratio: Number((withJwt / healthAvg).toFixed(3)),
    };
  } finally {
    proc.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchPlatform();
  console.table(r);
  console.log(JSON.stringify({ bench: 'platform', ...r }));
}
