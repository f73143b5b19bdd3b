// README.md's walk-through runs as written: its shell blocks (between `<!-- walkthrough -->` and
// `<!-- /walkthrough -->`) are run in order, in one bash with `set -e -o pipefail`, against a fresh
// `overlook up` on free ports and a temp data dir. The README's own `API` variable points them at it;
// `npx overlook` runs the current source (not a stale build).
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/cli-cluster.js';
import { CLI, ROOT, SLOW, type Served, serve, tempDir } from '../helpers/cli.js';

/** The shell blocks inside the README's walk-through markers, in order. */
function walkthroughBlocks(readme: string): string[] {
  const blocks: string[] = [];
  for (const part of readme.matchAll(/<!-- walkthrough -->([\s\S]*?)<!-- \/walkthrough -->/g)) {
    for (const block of part[1]!.matchAll(/```sh\n([\s\S]*?)```/g)) blocks.push(block[1]!);
  }
  return blocks;
}

let dir: string;
let up: Served | undefined;
let url: string;

beforeAll(async () => {
  dir = tempDir('overlook-readme-');
  const [api, mcp, ai, labs] = [await freePort(), await freePort(), await freePort(), await freePort()];
  up = await serve(['up', '--port', String(api)], {
    ready: /main API\s+(http:\/\/\S+)[\s\S]*Labs API/,
    timeoutMs: SLOW,
    env: {
      OVERLOOK_DATA_DIR: join(dir, 'data'),
      OVERLOOK_LOG_LEVEL: 'warn',
      OVERLOOK_MCP_PORT: String(mcp),
      OVERLOOK_AI_PORT: String(ai),
      OVERLOOK_LABS_PORT: String(labs),
    },
  });
  url = up.url;
}, SLOW);

afterAll(async () => {
  await up?.stop();
});

describe('README.md walk-through', () => {
  it(
    'runs as written against `overlook up`: every step exits 0 and the answers are the ones shown',
    async () => {
      const blocks = walkthroughBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));
      expect(blocks.length).toBeGreaterThanOrEqual(2);
      // `npx overlook …` as the README says, on the current build.
      const bin = join(dir, 'bin');
      rmSync(bin, { recursive: true, force: true });
      mkdirSync(bin);
      writeFileSync(
        join(bin, 'npx'),
        `#!/usr/bin/env bash\nif [ "$1" = overlook ]; then shift; exec ${JSON.stringify(process.execPath)} ${CLI.map((a) => JSON.stringify(a)).join(' ')} "$@"; fi\necho "npx $1: not expected in the walk-through" >&2; exit 127\n`,
      );
      chmodSync(join(bin, 'npx'), 0o755);
      const script = ['set -e -o pipefail', ...blocks.flatMap((b, i) => [b, `echo "::step ${i + 1} ok"`])].join('\n');
      const run = spawn('bash', ['-c', script], {
        cwd: ROOT, // the repository folder, as the README says; its data folder is the temp one (OVERLOOK_DATA_DIR)
        env: {
          ...process.env,
          PATH: `${bin}:${process.env.PATH}`,
          API: url,
          DATABASE_URL: '',
          OVERLOOK_DATA_DIR: join(dir, 'data'),
          OVERLOOK_LOG_LEVEL: 'warn',
        },
      });
      let log = '';
      run.stdout.on('data', (d) => (log += d));
      run.stderr.on('data', (d) => (log += d));
      const code = await new Promise<number | null>((r) => run.once('exit', r));
      expect(code, log).toBe(0);
      for (let i = 1; i <= blocks.length; i++) expect(log).toContain(`::step ${i} ok`);
      // The person was made, the key read its camera, was refused elsewhere, and the explainer says why.
      expect(log).toContain('"email":"ada@example.com"');
      expect(log).toMatch(/"name":"North gate"/);
      expect(log).toMatch(/HTTP\/1\.1 403 Forbidden/);
      expect(log).toContain('error="insufficient_scope", scope="project:settings"');
      expect(log).toMatch(/^INSUFFICIENT_SCOPE$/m);
      expect(log).toContain('step:');
    },
    SLOW,
  );
});
