// The full collection after startup lets V8 share hidden classes again (docs/benchmarks.md, "Hidden
// classes after startup"). Checked in a child process that may ask V8 whether two objects share one
// (`--allow-natives-syntax`): first the empty object's shapes are used up by short-lived objects, as
// compiling the routes' schemas does, then collectStartupGarbage must make them shareable again.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runNativesProbe } from '../../helpers/natives-probe.js';

const MODULE = pathToFileURL(join(import.meta.dirname, '../../../src/lib/process/collect-startup-garbage.ts')).href;

/** Runs `body` in a child with natives syntax; `shared(key)` says whether two `{}` given `key` share a hidden class. */
const child = (body: string): string =>
  runNativesProbe(
    `const { collectStartupGarbage } = await import(${JSON.stringify(MODULE)});
const shared = (k) => { const a = {}; a[k] = 1; const b = {}; b[k] = 2; return %HaveSameMap(a, b); };
// What schema compilation does: many objects, each with a first property name of its own, soon dead.
const useUpShapes = () => { for (let i = 0; i < 3000; i++) { const o = {}; o['__fjs_root_' + i] = i; } };`,
    body,
  );

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
