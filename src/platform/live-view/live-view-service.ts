// Live view (docs/cameras.md): a snapshot straight from the camera, an HLS stream made on demand by ffmpeg
// and shared by every viewer of the camera, and the stream's details. Real cameras are reached through
// their stored connection (credentials stay server-side); the simulated camera's stream is its snapshot
// scene, drawn by the app and encoded by ffmpeg.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { PlatformConfig } from '../../lib/config.js';
import { ApiError } from '../../lib/errors.js';
import { isOutboundRefused, type OutboundGuard, REFUSED_BY_POLICY } from '../../lib/net/outbound-guard.js';
import type { AccessDirectory } from '../directory/index.js';
import { tokenChallenge, type Principal } from '../access/index.js';
import type { CameraRow, ConnectionDetails, CameraConnections, CamerasService } from '../cameras/index.js';
import type { WorkLeases } from '../work/index.js';
import { PLAYLIST_FILE, rtspHlsArgs, SEGMENT_NAME, SIMULATED_INPUT_FPS, SIMULATED_STREAM, simulatedHlsArgs, withCredentials } from './ffmpeg-args.js';
import type { StreamSpec } from './hls-stream.js';
import type { LiveStreams, StreamStatus } from './live-streams.js';
import { type MediaTokens, SEGMENT_TOKEN_SECONDS, subjectOf, type MediaClaims } from './media-tokens.js';
import { avcCodecs, masterPlaylist, withTokens } from './playlists.js';
import { ProbeError, type StreamProbe, type StreamInfo } from './stream-probe.js';

const run = promisify(execFile);

/** How often the simulated camera's live scene is drawn again (its clock, a PTZ move). */
const SIMULATED_RENDER_MS = 500;

export interface LiveSnapshot {
  jpeg: Buffer;
  takenAt: Date;
}

export interface StreamingDetails {
  hls_url: string;
  rtsp_url: string | null;
  rtmp_url: string | null;
  source: 'simulated' | 'rtsp' | 'linked' | null;
  codec: string | null;
  profile: string | null;
  width: number | null;
  height: number | null;
  fps: number | null;
  /** Why the source could not be read, when it could not. */
  source_error: string | null;
  hls: StreamStatus;
}

/** A playlist or segment answered here, or the address of the node running the camera's stream. */
export type LiveAnswer<T> = { here: T } | { node: string };

/** The lease on a camera's live stream: one ffmpeg per camera across the nodes (docs/deploy.md). */
export const liveLease = (exid: string) => `live:${exid}`;

/**
 * Live view of `linked` cameras, answered through their site recorder's link (docs/site-link.md, Live
 * view); the recorder-links feature provides it. The playlist is the recorder's, with bare segment names.
 */
export interface LinkedLive {
  snapshot(row: CameraRow): Promise<LiveSnapshot>;
  playlist(row: CameraRow, viewerId: string): Promise<string>;
  segment(row: CameraRow, name: string, viewerId: string): Promise<Buffer>;
  /** Whether a name can be one of the recorder's segments. */
  isSegmentName(name: string): boolean;
  status(exid: string): StreamStatus;
}

export interface HlsEntry {
  playlist: string;
  playlistUrl: string;
  expiresAt: Date;
}

const details = (row: CameraRow): ConnectionDetails & { rtmp_url?: string } => {
  try {
    return JSON.parse(row.connection) as ConnectionDetails & { rtmp_url?: string };
  } catch {
    return {};
  }
};

/** A URL as it may be shown: never with a user name or password in it. */
const withoutCredentials = (url: string): string | null => {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return null;
  }
};

/**
 * Where the camera's stream is read from: its RTSP URL with credentials (for ffmpeg only), and the key
 * its probe is cached under, which changes when the URL or credentials do.
 */
const source = (row: CameraRow, conn: ConnectionDetails): { url: string; key: string } => {
  const url = withCredentials(conn.rtsp_url!, conn.username, conn.password);
  return { url, key: `${row.exid}:${createHash('sha256').update(url).digest('base64url').slice(0, 16)}` };
};

/**
 * The URL ffmpeg and ffprobe read: the host replaced by the address the outbound guard checked, so they
 * connect where it allowed (they resolve names themselves otherwise; docs/security.md, Outbound connections).
 */
async function pinned(guard: OutboundGuard, url: string): Promise<string> {
  try {
    return await guard.pinUrl(url);
  } catch (err) {
    throw new ProbeError(isOutboundRefused(err) ? REFUSED_BY_POLICY : 'the camera’s address does not resolve');
  }
}

