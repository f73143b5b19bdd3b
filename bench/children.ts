// Servers a benchmark runs in processes of their own (through tsx), found by the line they print once
// they listen, and stopped with SIGTERM (each closes its database pool first).
import { type ChildProcess, spawn } from 'node:child_process';

/** Starts `node --import tsx <args>` and resolves with the URL `pattern` captures from its stdout. */
export function startChild(args: string[], pattern: RegExp, env: Record<string, string> = {}): Promise<{ proc: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
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
