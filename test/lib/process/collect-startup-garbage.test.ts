// The full collection after startup lets V8 share hidden classes again (docs/benchmarks.md, "Hidden
// classes after startup"). Checked in a child process that may ask V8 whether two objects share one
// (`--allow-natives-syntax`): first the empty object's shapes are used up by short-lived objects, as
// compiling the routes' schemas does, then collectStartupGarbage must make them shareable again.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const MODULE = pathToFileURL(join(import.meta.dirname, '../../../src/lib/process/collect-startup-garbage.ts')).href;
const dir = mkdtempSync(join(tmpdir(), 'overlook-gc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `body` in a child with natives syntax; `shared(key)` says whether two `{}` given `key` share a hidden class. */
function child(body: string): string {
  const file = join(dir, `probe-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    file,
    `const { collectStartupGarbage } = await import(${JSON.stringify(MODULE)});
const shared = (k) => { const a = {}; a[k] = 1; const b = {}; b[k] = 2; return %HaveSameMap(a, b); };
// What schema compilation does: many objects, each with a first property name of its own, soon dead.
const useUpShapes = () => { for (let i = 0; i < 3000; i++) { const o = {}; o['__fjs_root_' + i] = i; } };
const out = [];
${body}
console.log(JSON.stringify(out));`,
  );
  const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}

describe('collectStartupGarbage', () => {
  it('lets objects share hidden classes again once startup garbage has used up the empty object’s shapes', () => {
    const got = child(`
useUpShapes();
out.push(shared('content-length'));
collectStartupGarbage();
out.push(shared('content-length'), shared('reqId'));`);
    // Before: a new hidden class per object; after: shared, for names seen before and new ones.
    expect(got).toBe('[false,true,true]');
  });

  it('leaves no `gc` behind, in the main context or in contexts made later', () => {
    const got = child(`
collectStartupGarbage();
const { runInNewContext } = await import('node:vm');
out.push(typeof globalThis.gc, runInNewContext('typeof gc'));`);
    expect(got).toBe('["undefined","undefined"]');
  });
});
