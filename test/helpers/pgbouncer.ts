// PgBouncer from the system's packages (`apt-get install pgbouncer`, scripts/setup) in transaction mode on
// a free loopback port, in front of the PostgreSQL at `target` (docs/deploy.md, Connections): every
// database name is passed through, `trust` authentication with one user in its userlist, and a small
// server pool so that the clients' transactions share server connections. `close()` stops it.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './cli-cluster.js';
import { eventually } from './eventually.js';

const PGBOUNCER = '/usr/sbin/pgbouncer';
export const pgbouncerInstalled = () => existsSync(PGBOUNCER);

export interface Bouncer {
  /** `target` with its host and port replaced by PgBouncer's. */
  url(direct: string): string;
  output(): string;
  close(): Promise<void>;
}

export async function startPgBouncer(target: string, opts: { serverPoolSize: number }): Promise<Bouncer> {
  const pgUrl = new URL(target);
  const user = decodeURIComponent(pgUrl.username || 'postgres');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'overlook-pgbouncer-'));
  // PgBouncer refuses to run as root: it then runs as `nobody`, which must read its files.
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" ""\n`, { mode: 0o644 });
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${pgUrl.hostname} port=${pgUrl.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${opts.serverPoolSize}`,
      'max_client_conn = 200',
      'server_reset_query =',
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  const asRoot = process.getuid?.() === 0;
  const proc: ChildProcess = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'nobody'] : []), join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const url = (direct: string) => {
    const u = new URL(direct);
    u.hostname = '127.0.0.1';
    u.port = String(port);
    return u.toString();
  };
  const close = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGINT');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await eventually(
      async () => {
        if (proc.exitCode !== null) throw new Error(`pgbouncer exited (${proc.exitCode}):\n${out}`);
        const c = new pg.Client({ connectionString: url(target), connectionTimeoutMillis: 1000 });
        try {
          await c.connect();
          await c.query('select 1');
          return true;
        } catch {
          return false;
        } finally {
          await c.end().catch(() => {});
        }
      },
      'pgbouncer answering',
      15_000,
      100,
    );
  } catch (err) {
    await close();
    throw err;
  }
  return { url, output: () => out, close };
}
