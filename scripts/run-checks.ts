// Runs npm scripts side by side, each one's output kept whole: each check is mostly one process on one
// core. With `idle`, they run under Linux's SCHED_IDLE policy (util-linux `chrt`): a CPU runs them only
// when nothing else wants it and gives it up to anything that wakes, so beside the test suite they
// take the CPU it leaves idle. Where that policy cannot be set, the lowest nice value does nearly as much.
import { spawn, spawnSync } from 'node:child_process';
import { setPriority } from 'node:os';

/** Whether this system lets us start a process under SCHED_IDLE (Linux with util-linux's `chrt`). */
const idlePolicyWorks = () => spawnSync('chrt', ['--idle', '0', 'true']).status === 0;

interface CheckResult {
  script: string;
  ok: boolean;
  report: string;
}

interface Options {
  /** Set by `runChecks`: SCHED_IDLE where it works, else the lowest nice value. */
  idle?: 'policy' | 'nice';
  /** Called as each script ends. */
  onEnd?: (result: CheckResult) => void;
}

function run(script: string, { idle, onEnd }: Options): Promise<CheckResult> {
  const started = performance.now();
  const npm = ['npm', 'run', '--silent', script];
  // The policy is inherited by every process the script starts.
  const [command, ...args] = idle === 'policy' ? ['chrt', '--idle', '0', ...npm] : npm;
  return new Promise((resolve) => {
    const child = spawn(command!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    // Without SCHED_IDLE, the lowest nice value, set before npm starts the script's processes.
    if (idle === 'nice' && child.pid !== undefined) setPriority(child.pid, 19);
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

export function runChecks(scripts: readonly string[], options: { idle?: boolean; onEnd?: Options['onEnd'] } = {}): Promise<CheckResult[]> {
  const idle = options.idle ? (idlePolicyWorks() ? 'policy' : 'nice') : undefined;
  return Promise.all(scripts.map((script) => run(script, { idle, onEnd: options.onEnd })));
}

export const CHECKS = ['typecheck', 'lint', 'lint:deps', 'lint:unused', 'lint:openapi'] as const;
