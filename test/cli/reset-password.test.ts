// `overlook users reset-password` (README.md): a new password set from the command line, the person's
// sessions ended, whether or not the server runs; on PostgreSQL the running nodes stop honouring the
// ended sessions within 1 s (docs/deploy.md, Cache invalidation across nodes).
// Every CLI start costs seconds (it loads the whole platform), so the SQLite cases share one user and one data dir, in order.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startCluster } from '../helpers/cli-cluster.js';
import { createScratchDatabase } from '../helpers/db.js';
import { overlook, overlookAsync, SLOW, serve, tempDir } from '../helpers/cli.js';
import { pgReachable } from '../helpers/pg-reachable.js';

const PG_URL = process.env.OVERLOOK_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function signIn(base: string, email: string, password: string): Promise<{ status: number; token?: string }> {
  const res = await fetch(`${base}/v2/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password }),
  });
  const body = (await res.json()) as { token?: string };
  return { status: res.status, token: body.token };
}

const me = async (base: string, token: string) => (await fetch(`${base}/v2/auth/users/me`, { headers: { authorization: `Bearer ${token}` } })).status;

describe.sequential('overlook users reset-password', () => {
  const dir = tempDir();
  /** A session of ada's that the second case ends while the server is stopped. */
  let used: string | undefined;

  it(
    'sets the new password and ends the sessions, with the server running; refuses an unknown e-mail and a short password',
    async () => {
      expect(overlook(['users', 'create', '--email', 'ada@example.com', '--password', 'old-password-1', '--data-dir', dir]).status).toBe(0);
      const server = await serve(['serve', '--port', '0', '--data-dir', dir], { env: { OVERLOOK_LOG_LEVEL: 'warn' } });
      try {
        const old = await signIn(server.url, 'ada@example.com', 'old-password-1');
        expect(old.status).toBe(200);

        // The two refusals run beside the reset: neither touches the stored password.
        const [reset, unknown, short] = await Promise.all([
          overlookAsync(['users', 'reset-password', '--email', 'Ada@Example.com', '--password', 'new-password-1', '--data-dir', dir]),
          overlookAsync(['users', 'reset-password', '--email', 'nobody@example.com', '--data-dir', dir]),
          overlookAsync(['users', 'reset-password', '--email', 'ada@example.com', '--password', 'short', '--data-dir', dir]),
        ]);
        expect(reset.status, reset.stderr).toBe(0);
        expect(JSON.parse(reset.stdout)).toMatchObject({ email: 'ada@example.com', is_admin: false });
        expect(reset.stderr).toContain('1 session(s) ended');

        expect(await me(server.url, old.token!)).toBe(401);
        expect((await signIn(server.url, 'ada@example.com', 'old-password-1')).status).toBe(401);
        const fresh = await signIn(server.url, 'ada@example.com', 'new-password-1');
        expect(fresh.status).toBe(200);
        expect(await me(server.url, fresh.token!)).toBe(200);
        used = fresh.token;

        expect(unknown.status).not.toBe(0);
        expect(unknown.stderr).toContain('No user has the e-mail nobody@example.com');
        expect(unknown.stdout).toBe('');
        expect(short.status).not.toBe(0);
        expect(short.stderr).toContain('must be 8 to 256 characters');
        // The refused attempt changed nothing.
        expect((await signIn(server.url, 'ada@example.com', 'new-password-1')).status).toBe(200);
      } finally {
        expect(await server.stop()).toBe(0);
      }
    },
    SLOW,
  );

  it(
    'without --password generates one, says it on stderr, and it signs in; a session used before ends (server stopped meanwhile)',
    async () => {
      expect(used, 'the first case left a used session').toBeDefined();
      const reset = overlook(['users', 'reset-password', '--email', 'ada@example.com', '--data-dir', dir]);
      expect(reset.status, reset.stderr).toBe(0);
      const password = /new password for ada@example\.com: (\S+)/.exec(reset.stderr)?.[1];
      expect(password).toBeDefined();
      expect(reset.stdout).not.toContain(password!);

      const server = await serve(['serve', '--port', '0', '--data-dir', dir], { env: { OVERLOOK_LOG_LEVEL: 'warn' } });
      try {
        expect(await me(server.url, used!)).toBe(401);
        expect((await signIn(server.url, 'ada@example.com', password!)).status).toBe(200);
      } finally {
        await server.stop();
      }
    },
    SLOW,
  );
});

describe.runIf(await pgReachable(PG_URL))('overlook users reset-password on PostgreSQL with two running nodes', () => {
  it(
    'both nodes refuse the ended session within 1 s, though each had it cached',
    async () => {
      const scratch = await createScratchDatabase(PG_URL);
      // One secret for the nodes and the CLI runs, so all of them read the shared keys.
      const env = { DATABASE_URL: scratch.url, OVERLOOK_SECRET_KEY: randomBytes(32).toString('base64') };
      const dir = tempDir();
      // The nodes and `users create` start together; they migrate the empty database concurrently.
      const [cluster, created] = await Promise.all([
        startCluster({ databaseUrl: scratch.url, nodes: 2, logLevel: 'warn', env: { OVERLOOK_SECRET_KEY: env.OVERLOOK_SECRET_KEY } }),
        overlookAsync(['users', 'create', '--email', 'cy@example.com', '--password', 'old-password-3', '--data-dir', dir], env),
      ]);
      try {
        expect(created.status, created.stderr).toBe(0);
        const [a, b] = cluster.nodes.map((n) => n.url) as [string, string];
        const old = await signIn(a, 'cy@example.com', 'old-password-3');
        // Each node checks the session once, and keeps it in its cache.
        expect(await me(a, old.token!)).toBe(200);
        expect(await me(b, old.token!)).toBe(200);

        const reset = overlook(['users', 'reset-password', '--email', 'cy@example.com', '--password', 'new-password-3', '--data-dir', dir], env);
        expect(reset.status, reset.stderr).toBe(0);
        const since = Date.now();
        for (const base of [a, b]) {
          for (;;) {
            if ((await me(base, old.token!)) === 401) break;
            if (Date.now() - since > 1000) throw new Error(`${base} still honours the ended session after 1 s`);
            await new Promise((r) => setTimeout(r, 20));
          }
        }
        expect((await signIn(b, 'cy@example.com', 'new-password-3')).status).toBe(200);
      } finally {
        await cluster.close();
        await scratch.drop();
      }
    },
    SLOW,
  );
});
