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
async function upOnce(attempt = 1): Promise<{ url: string; out: string }> {
  try {
    return await upOn([await freePort(), await freePort(), await freePort(), await freePort()]);
  } catch (err) {
    if (attempt < 3 && String(err).includes('EADDRINUSE')) return upOnce(attempt + 1);
    throw err;
  }
}

async function upOn([api, mcp, ai, labs]: number[]): Promise<{ url: string; out: string }> {
  const up = await serve(['up', '--port', String(api), '--data-dir', dir], {
    ready: /Labs API/,
    timeoutMs: SLOW,
    env: { OVERLOOK_LOG_LEVEL: 'warn', OVERLOOK_MCP_PORT: String(mcp), OVERLOOK_AI_PORT: String(ai), OVERLOOK_LABS_PORT: String(labs) },
  });
  await up.stop();
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
});
