// One camera's live HLS stream: one ffmpeg writing a rolling playlist and its segments into a folder of
// its own. It is ready once ffmpeg has written the first playlist; stopping it ends ffmpeg (SIGTERM,
// then SIGKILL) and removes the folder. Who watches is counted by the viewer ids of the media tokens.
// A stream made of pictures (the simulated camera) has its frames piped into ffmpeg's stdin.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { FastifyBaseLogger } from 'fastify';
import { inheritedEnv } from '../../lib/config.js';
import { ApiError } from '../../lib/errors.js';
import { explainFfmpegError, PLAYLIST_FILE } from './ffmpeg-args.js';

/** How ffmpeg is started for one stream. */
export interface StreamSpec {
  /** What the stream is made of, reported by `/streaming`: `copy`, `encode` or `simulated`. */
  mode: 'copy' | 'encode' | 'simulated';
  args: string[];
  /** Extra environment for ffmpeg. */
  env?: Record<string, string>;
  /** Pictures written to ffmpeg's stdin: the latest frame `fps` times a second, asked for anew every `renderMs`. */
  frames?: FrameSource;
}

interface FrameSource {
  /** The picture now, as a JPEG. */
  render: () => Promise<Buffer>;
  fps: number;
  renderMs: number;
}

/** How long a first playlist may take (RTSP connection, first keyframe, first segment). */
const START_TIMEOUT_MS = 20_000;
const KILL_GRACE_MS = 3000;

/** Credentials in any URL ffmpeg prints are masked before a line reaches the log. */
export const redact = (line: string) => line.replace(/([a-z]+:\/\/)[^/\s@]*@/gi, '$1***@');

export class HlsStream {
  readonly dir: string;
  private child: ChildProcess | null = null;
  private closed: Promise<void> = Promise.resolve();
  private lastReason: string | null = null;
  private exitedEarly = false;
  private feeders: NodeJS.Timeout[] = [];
  /** When a playlist or segment was last fetched; the idle sweep reads it once the stream is ready. */
  lastFetch = Date.now();
  ready = false;
  stopped = false;
  readonly viewers = new Map<string, number>();
  /** Called once when ffmpeg ends on its own (the camera dropped), not when stopped. */
  onDied: (() => void) | null = null;

  constructor(
    root: string,
    readonly spec: StreamSpec,
    private readonly ffmpeg: string,
    private readonly log: FastifyBaseLogger,
    readonly label: string,
  ) {
    this.dir = mkdtempSync(join(root, 'stream-'));
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts ffmpeg and resolves once the first playlist is written; rejects with 502/504 otherwise. */
  async start(): Promise<void> {
    const frames = this.spec.frames;
    // The first picture before ffmpeg starts, so it has one to encode at once.
    let frame = frames
      ? await frames.render().catch((err: Error) => {
          throw new ApiError('BAD_GATEWAY', `The live stream could not start: no picture to stream (${err.message})`);
        })
      : null;
    const child = spawn(this.ffmpeg, this.spec.args, {
      cwd: this.dir,
      env: inheritedEnv(this.spec.env),
      stdio: [frames ? 'pipe' : 'ignore', 'ignore', 'pipe'],
    });
    this.child = child;
    if (frames && child.stdin) {
      const stdin = child.stdin;
      // ffmpeg ending closes the pipe: that is reported by its exit, not here.
      stdin.on('error', () => undefined);
      let rendering = false;
      let renderFailed = false;
      this.feeders.push(
        setInterval(() => {
          if (frame && stdin.writable && stdin.writableLength < 4 * frame.length) stdin.write(frame);
        }, 1000 / frames.fps),
        setInterval(() => {
          if (rendering) return;
          rendering = true;
          frames
            .render()
            .then((jpeg) => {
              frame = jpeg;
              renderFailed = false;
            })
            .catch((err: Error) => {
              // The last picture stays on screen; said once, not every few hundred milliseconds.
              if (!renderFailed) this.log.warn({ stream: this.label, err: err.message }, 'live view frame not rendered');
              renderFailed = true;
            })
            .finally(() => {
              rendering = false;
            });
        }, frames.renderMs),
      );
      for (const t of this.feeders) t.unref();
    }
    this.closed = new Promise((resolve) => {
      child.once('close', () => resolve());
      child.once('error', () => resolve());
    });
    createInterface({ input: child.stderr! }).on('line', (raw) => {
      const line = redact(raw).slice(0, 500);
      const reason = explainFfmpegError(line);
      if (reason) this.lastReason = reason;
      this.log.warn({ stream: this.label, ffmpeg: line }, 'live view ffmpeg');
    });
    child.once('error', (err) => {
      this.lastReason =
        (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'ffmpeg is not installed (OVERLOOK_FFMPEG)' : `ffmpeg could not start: ${err.message}`;
      this.child = null;
      this.exitedEarly = true;
    });
    child.once('close', (code, signal) => {
      this.child = null;
      this.stopFeeding();
      if (this.stopped) return;
      this.exitedEarly = true;
      this.log.warn({ stream: this.label, code, signal, reason: this.lastReason }, 'live view ffmpeg ended');
      if (this.ready) this.onDied?.();
    });

    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!existsSync(join(this.dir, PLAYLIST_FILE))) {
      if (this.exitedEarly) throw new ApiError('BAD_GATEWAY', `The live stream could not start: ${this.lastReason ?? 'ffmpeg ended without video'}`);
      if (Date.now() > deadline) throw new ApiError('GATEWAY_TIMEOUT', 'The camera sent no video in time for the live stream');
      await new Promise((r) => setTimeout(r, 100));
    }
    this.ready = true;
    this.lastFetch = Date.now();
  }

  /** A fetch by a viewer: keeps the stream alive and counts the viewer. */
  touch(viewerId: string): void {
    const now = Date.now();
    this.lastFetch = now;
    this.viewers.set(viewerId, now);
  }

  /** Viewers who fetched something within the idle window. */
  viewerCount(idleMs: number): number {
    const since = Date.now() - idleMs;
    for (const [id, at] of this.viewers) if (at < since) this.viewers.delete(id);
    return this.viewers.size;
  }

  private stopFeeding(): void {
    for (const t of this.feeders) clearInterval(t);
    this.feeders = [];
  }

  /** Ends ffmpeg and removes the folder; safe to call more than once. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopFeeding();
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      // A piped stream's ffmpeg waits on its input: the end of it lets it finish at once.
      child.stdin?.end();
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
      await this.closed;
      clearTimeout(killer);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
