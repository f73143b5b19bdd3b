// `npm run bench`: every benchmark, one after the other, each printing a table and a JSON line.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const here = import.meta.dirname;
const suites = ['platform.ts', 'recorder.ts', 'recorder-live.ts', 'cameras.ts', 'recording-loop.ts', 'cluster.ts'].filter((f) => existsSync(join(here, f)));
let failed = 0;
for (const file of suites) {
  console.log(`\n== bench/${file}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(here, file)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