const probeFailure = (err: unknown): ApiError => {
  if (err instanceof ProbeError) return new ApiError(err.timedOut ? 'GATEWAY_TIMEOUT' : 'BAD_GATEWAY', `The camera’s stream could not be read: ${err.message}`);
  return err instanceof ApiError ? err : new ApiError('BAD_GATEWAY', 'The camera’s stream could not be read');
};

export class LiveViewService {
  private linkedLive: LinkedLive | null = null;

  constructor(
    private readonly config: PlatformConfig,
    private readonly cameras: CamerasService,
    private readonly connections: CameraConnections,
    private readonly directory: Pick<AccessDirectory, 'roleOf'>,
    private readonly tokens: MediaTokens,
    private readonly probe: StreamProbe,
    readonly streams: LiveStreams,
    private readonly leases: WorkLeases,
  ) {
    // A stream that ends gives its lease back; a lease another node took ends the stream here.
    streams.onEnded = (exid) => void this.leases.release(liveLease(exid)).catch(() => undefined);
    leases.onLost((name) => {
      if (name.startsWith('live:')) void this.streams.stop(name.slice('live:'.length));
    });
  }

  /** Answers the live view of linked cameras (set once by the recorder-links feature). */
  useLinked(source: LinkedLive): void {
    this.linkedLive = source;
  }

  private linked(): LinkedLive {
    if (!this.linkedLive) throw new ApiError('SERVICE_UNAVAILABLE', 'Live view of linked cameras is not available on this node');
    return this.linkedLive;
  }

  /** Stops the camera's live stream: its connection changed or it is being deleted. */
  async stopStream(exid: string): Promise<void> {
    await this.streams.stop(exid);
  }

  // ---- snapshots

  /** A frame from the camera now: its snapshot URL (or the simulated camera), else a frame of its RTSP stream. */
  async snapshot(exid: string): Promise<LiveSnapshot> {
    const row = await this.cameras.row(exid);
    if (row.kind === 'linked') return this.linked().snapshot(row);
    const conn = details(row);
    if (row.kind !== 'simulated' && !conn.snapshot_url) {
      if (!conn.rtsp_url) throw new ApiError('NOT_FOUND', 'This camera has no snapshot URL or RTSP URL configured');
      return this.frameFromRtsp(row, conn);
    }
    try {
      const shot = await this.connections.connect(row).snapshot();
      return { jpeg: shot.jpeg, takenAt: shot.takenAt };
    } catch (err) {
      const e = err as Error;
      if (e.name === 'TimeoutError' || e.name === 'AbortError') throw new ApiError('GATEWAY_TIMEOUT', 'The camera did not answer the snapshot request in time');
      throw new ApiError('BAD_GATEWAY', `The camera gave no snapshot: ${e.message}`);
    }
  }

  private async frameFromRtsp(row: CameraRow, conn: ConnectionDetails): Promise<LiveSnapshot> {
    const { url: given, key } = source(row, conn);
    const url = await pinned(this.connections.guard, given).catch((err) => Promise.reject(probeFailure(err)));
    const info = await this.probe.probe(key, url).catch((err) => Promise.reject(probeFailure(err)));
    try {
      const { stdout } = await run(
        this.config.ffmpegPath,
        [
          '-hide_banner',
          '-nostdin',
          '-loglevel',
          'error',
          '-rtsp_transport',
          info.transport,
          '-timeout',
          '10000000',
          '-i',
          url,
          '-map',
          '0:v:0',
          '-frames:v',
          '1',
          '-f',
          'image2',
          '-c:v',
          'mjpeg',
          '-q:v',
          '4',
          'pipe:1',
        ],
        { encoding: 'buffer', timeout: 15_000, maxBuffer: 32 * 1024 * 1024 },
      );
      if (stdout.length < 4 || stdout[0] !== 0xff || stdout[1] !== 0xd8) throw new Error('no frame');
      return { jpeg: stdout, takenAt: new Date() };
    } catch (err) {
      if ((err as { killed?: boolean }).killed) throw new ApiError('GATEWAY_TIMEOUT', 'The camera’s stream gave no frame in time');
      throw new ApiError('BAD_GATEWAY', 'The camera’s stream gave no frame');
    }
  }

  // ---- HLS

  private hlsPath(exid: string): string {
    return `/v2/cameras/${encodeURIComponent(exid)}/hls`;
  }

