// `npm run bench`: every benchmark, one after the other, each printing a table and a JSON line.
// `npm run bench -- request-path cameras`: only those (file names without `.ts`).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const here = import.meta.dirname;
const all = [
  'platform.ts',
  'request-path.ts',
  'side-by-side.ts',
  'recorder.ts',
  'recorder-live.ts',
  'cameras.ts',
  'recording-loop.ts',
  'picture-checks.ts',
  'cluster.ts',
  'plates.ts',
  'site-link.ts',
  'backup.ts',
];
const asked = process.argv.slice(2).map((a) => (a.endsWith('.ts') ? a : `${a}.ts`));
const unknown = asked.filter((f) => !all.includes(f));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${all.map((f) => f.replace(/\.ts$/, '')).join(', ')}`);
  process.exit(2);
}
const suites = (asked.length > 0 ? asked : all).filter((f) => existsSync(join(here, f)));
let failed = 0;
for (const file of suites) {
  console.log(`\n== bench/${file}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(here, file)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
