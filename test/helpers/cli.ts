// The `overlook` command as outside programs run it, for the CLI tests: real processes of the build in
// dist/ (built-cli.ts builds it first when the source is newer).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { BUILT_CLI, ROOT } from './built-cli.js';

export { ROOT };
/** Node arguments that run the CLI. */
export const CLI = [BUILT_CLI];
/** A test that starts CLI processes: each start loads the whole platform, seconds on a busy 2-core box. */
export const SLOW = 240_000;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
/** A fresh temp directory, removed after the test file's tests. */
export function tempDir(prefix = 'overlook-cli-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** The environment a CLI run gets: SQLite unless `env` names a database. */
const cliEnv = (env: Record<string, string>) => ({ ...process.env, DATABASE_URL: '', ...env });

/** Runs `overlook …` to completion. */
export const overlook = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [...CLI, ...args], { cwd: ROOT, encoding: 'utf8', env: cliEnv(env), timeout: 60_000 });

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `overlook …` to completion without blocking, so several runs can overlap. */
export function overlookAsync(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const proc = spawn(process.execPath, [...CLI, ...args], { cwd: ROOT, env: cliEnv(env) });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d) => (stdout += d));
  proc.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    proc.on('error', reject);
    proc.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

export interface ServeOptions {
  /** Matched against stdout; its first group is the URL. Default: the main API's "listening" line or banner. */
  ready?: RegExp;
  env?: Record<string, string>;
  timeoutMs?: number;
}

export interface Served {
  url: string;
  match: RegExpExecArray;
  output: () => string;
  /** SIGTERM, then the exit code. */
  stop: () => Promise<number | null>;
}

/** Starts a long-running `overlook …` and waits until its output says it listens. */
export function serve(args: string[], opts: ServeOptions = {}): Promise<Served> {
  const ready = opts.ready ?? /main API (?:listening on |\s+)(http:\/\/\S+)/;
  const proc = spawn(process.execPath, [...CLI, ...args], { cwd: ROOT, env: cliEnv({ OVERLOOK_LOG_LEVEL: 'info', ...opts.env }) });
  let out = '';
  const stop = () =>
    new Promise<number | null>((r) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return r(proc.exitCode);
      proc.once('exit', (code) => r(code));
      proc.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`did not start: ${out}`));
    }, opts.timeoutMs ?? 45_000);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = ready.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({ url: m[1] ?? '', match: m, output: () => out, stop });
    });
    proc.stderr.on('data', (d) => (out += d));
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}: ${out}`));
    });
  });
}
