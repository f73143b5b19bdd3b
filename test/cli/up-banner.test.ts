// What `overlook up` prints (README.md, Start it): the web app, the key page and the API reference by full
// URL, the demo sign-in once, kept in an owner-only file, and on later starts where to find it; and no
// oidc-provider runtime warning (it warns on a Node.js older than the project supports).
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../helpers/cli-cluster.js';
import { SLOW, serve, tempDir } from '../helpers/cli.js';

const dir = tempDir('overlook-up-');

/**
 * Starts `overlook up`, waits for its banner, stops it; resolves with what it printed. A port found free
 * can be taken by another test process before `up` binds it: then it is tried again on new ports.
 */
type WhileUp = (url: string, ports: { mcp: number; ai: number; labs: number }) => Promise<void>;

async function upOnce(whileUp?: WhileUp, env: Record<string, string> = {}, attempt = 1): Promise<{ url: string; out: string }> {
  try {
    return await upOn([await freePort(), await freePort(), await freePort(), await freePort()], whileUp, env);
  } catch (err) {
    if (attempt < 3 && String(err).includes('EADDRINUSE')) return upOnce(whileUp, env, attempt + 1);
    throw err;
  }
}

async function upOn([api, mcp, ai, labs]: number[], whileUp: WhileUp | undefined, env: Record<string, string>): Promise<{ url: string; out: string }> {
  const up = await serve(['up', '--port', String(api), '--data-dir', dir], {
    ready: /Labs API/,
    timeoutMs: SLOW,
    env: { OVERLOOK_LOG_LEVEL: 'warn', OVERLOOK_MCP_PORT: String(mcp), OVERLOOK_AI_PORT: String(ai), OVERLOOK_LABS_PORT: String(labs), ...env },
  });
  try {
    await whileUp?.(`http://127.0.0.1:${api}`, { mcp: mcp!, ai: ai!, labs: labs! });
  } finally {
    await up.stop();
  }
  return { url: `http://127.0.0.1:${api}`, out: up.output() };
}

describe('overlook up banner', () => {
  it(
    'names the web app at /, /keys and /docs, keeps the demo sign-in in <data dir>/demo-credentials.txt (0600), and points to it later',
    async () => {
      const file = join(dir, 'demo-credentials.txt');
      const first = await upOnce();
      expect(first.out).toContain(`web app   ${first.url}/  (sign in with the demo credentials)`);
      expect(first.out).toContain(`${first.url}/keys`);
      expect(first.out).toContain(`${first.url}/docs`);
      expect(first.out).not.toContain('Unsupported runtime');
      const [, email, password] = /sign in as (\S+) \/ (\S+)/.exec(first.out)!;
      expect(first.out).toContain(`kept in ${file}`);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const kept = readFileSync(file, 'utf8');
      expect(kept).toContain(email!);
      expect(kept).toContain(password!);

      const second = await upOnce();
      expect(second.out).toContain(`demo sign-in: see ${file} (or: overlook users reset-password --email ${email}`);
      expect(second.out).not.toContain(password!);
      expect(second.out).toContain(`${second.url}/keys`);
    },
    SLOW,
  );

  it(
    "counts the MCP, AI and Labs ports as the platform's own: a camera URL there is refused even inside an opted-in network",
    async () => {
      await upOnce(
        async (url, ports) => {
          const kept = readFileSync(join(dir, 'demo-credentials.txt'), 'utf8');
          const email = /e-mail:\s+(\S+)/.exec(kept)?.[1];
          const password = /password:\s+(\S+)/.exec(kept)?.[1];
          const login = await fetch(`${url}/v2/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username: email, password }),
          });
          const { token } = (await login.json()) as { token: string };
          const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
          const project = ((await (await fetch(`${url}/v2/projects`, { headers: auth })).json()) as { exid: string }[])[0]!.exid;
          for (const port of [ports.mcp, ports.ai, ports.labs]) {
            const res = await fetch(`${url}/v2/cameras`, {
              method: 'POST',
              headers: auth,
              body: JSON.stringify({ name: 'Probe', project_exid: project, snapshot_url: `http://127.0.0.1:${port}/health` }),
            });
            expect(res.status, `port ${port}`).toBe(400);
            expect(((await res.json()) as { message: string }).message).toBe('snapshot_url: refused by policy');
          }
        },
        { OVERLOOK_ALLOWED_NETWORKS: '127.0.0.0/8' },
      );
    },
    SLOW,
  );
});
