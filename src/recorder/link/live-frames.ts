// What the link sends of a device's picture: a JPEG from its live stream (the first frame of the
// newest finished live segment, about a second old), or, without a live stream, the newest recorded
// frame; and its live playlist with bare segment names for the platform to ask for one by one.
import { execFile } from 'node:child_process';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { LIVE_SEGMENT, livePlaylistWith } from '../hls/live-playlist.js';
import { liveDir } from '../recording/segment-layout.js';
import type { Snapshots } from '../snapshots/snapshots.js';

export class LiveFrames {
  constructor(
    private readonly storageRoot: string,
    private readonly ffmpeg: string,
    private readonly snapshots: Snapshots,
  ) {}

  private dir(deviceId: string): string {
    return liveDir(this.storageRoot, deviceId, 'main');
  }

  /** The live playlist, its segments named as `live_segment` requests name them; null: not streaming. */
  playlist(deviceId: string): Promise<string | null> {
    return livePlaylistWith(this.dir(deviceId), (name) => name);
  }

  /** A live segment's bytes, or null when it has rolled out of the window (or never was). */
  async segment(deviceId: string, name: string): Promise<Buffer | null> {
    if (!LIVE_SEGMENT.test(name)) return null;
    // Opened first: ffmpeg may delete it the next moment, and an open file stays readable.
    const fh = await open(join(this.dir(deviceId), name), 'r').catch(() => null);
    if (!fh) return null;
    try {
      return await fh.readFile();
    } finally {
      await fh.close();
    }
  }

  /** A JPEG of the device now: from the live stream, else the newest recorded frame; null: none. */
  async jpeg(deviceId: string): Promise<Buffer | null> {
    const list = await this.playlist(deviceId);
    const newest = list
      ?.split('\n')
      .filter((l) => LIVE_SEGMENT.test(l))
      .pop();
    if (newest) {
      const bytes = await this.segment(deviceId, newest);
      if (bytes) {
        const jpeg = await this.firstFrame(bytes).catch(() => null);
        if (jpeg) return jpeg;
      }
    }
    return (await this.snapshots.latest(deviceId, 'main').catch(() => null))?.jpeg ?? null;
  }

  private firstFrame(ts: Buffer): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const child = execFile(
        this.ffmpeg,
        ['-hide_banner', '-loglevel', 'error', '-f', 'mpegts', '-i', 'pipe:0', '-frames:v', '1', '-f', 'image2', '-c:v', 'mjpeg', '-q:v', '4', 'pipe:1'],
        { encoding: 'buffer', maxBuffer: 16 * 1024 * 1024, timeout: 15_000 },
        (err, stdout) => (err || stdout.length === 0 ? reject(err ?? new Error('no frame in the live segment')) : resolve(stdout)),
      );
      // ffmpeg stops reading after its frame: the rest of the segment may meet a closed pipe.
      child.stdin?.on('error', () => {});
      child.stdin?.end(ts);
    });
  }
}
