// JPEG snapshots: live (the camera's own snapshot URI, else the newest live HLS segment, else the
// newest recorded frame) or at a time from the recordings, either the keyframe at or before it
// (`before`, fast) or the exact frame (`precise`).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { ApiError } from '../../lib/errors.js';
import type { SegmentIndex } from '../recordings/index.js';
import type { Device } from '../devices/index.js';
import { keyframeTimes, liveDir } from '../recording/index.js';
import { newestLiveSegment } from './live-segment.js';

export interface Snapshot {
  jpeg: Buffer;
  /** The time of the frame shown. */
  at: Date;
}

/**
 * The frame `offsetS` into a segment. ffmpeg cannot seek reliably inside a short MPEG-TS file (it may
 * land past the last keyframe and produce nothing), so it seeks to the keyframe at or before the frame
 * and decodes forward from there.
 */
async function frameAt(tools: { ffmpeg: string; ffprobe: string }, file: string, offsetS: number): Promise<Buffer> {
  const keyframe = (await keyframeTimes({ ffprobe: tools.ffprobe }, file)).filter((k) => k <= offsetS + 0.0005).pop() ?? 0;
  return jpegFrame(tools.ffmpeg, file, keyframe, Math.max(0, offsetS - keyframe));
}

/** One frame as JPEG: ffmpeg seeks to `seekS` (a keyframe) in the input, then decodes `thenS` further. */
function jpegFrame(ffmpeg: string, file: string, seekS: number, thenS: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      ffmpeg,
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-ss',
        seekS.toFixed(3),
        '-i',
        file,
        '-ss',
        thenS.toFixed(3),
        '-frames:v',
        '1',
        '-f',
        'image2',
        '-c:v',
        'mjpeg',
        '-q:v',
        '3',
        'pipe:1',
      ],
      { encoding: 'buffer', maxBuffer: 32 * 1024 * 1024, timeout: 20_000 },
      (err, stdout) =>
        err || stdout.length === 0 ? reject(err ?? new Error(`ffmpeg found no frame ${(seekS + thenS).toFixed(3)} s into ${file}`)) : resolve(stdout),
    );
  });
}

/** A recorded segment ffmpeg cannot get a frame from (a source that is no video, a damaged file): a 503, never a 500. */
async function decoded<T>(what: Promise<T>): Promise<T> {
  try {
    return await what;
  } catch {
    throw new ApiError('SERVICE_UNAVAILABLE', 'No frame could be decoded from the recording; the source may not be a video ffmpeg can read', {
      headers: { 'retry-after': '5' },
    });
  }
}

export class Snapshots {
  constructor(
    private readonly index: SegmentIndex,
    private readonly storageRoot: string,
    private readonly tools: { ffmpeg: string; ffprobe: string },
  ) {}

  /** The camera's own snapshot, when it has a snapshot URI. */
  private async fromCamera(uri: string, creds: { username?: string; password?: string }): Promise<Snapshot> {
    const headers: Record<string, string> = creds.username
      ? { authorization: `Basic ${Buffer.from(`${creds.username}:${creds.password ?? ''}`).toString('base64')}` }
      : {};
    let res: Response;
    try {
      res = await fetch(uri, { headers, signal: AbortSignal.timeout(5000), redirect: 'error' });
    } catch (err) {
      throw new ApiError('BAD_GATEWAY', `The camera's snapshot URI did not answer: ${(err as Error).message}`);
    }
    if (!res.ok || !(res.headers.get('content-type') ?? '').startsWith('image/'))
      throw new ApiError('BAD_GATEWAY', `The camera's snapshot URI answered HTTP ${res.status}`);
    return { jpeg: Buffer.from(await res.arrayBuffer()), at: new Date() };
  }

  /**
   * A live snapshot of a device: its camera's own snapshot URI when it has one, else the first frame
   * of the newest live HLS segment (there within seconds of the device starting), else the newest
   * recorded frame (the live view is off, or the device is not streaming now).
   */
  async current(device: Device, stream: string, credentials: () => Promise<{ username?: string; password?: string }>): Promise<Snapshot> {
    if (device.type === 'ip' && device.stream_config.snapshot_uri) return this.fromCamera(device.stream_config.snapshot_uri, await credentials());
    return (await this.live(device.id, stream)) ?? this.latest(device.id, stream);
  }

  /** The first frame of the newest live segment (segments start on a keyframe), or null when there is none to read. */
  private async live(deviceId: string, stream: string): Promise<Snapshot | null> {
    const seg = await newestLiveSegment(liveDir(this.storageRoot, deviceId, stream));
    if (!seg) return null;
    try {
      return { jpeg: await jpegFrame(this.tools.ffmpeg, seg.file, 0, 0), at: seg.at };
    } catch {
      // Rolled away or cut short by a restarting ffmpeg: the recording still has a frame.
      return null;
    }
  }

  /** The newest recorded frame (half a second before the end of the newest segment). */
  private async latest(deviceId: string, stream: string): Promise<Snapshot> {
    const [seg] = await this.index.latest(deviceId, stream, 1);
    if (!seg) throw new ApiError('NOT_FOUND', 'Nothing recorded yet for this device');
    const offset = Math.max(0, seg.duration_ms / 1000 - 0.5);
    return { jpeg: await decoded(frameAt(this.tools, join(this.storageRoot, seg.path), offset)), at: new Date(Date.parse(seg.start_date) + offset * 1000) };
  }

  async at(deviceId: string, stream: string, time: Date, method: 'before' | 'precise'): Promise<Snapshot> {
    const iso = time.toISOString();
    const [seg] = await this.index.overlapping(deviceId, stream, iso, new Date(time.getTime() + 1).toISOString(), 1);
    if (!seg || seg.start_date > iso) throw new ApiError('NOT_FOUND', `Nothing was recorded at ${iso}`);
    const file = join(this.storageRoot, seg.path);
    let offset = (time.getTime() - Date.parse(seg.start_date)) / 1000;
    if (method === 'before') {
      const kfs = await decoded(keyframeTimes({ ffprobe: this.tools.ffprobe }, file));
      offset = kfs.filter((k) => k <= offset + 0.0005).pop() ?? 0;
    }
    return { jpeg: await decoded(frameAt(this.tools, file, offset)), at: new Date(Date.parse(seg.start_date) + Math.round(offset * 1000)) };
  }
}
