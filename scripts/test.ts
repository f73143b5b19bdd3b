// `npm test`: the whole suite, with the checks beside it taking only idle CPU (CONTRIBUTING.md, Test).
// The suite keeps the cores busy most of the time but leaves some idle, above all in its last layer,
// which mostly waits on timers and child processes: the checks take that time instead of a minute of
// their own before the suite starts. Their outputs are printed after the suite's, and the run fails
// when the suite or any check fails. Arguments are passed to `vitest run`.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CHECKS, runChecks } from './run-checks.js';

const vitestBin = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');

const checks = runChecks(CHECKS, { idle: true });
const suite = new Promise<number>((resolve) => {
  const child = spawn(process.execPath, [vitestBin, 'run', ...process.argv.slice(2)], { stdio: 'inherit' });
  child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
});

const suiteCode = await suite;
const results = await checks;
for (const r of results) process.stdout.write(r.report);
const failed = results.filter((r) => !r.ok).map((r) => r.script);
process.stdout.write(failed.length > 0 ? `\nchecks failed: ${failed.join(', ')}\n` : `\nchecks: ${results.length} passed\n`);
process.exit(suiteCode !== 0 || failed.length > 0 ? 1 : 0);
