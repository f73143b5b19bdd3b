// Runs one ffmpeg command for a render: in its own process group (so stopping the app kills it and
// anything it started), with a time limit, and its last stderr lines kept as the failure reason.
import { spawn } from 'node:child_process';

export class RenderError extends Error {}

const TAIL = 2000;

export function runFfmpeg(ffmpegPath: string, args: string[], opts: { cwd: string; signal: AbortSignal; timeoutMs: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    if (opts.signal.aborted) return reject(new RenderError('stopped'));
    const child = spawn(ffmpegPath, ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...args], {
      cwd: opts.cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => {
      stderr = (stderr + d).slice(-TAIL);
    });
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(kill, opts.timeoutMs);
    opts.signal.addEventListener('abort', kill, { once: true });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new RenderError(`ffmpeg could not be started (${(err as NodeJS.ErrnoException).code ?? err.message})`));
    });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      opts.signal.removeEventListener('abort', kill);
      if (code === 0) return resolve();
      if (opts.signal.aborted) return reject(new RenderError('stopped'));
      const last = stderr.trim().split('\n').slice(-3).join(' | ');
      reject(new RenderError(sig ? `ffmpeg was stopped (${sig}${sig === 'SIGKILL' ? ', time limit' : ''})` : `ffmpeg failed: ${last || `exit ${code}`}`));
    });
  });
}
