// What the link sends of a device's picture: a JPEG from its live stream (the first frame of the
// newest finished live segment, about a second old), or, without a live stream, the newest recorded
// frame; and its live playlist with bare segment names for the platform to ask for one by one.
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { LIVE_SEGMENT, livePlaylistWith } from '../hls/index.js';
import { liveDir } from '../recording/index.js';
import type { Snapshots } from '../snapshots/index.js';
import type { DevicesService } from '../devices/index.js';

export class LiveFrames {
  constructor(
    private readonly storageRoot: string,
    private readonly snapshots: Snapshots,
    private readonly devices: DevicesService,
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

  /** A JPEG of the device now, as the recorder's own snapshot answers it (snapshots.ts); null: none. */
  async jpeg(deviceId: string): Promise<Buffer | null> {
    const device = await this.devices.get(deviceId).catch(() => null);
    if (!device) return null;
    const shot = await this.snapshots.current(device, 'main', () => this.devices.credentials(deviceId)).catch(() => null);
    return shot?.jpeg ?? null;
  }
}
