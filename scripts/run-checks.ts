// Runs npm scripts side by side, each one's output kept whole: each check is mostly one process on one
// core. `niceness` lowers their CPU priority (0 normal, 19 lowest), so that beside the test suite
// they take only the CPU it leaves idle.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

interface CheckResult {
  script: string;
  ok: boolean;
  report: string;
}

interface Options {
  niceness?: number;
  /** Called as each script ends. */
  onEnd?: (result: CheckResult) => void;
}

function run(script: string, { niceness = 0, onEnd }: Options): Promise<CheckResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    // Set before npm starts the script's own processes, which inherit it.
    if (niceness !== 0 && child.pid !== undefined) setPriority(child.pid, niceness);
    const out: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => out.push(b));
    child.on('error', (err) => out.push(Buffer.from(`${err}\n`)));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const text = Buffer.concat(out).toString().trimEnd();
      const report = `\n── ${script}: ${code === 0 ? 'ok' : `failed (exit ${code})`} in ${seconds} s\n${text ? `${text}\n` : ''}`;
      const result = { script, ok: code === 0, report };
      onEnd?.(result);
      resolve(result);
    });
  });
}

export function runChecks(scripts: readonly string[], options: Options = {}): Promise<CheckResult[]> {
  return Promise.all(scripts.map((script) => run(script, options)));
}

export const CHECKS = ['typecheck', 'lint', 'lint:deps', 'lint:unused', 'lint:openapi'] as const;
