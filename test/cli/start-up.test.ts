// How `overlook` starts (src/cli.ts): a command loads what it runs only when it runs, and Node's compile
// cache keeps the compiled modules for the next start.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
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

function run(args: string[], env: Record<string, string> = {}, node: string[] = []) {
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

  it('fills the compile cache NODE_COMPILE_CACHE names, and starts again from it', () => {
    const cache = tempDir('overlook-compile-cache-');
    const first = run(['--version'], { NODE_COMPILE_CACHE: cache });
    expect(readdirSync(cache, { recursive: true }).length).toBeGreaterThan(1);
    expect(run(['--version'], { NODE_COMPILE_CACHE: cache }).stdout).toBe(first.stdout);
  });
});
