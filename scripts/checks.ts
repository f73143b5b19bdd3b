// The checks `npm test` runs before the suite, side by side (CONTRIBUTING.md, Test): each is mostly
// one process on one core, so together they take about as long as the longest. Each one's output is
// printed whole when it ends; the run fails when any fails. `npm run build` goes with them, so the
// slow tests find dist/ fresh (test/helpers/built-cli.ts) instead of building it first.
import { spawn } from 'node:child_process';

const SCRIPTS = ['typecheck', 'lint', 'lint:deps', 'lint:unused', 'lint:openapi', 'build'];

function run(script: string): Promise<boolean> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => out.push(b));
    child.on('error', (err) => out.push(Buffer.from(`${err}\n`)));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const text = Buffer.concat(out).toString().trimEnd();
      process.stdout.write(`\n── ${script}: ${code === 0 ? 'ok' : `failed (exit ${code})`} in ${seconds} s\n${text ? `${text}\n` : ''}`);
      resolve(code === 0);
    });
  });
}

const results = await Promise.all(SCRIPTS.map(run));
const failed = SCRIPTS.filter((_, i) => !results[i]);
if (failed.length > 0) {
  process.stdout.write(`\nchecks failed: ${failed.join(', ')}\n`);
  process.exit(1);
}
