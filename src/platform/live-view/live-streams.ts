// The running live streams, one per camera whoever watches it: the first fetch starts ffmpeg, every
// later viewer shares it, and a sweep stops a stream nobody has fetched from for the idle timeout.
// Everything stops with the app. A real camera whose H.264 copy fails is tried again with encoding.
// Each stream is an ffmpeg, so a node runs at most so many, and one person may start only so many
// (docs/security.md, "Live encoders"); watching a running stream costs nothing and is never refused.
import { chmodSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../../lib/errors.js';
import { HlsStream, type StreamSpec } from './hls-stream.js';

export interface StreamStatus {
  running: boolean;
  viewers: number;
  /** `linked`: relayed from a linked site recorder (docs/site-link.md). */
  mode: StreamSpec['mode'] | 'linked' | null;
}

/** How many ffmpeg streams a node runs at most, and how many of them one person may have started. */
export interface StreamLimits {
  perNode: number;
  perPerson: number;
}

/** Seconds a refused start is asked to wait: about one idle sweep, when streams nobody watches stop. */
const RETRY_AFTER_S = 10;

export class LiveStreams {
  private streams = new Map<string, HlsStream>();
  private starting = new Map<string, Promise<HlsStream>>();
  /** Who started each running or starting stream. */
  private starters = new Map<string, string>();
  private sweeper: NodeJS.Timeout | null = null;
  private closing = false;
  /** Told the key of each stream that ended (idle, died, stopped) when no other runs for it. */
  onEnded: ((key: string) => void) | null = null;

  constructor(
    private readonly root: string,
    private readonly ffmpeg: string,
    readonly idleMs: number,
    private readonly log: FastifyBaseLogger,
    private readonly limits: StreamLimits,
  ) {}

  /** Clears folders a previous process left behind and starts the idle sweep. */
  start(): void {
    // Private like the rest of the data dir: the segments are a tenant's video.
    mkdirSync(this.root, { recursive: true, mode: 0o700 });
    chmodSync(this.root, 0o700);
    for (const name of readdirSync(this.root)) if (name.startsWith('stream-')) rmSync(join(this.root, name), { recursive: true, force: true });
    this.sweeper = setInterval(() => void this.sweep(), Math.max(100, Math.min(5000, this.idleMs / 4)));
    this.sweeper.unref();
  }

  /**
   * The camera's running stream, started when there is none. `specs` are tried in order (copy, then
   * encode): a later one only when ffmpeg ended before writing a playlist. `starter` (a person's id) is
   * counted against the per-person limit when this call starts the stream.
   */
  async open(key: string, specs: () => Promise<StreamSpec[]>, starter: string): Promise<HlsStream> {
    const running = this.streams.get(key);
    if (running && !running.stopped) return running;
    let pending = this.starting.get(key);
    if (!pending) {
      this.admit(starter);
      this.starters.set(key, starter);
      pending = this.launch(key, specs).finally(() => {
        this.starting.delete(key);
        if (!this.streams.has(key)) this.starters.delete(key);
      });
      this.starting.set(key, pending);
    }
    return pending;
  }

  /** Refuses a new stream over the node's or the person's limit. */
  private admit(starter: string): void {
    const headers = { 'retry-after': String(RETRY_AFTER_S) };
    const keys = new Set([...this.streams.keys(), ...this.starting.keys()]);
    if (keys.size >= this.limits.perNode) {
      throw new ApiError('SERVICE_UNAVAILABLE', `This node runs its limit of ${this.limits.perNode} live streams; try again shortly`, { headers });
    }
    let mine = 0;
    for (const key of keys) if (this.starters.get(key) === starter) mine++;
    if (mine >= this.limits.perPerson) {
      throw new ApiError('TOO_MANY_REQUESTS', `You have started ${mine} live streams, the limit; close one or wait until it stops`, { headers });
    }
  }

  private async launch(key: string, specs: () => Promise<StreamSpec[]>): Promise<HlsStream> {
    if (this.closing) throw new ApiError('SERVICE_UNAVAILABLE', 'The server is shutting down');
    mkdirSync(this.root, { recursive: true, mode: 0o700 });
    const list = await specs();
    let lastError: unknown = null;
    for (const spec of list) {
      const stream = new HlsStream(this.root, spec, this.ffmpeg, this.log, key);
      try {
        await stream.start();
      } catch (err) {
        await stream.stop();
        lastError = err;
        // Only a quick failure of a copy is worth a second try with encoding; a timeout is not.
        if (err instanceof ApiError && err.code === 'BAD_GATEWAY') continue;
        throw err;
      }
      if (this.closing) {
        await stream.stop();
        throw new ApiError('SERVICE_UNAVAILABLE', 'The server is shutting down');
      }
      stream.onDied = () => void this.end(key, stream);
      this.streams.set(key, stream);
      this.log.info({ stream: key, mode: spec.mode, pid: stream.pid }, 'live stream started');
      return stream;
    }
    throw lastError ?? new ApiError('BAD_GATEWAY', 'The live stream could not start');
  }

  /** Stops the stream of `key` if one runs or is starting (its camera was deleted or reconnected). */
  async stop(key: string): Promise<void> {
    const starting = this.starting.get(key);
    if (starting) await starting.catch(() => null);
    const s = this.streams.get(key);
    if (s) await this.end(key, s);
  }

  get(key: string): HlsStream | null {
    const s = this.streams.get(key);
    return s && !s.stopped ? s : null;
  }

  /** This node's streams running and starting, and the viewers of the running ones (docs/deploy.md, Metrics). */
  counts(): { running: number; starting: number; viewers: number } {
    let running = 0;
    let viewers = 0;
    for (const s of this.streams.values()) {
      if (s.stopped) continue;
      running++;
      viewers += s.viewerCount(this.idleMs);
    }
    return { running, starting: this.starting.size, viewers };
  }

  status(key: string): StreamStatus {
    const s = this.get(key);
    return s ? { running: true, viewers: s.viewerCount(this.idleMs), mode: s.spec.mode } : { running: false, viewers: 0, mode: null };
  }

  private async end(key: string, stream: HlsStream): Promise<void> {
    if (this.streams.get(key) === stream) this.streams.delete(key);
    if (!this.streams.has(key) && !this.starting.has(key)) this.starters.delete(key);
    await stream.stop();
    if (!this.streams.has(key) && !this.starting.has(key)) this.onEnded?.(key);
  }

  private async sweep(): Promise<void> {
    const now = Date.now();
    for (const [key, stream] of this.streams) {
      if (now - stream.lastFetch > this.idleMs) {
        this.log.info({ stream: key }, 'live stream idle: stopping');
        await this.end(key, stream);
      }
    }
  }

  /** Stops every stream (the app is closing); streams still starting are stopped as they finish. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.sweeper) clearInterval(this.sweeper);
    await Promise.allSettled([...this.starting.values()]);
    await Promise.all([...this.streams.entries()].map(([key, s]) => this.end(key, s)));
  }
}
