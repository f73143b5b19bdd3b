// The checks and the build side by side (CONTRIBUTING.md, Test), each output printed whole as it
// ends; the run fails when any fails.
import { CHECKS, runChecks } from './run-checks.js';

const results = await runChecks([...CHECKS, 'build'], { onEnd: (r) => process.stdout.write(r.report) });
const failed = results.filter((r) => !r.ok).map((r) => r.script);
if (failed.length > 0) {
  process.stdout.write(`\nchecks failed: ${failed.join(', ')}\n`);
  process.exit(1);
}