  /** What makes the camera's stream, in the order to try; 404 when the camera has none. */
  private async specs(row: CameraRow): Promise<StreamSpec[]> {
    if (row.kind === 'simulated') {
      // The scene of its snapshots, drawn afresh from the stored row: a PTZ move shows within a render.
      const render = async () => (await this.connections.connect(await this.cameras.row(row.exid)).snapshot()).jpeg;
      return [{ mode: 'simulated', args: simulatedHlsArgs(), frames: { render, fps: SIMULATED_INPUT_FPS, renderMs: SIMULATED_RENDER_MS } }];
    }
    const conn = details(row);
    if (!conn.rtsp_url) throw new ApiError('NOT_FOUND', 'This camera has no live stream: no RTSP URL is configured');
    const { url: given, key } = source(row, conn);
    let url: string;
    let info: StreamInfo;
    try {
      url = await pinned(this.connections.guard, given);
      info = await this.probe.probe(key, url);
    } catch (err) {
      throw probeFailure(err);
    }
    const encode: StreamSpec = { mode: 'encode', args: rtspHlsArgs(url, info.transport, false) };
    return info.codec === 'h264' ? [{ mode: 'copy', args: rtspHlsArgs(url, info.transport, true) }, encode] : [encode];
  }

  /** What the master playlist can announce without asking the camera: what is known already. */
  private variantInfo(row: CameraRow): { width: number | null; height: number | null; profile: string | null } {
    if (row.kind === 'simulated') return SIMULATED_STREAM;
    if (row.kind === 'linked') return { width: null, height: null, profile: null };
    const conn = details(row);
    const info = conn.rtsp_url ? this.probe.cached(source(row, conn).key) : null;
    if (!info) return { width: null, height: null, profile: null };
    const encoded = info.codec !== 'h264' || this.streams.get(row.exid)?.spec.mode === 'encode';
    return { width: info.width, height: info.height, profile: encoded ? 'Main' : info.profile };
  }

  /** The master playlist for a caller, naming the media playlist with a fresh media token. */
  async master(exid: string, principal: Principal): Promise<HlsEntry> {
    if (principal.kind === 'anonymous') throw new ApiError('UNAUTHORIZED', 'A credential is required');
    const row = await this.cameras.row(exid);
    if (row.kind === 'ip' && !details(row).rtsp_url) throw new ApiError('NOT_FOUND', 'This camera has no live stream: no RTSP URL is configured');
    const { token, expiresAt } = await this.tokens.issue(
      { cameraExid: exid, subject: subjectOf(principal), userId: principal.userId, viewerId: this.tokens.newViewer() },
      this.config.mediaTokenSeconds,
    );
    const variant = `hls/${PLAYLIST_FILE}?token=${encodeURIComponent(token)}`;
    const v = this.variantInfo(row);
    return {
      playlist: masterPlaylist(variant, { width: v.width, height: v.height, codecs: avcCodecs(v.profile) }),
      playlistUrl: `${this.config.publicUrl}${this.hlsPath(exid)}/${PLAYLIST_FILE}?token=${encodeURIComponent(token)}`,
      expiresAt,
    };
  }

  /**
   * May this node run the camera's stream? It takes (or keeps) the camera's lease: null when it holds it,
   * else the address of the node that does. A request another node passed here (`forwarded`) is never
   * passed on again; 503 when the holder cannot be reached that way.
   */
  private async runner(exid: string, forwarded: boolean): Promise<string | null> {
    const lease = liveLease(exid);
    if (this.streams.get(exid) && this.leases.holds(lease)) return null;
    for (let attempt = 0; attempt < 2; attempt++) {
      if (await this.leases.acquire(lease)) return null;
      const holder = await this.leases.holder(lease);
      if (holder && holder.nodeId !== this.leases.nodeId) {
        // Another node runs it: a stream left here from before is stopped.
        await this.streams.stop(exid);
        if (forwarded || !holder.url) break;
        return holder.url;
      }
      // The lease ran out between the two statements: try to take it once more.
    }
    throw new ApiError('SERVICE_UNAVAILABLE', 'The live stream is starting on another node; try again');
  }

