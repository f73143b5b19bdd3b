// Servers a benchmark runs in processes of their own (through tsx), found by the line they print once
// they listen, and stopped with SIGTERM (each closes its database pool first).
import { type ChildProcess, spawn } from 'node:child_process';

/**
 * `[command, args]` run on one CPU (`taskset -c <cpu>`, which then becomes the command: same pid), or as is
 * when `cpu` is undefined. Servers on one core and the load generator on another: on a two-core VM,
 * letting the scheduler move them about made single runs differ by up to 2×.
 */
export function onCpu(cpu: number | undefined, command: string, args: string[]): [string, string[]] {
  return cpu === undefined ? [command, args] : ['taskset', ['-c', String(cpu), command, ...args]];
}

/** Starts `node --import tsx <args>` (on `cpu` when given) and resolves with the URL `pattern` captures from its stdout. */
export function startChild(args: string[], pattern: RegExp, env: Record<string, string> = {}, cpu?: number): Promise<{ proc: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const [command, argv] = onCpu(cpu, process.execPath, ['--import', 'tsx', ...args]);
    const proc = spawn(command, argv, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    proc.stdout!.on('data', (d: Buffer) => {
      const m = pattern.exec(d.toString());
      if (m) resolve({ proc, url: m[1]! });
    });
    proc.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}`)));
  });
}

/** SIGTERM, then wait for the exit. */
export function stopChild(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    proc.once('exit', () => resolve());
    proc.kill('SIGTERM');
  });
}
