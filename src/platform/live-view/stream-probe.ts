// Asks ffprobe what a camera's RTSP stream carries (codec, profile, size, frame rate) and over which
// transport it answers: RTP over the RTSP connection (TCP) first, as most cameras and firewalls
// prefer, then UDP for servers that only offer that. Answers are cached a while per camera, until its
// connection changes or it is deleted (the `camera-stream` fact; docs/architecture.md, Caches).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Cache, CacheRegistry } from '../../lib/cache/index.js';
import { explainFfmpegError, type RtspTransport } from './ffmpeg-args.js';

const run = promisify(execFile);

export interface StreamInfo {
  codec: string | null;
  profile: string | null;
  width: number | null;
  height: number | null;
  fps: number | null;
  transport: RtspTransport;
}

const PROBE_TIMEOUT_MS = 12_000;
const CACHE_MS = 5 * 60_000;
const FAILURE_CACHE_MS = 10_000;

const rate = (r: unknown): number | null => {
  if (typeof r !== 'string') return null;
  const [n, d] = r.split('/').map(Number);
  if (!n || !d || !Number.isFinite(n / d)) return null;
  return Math.round((n / d) * 100) / 100;
};

export class ProbeError extends Error {
  constructor(
    message: string,
    /** The camera did not answer at all (504), rather than answering something unusable (502). */
    readonly timedOut = false,
  ) {
    super(message);
  }
}

type ProbeResult = { at: number; info: StreamInfo; error?: undefined } | { at: number; info?: undefined; error: ProbeError };

/** The camera a probe key (`<exid>:<hash of the URL>`) names. */
const cameraOf = (key: string): string => (key.includes(':') ? key.slice(0, key.lastIndexOf(':')) : key);

export class StreamProbe {
  /**
   * The last answer per key. No ttl: `cached` serves the last one learnt however old (what a master
   * playlist announces); `probe` asks again once it is older than CACHE_MS (FAILURE_CACHE_MS for a failure).
   */
  private readonly results: Cache<string, ProbeResult>;
  /** Probes under way, shared by concurrent callers; not a cache: each leaves when it settles. */
  private readonly running = new Map<string, Promise<StreamInfo>>();

  constructor(
    private readonly ffprobe: string,
    caches: CacheRegistry,
  ) {
    this.results = caches.create('live-view.stream-probes', { max: 10_000, facts: (key) => [{ kind: 'camera-stream', id: cameraOf(key) }] });
  }

  /** The stream's details; `key` names the camera, `url` may hold credentials and is never echoed. */
  async probe(key: string, url: string): Promise<StreamInfo> {
    const pending = this.running.get(key);
    if (pending) return pending;
    const hit = this.results.get(key);
    if (hit?.info && Date.now() - hit.at < CACHE_MS) return hit.info;
    if (hit?.error && Date.now() - hit.at < FAILURE_CACHE_MS) throw hit.error;
    const probing = this.probeBoth(url)
      .then(
        (info) => {
          this.results.set(key, { at: Date.now(), info });
          return info;
        },
        (err: ProbeError) => {
          this.results.set(key, { at: Date.now(), error: err });
          throw err;
        },
      )
      .finally(() => this.running.delete(key));
    this.running.set(key, probing);
    return probing;
  }

  /** What was learnt last, without asking the camera (nothing while it is being asked again). */
  cached(key: string): StreamInfo | null {
    if (this.running.has(key)) return null;
    return this.results.get(key)?.info ?? null;
  }

  private async probeBoth(url: string): Promise<StreamInfo> {
    let first: ProbeError | null = null;
    for (const transport of ['tcp', 'udp'] as const) {
      try {
        return await this.probeOnce(url, transport);
      } catch (err) {
        first ??= err as ProbeError;
      }
    }
    throw first!;
  }

  private async probeOnce(url: string, transport: RtspTransport): Promise<StreamInfo> {
    try {
      const { stdout } = await run(
        this.ffprobe,
        [
          '-v',
          'error',
          '-rtsp_transport',
          transport,
          '-timeout',
          String(PROBE_TIMEOUT_MS * 1000),
          '-select_streams',
          'v:0',
          '-show_entries',
          'stream=codec_name,profile,width,height,avg_frame_rate,r_frame_rate',
          '-of',
          'json',
          url,
        ],
        { timeout: PROBE_TIMEOUT_MS + 2000, maxBuffer: 1024 * 1024 },
      );
      const s = (JSON.parse(stdout) as { streams?: Record<string, unknown>[] }).streams?.[0];
      if (!s) throw new ProbeError('the camera’s RTSP stream has no video');
      return {
        codec: typeof s.codec_name === 'string' ? s.codec_name : null,
        profile: typeof s.profile === 'string' ? s.profile : null,
        width: typeof s.width === 'number' ? s.width : null,
        height: typeof s.height === 'number' ? s.height : null,
        fps: rate(s.avg_frame_rate) ?? rate(s.r_frame_rate),
        transport,
      };
    } catch (err) {
      if (err instanceof ProbeError) throw err;
      const e = err as { stderr?: string; killed?: boolean; code?: unknown };
      if (e.killed) throw new ProbeError('the camera’s RTSP stream did not answer in time', true);
      if (e.code === 'ENOENT') throw new ProbeError('ffprobe is not installed (OVERLOOK_FFPROBE)');
      const reason = (e.stderr ?? '').split('\n').map(explainFfmpegError).find(Boolean);
      throw new ProbeError(reason ?? 'the camera’s RTSP stream could not be read');
    }
  }
}
