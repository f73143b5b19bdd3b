// How `overlook` starts (src/cli.ts): a command loads what it runs only when it runs, and Node's compile
// cache keeps the compiled modules for the next start.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as nodeModule from 'node:module';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT, tempDir } from '../helpers/cli.js';

/** Prints on stderr, at exit, every module URL the process loaded (module.registerHooks, Node 22.15+). */
const LOADS_HOOK = `data:text/javascript,${encodeURIComponent(`
import { registerHooks } from 'node:module';
const urls = [];
registerHooks({ load(url, context, next) { urls.push(url); return next(url, context); } });
process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify(urls) + '\\n'));
`)}`;

/** Runs `overlook …` to its end; `env` adds to this process's environment, `undefined` removes a name. */
function run(args: string[], env: Record<string, string | undefined> = {}, node: string[] = []) {
  const res = spawnSync(process.execPath, [...node, ...CLI, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
  expect(res.status, res.stderr).toBe(0);
  return res;
}

describe('overlook start-up', () => {
  it.skipIf(!('registerHooks' in nodeModule))('--help loads neither the database layer nor the storage and backup code', () => {
    const { stderr } = run(['--help'], {}, ['--import', LOADS_HOOK]);
    const loaded = JSON.parse(/LOADED (.*)/.exec(stderr)![1]!) as string[];
    expect(loaded.some((u) => u.endsWith('/cli/program.js'))).toBe(true);
    for (const heavy of ['/node_modules/kysely/', '/node_modules/better-sqlite3/', '/node_modules/pg/', '/node_modules/@aws-sdk/', '/platform/backup/']) {
      expect(loaded.filter((u) => u.includes(heavy))).toEqual([]);
    }
  });

  it('fills Node’s compile cache (under the temp dir when NODE_COMPILE_CACHE is unset) and starts again from it', () => {
    const tmp = tempDir('overlook-compile-cache-');
    const env = { TMPDIR: tmp, NODE_COMPILE_CACHE: undefined, NODE_DISABLE_COMPILE_CACHE: undefined };
    const first = run(['--version'], env);
    expect(readdirSync(join(tmp, 'node-compile-cache'), { recursive: true }).length).toBeGreaterThan(1);
    expect(run(['--version'], env).stdout).toBe(first.stdout);
  });
});
