// Frames for the plate reader: ffmpeg decodes the device's stream (or a video file) at a few frames a
// second, scaled, as JPEGs on a pipe. Live, only the newest frame waits to be read, so a slow reader
// skips frames instead of falling behind; a file read `once` keeps every frame, for measuring.
import { spawn, type ChildProcess } from 'node:child_process';
import type { SourceSpec } from '../devices/index.js';
import { inputArgs } from '../recording/index.js';

export interface Frame {
  jpeg: Buffer;
  /** Milliseconds: the wall clock live, the video's own time for a file read once. */
  at: number;
}

const SOI = Buffer.from([0xff, 0xd8]);
const EOI = Buffer.from([0xff, 0xd9]);

export class FrameSource {
  private proc: ChildProcess | null = null;
  private frames: Frame[] = [];
  private waiting: ((f: Frame | null) => void) | null = null;
  private ended = false;
  private count = 0;
  /** The last lines ffmpeg wrote on stderr, for the reason it stopped. */
  stderr = '';

  constructor(
    private readonly ffmpeg: string,
    private readonly src: SourceSpec | { type: 'once'; input: string },
    private readonly fps: number,
    private readonly width: number,
  ) {}

  start(): void {
    const input = this.src.type === 'once' ? ['-i', this.src.input] : inputArgs(this.src);
    const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', ...input, '-map', '0:v:0', '-an'];
    args.push('-vf', `fps=${this.fps},scale=${this.width}:-2`, '-c:v', 'mjpeg', '-q:v', '3', '-f', 'image2pipe', 'pipe:1');
    const proc = spawn(this.ffmpeg, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc = proc;
    let pending = Buffer.alloc(0);
    proc.stdout?.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const start = pending.indexOf(SOI);
        const end = start < 0 ? -1 : pending.indexOf(EOI, start + 2);
        if (end < 0) break;
        this.push(pending.subarray(start, end + 2));
        pending = pending.subarray(end + 2);
      }
    });
    proc.stderr?.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-2000);
    });
    proc.on('close', () => {
      this.ended = true;
      this.waiting?.(null);
      this.waiting = null;
    });
    proc.on('error', (err) => {
      this.stderr += String(err);
    });
  }

  private push(jpeg: Buffer): void {
    const at = this.src.type === 'once' ? Math.round((this.count * 1000) / this.fps) : Date.now();
    this.count++;
    const frame = { jpeg: Buffer.from(jpeg), at };
    if (this.waiting) {
      this.waiting(frame);
      this.waiting = null;
    } else if (this.src.type === 'once') this.frames.push(frame);
    else this.frames = [frame];
  }

  /** The next frame to read, or null once the stream has ended. */
  next(): Promise<Frame | null> {
    const f = this.frames.shift();
    if (f) return Promise.resolve(f);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  stop(): void {
    this.proc?.kill('SIGKILL');
  }
}