  /** The live media playlist (starting the stream if needed), every segment URI with a fresh token; or the node that runs it. */
  async mediaPlaylist(exid: string, viewer: MediaClaims, forwarded = false): Promise<LiveAnswer<string>> {
    const row = await this.cameras.row(exid);
    // A token outlives nobody's access by more than one playlist reload: removed members stop watching.
    if (!(await this.directory.roleOf(viewer.userId, row.project_id))) {
      throw new ApiError('UNAUTHORIZED', 'The person this media token was issued to no longer sees this camera', {
        headers: { 'www-authenticate': tokenChallenge('media') },
      });
    }
    const seconds = Math.min(SEGMENT_TOKEN_SECONDS, this.config.mediaTokenSeconds);
    if (row.kind === 'linked') {
      const text = await this.linked().playlist(row, viewer.viewerId);
      return { here: withTokens(text, (await this.tokens.issue(viewer, seconds)).token) };
    }
    const node = await this.runner(exid, forwarded);
    if (node) return { node };
    let stream: Awaited<ReturnType<LiveStreams['open']>>;
    try {
      stream = await this.streams.open(exid, () => this.specs(row), viewer.userId);
    } catch (err) {
      if (!this.streams.get(exid)) await this.leases.release(liveLease(exid)).catch(() => undefined);
      throw err;
    }
    stream.touch(viewer.viewerId);
    let text: string;
    try {
      text = await readFile(join(stream.dir, PLAYLIST_FILE), 'utf8');
    } catch {
      throw new ApiError('SERVICE_UNAVAILABLE', 'The live stream is restarting; try again');
    }
    const { token } = await this.tokens.issue(viewer, seconds);
    return { here: withTokens(text, token) };
  }

  /**
   * One segment of the running stream, or the node that runs it; 404 when the name is not one of ours or
   * it has rolled off.
   */
  async segment(exid: string, name: string, viewer: MediaClaims, forwarded = false): Promise<LiveAnswer<Buffer>> {
    const row = await this.cameras.row(exid);
    if (row.kind === 'linked') {
      if (!this.linked().isSegmentName(name)) throw new ApiError('NOT_FOUND', 'No such segment');
      return { here: await this.linked().segment(row, name, viewer.viewerId) };
    }
    if (!SEGMENT_NAME.test(name)) throw new ApiError('NOT_FOUND', 'No such segment');
    const stream = this.streams.get(exid);
    if (!stream) {
      const holder = forwarded ? null : await this.leases.holder(liveLease(exid));
      if (holder && holder.nodeId !== this.leases.nodeId && holder.url) return { node: holder.url };
      throw new ApiError('NOT_FOUND', 'The live stream is not running; fetch the playlist first');
    }
    stream.touch(viewer.viewerId);
    try {
      return { here: await readFile(join(stream.dir, name)) };
    } catch {
      throw new ApiError('NOT_FOUND', 'That segment has rolled off the live playlist');
    }
  }

  // ---- details

  async streaming(exid: string): Promise<StreamingDetails> {
    const row = await this.cameras.row(exid);
    const conn = details(row);
    const base: Omit<StreamingDetails, 'codec' | 'profile' | 'width' | 'height' | 'fps' | 'source_error' | 'source'> = {
      hls_url: `${this.config.publicUrl}${this.hlsPath(exid)}`,
      rtsp_url: row.kind !== 'ip' || !conn.rtsp_url ? null : withoutCredentials(conn.rtsp_url),
      rtmp_url: typeof conn.rtmp_url === 'string' ? conn.rtmp_url : null,
      hls: row.kind === 'linked' ? this.linked().status(exid) : this.streams.status(exid),
    };
    if (row.kind === 'linked') {
      return { ...base, source: 'linked', codec: null, profile: null, width: null, height: null, fps: null, source_error: null };
    }
    if (row.kind === 'simulated') {
      const { codec, profile, width, height, fps } = SIMULATED_STREAM;
      return { ...base, source: 'simulated', codec, profile, width, height, fps, source_error: null };
    }
    const none = { codec: null, profile: null, width: null, height: null, fps: null };
    if (!conn.rtsp_url) return { ...base, source: null, ...none, source_error: 'no RTSP URL is configured' };
    try {
      const { url: given, key } = source(row, conn);
      const info = await this.probe.probe(key, await pinned(this.connections.guard, given));
      return { ...base, source: 'rtsp', codec: info.codec, profile: info.profile, width: info.width, height: info.height, fps: info.fps, source_error: null };
    } catch (err) {
      return { ...base, source: 'rtsp', ...none, source_error: err instanceof ProbeError ? err.message : 'the stream could not be read' };
    }
  }
}
