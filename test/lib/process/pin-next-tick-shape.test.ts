// The nextTick record's hidden class survives full collections once pinned (docs/benchmarks.md, "The
// nextTick record's shape"). Checked in a child process that may ask V8 whether two objects share a hidden
// class (`--allow-natives-syntax`); records are caught with an async hook, as the module itself does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runNativesProbe } from '../../helpers/natives-probe.js';

const SRC = join(import.meta.dirname, '../../../src');
const MODULE = pathToFileURL(join(SRC, 'lib/process/pin-next-tick-shape.ts')).href;
const GC = pathToFileURL(join(SRC, 'lib/process/collect-startup-garbage.ts')).href;

const child = (body: string): string =>
  runNativesProbe(
    `import { createHook } from 'node:async_hooks';
const { pinnedNextTickRecord, pinNextTickShape } = await import(${JSON.stringify(MODULE)});
const { collectStartupGarbage } = await import(${JSON.stringify(GC)});
/** A record nextTick makes now. */
const freshRecord = () => { let r; const h = createHook({ init(_i, type, _t, res) { if (type === 'TickObject') r ??= res; } }); h.enable(); process.nextTick(() => {}); h.disable(); return r; };`,
    body,
  );

describe('pinNextTickShape', () => {
  it('keeps records made after full collections in the pinned record’s hidden class', () => {
    const got = child(`
// Let every record of startup die, use up the empty object's shapes as schema compilation does, collect.
await new Promise((r) => setTimeout(r, 10));
for (let i = 0; i < 3000; i++) { const o = {}; o['__fjs_root_' + i] = i; }
collectStartupGarbage();
await new Promise((r) => setTimeout(r, 10));
collectStartupGarbage();
const pinned = pinnedNextTickRecord();
out.push(pinned !== undefined, %HaveSameMap(pinned, freshRecord()));`);
    expect(got).toBe('[true,true]');
  });

  it('keeps one record, and no hook, however often it is called', () => {
    const got = child(`
const first = pinnedNextTickRecord();
pinNextTickShape();
pinNextTickShape();
out.push(pinnedNextTickRecord() === first);
// Nothing listens any more: a nextTick now is not caught by the module.
process.nextTick(() => {});
out.push(pinnedNextTickRecord() === first);`);
    expect(got).toBe('[true,true]');
  });

  it('is the first module the overlook command loads', () => {
    const firstImport = readFileSync(join(SRC, 'cli.ts'), 'utf8')
      .split('\n')
      .find((l) => l.startsWith('import '));
    expect(firstImport).toBe("import './lib/process/pin-next-tick-shape.js';");
  });
});
