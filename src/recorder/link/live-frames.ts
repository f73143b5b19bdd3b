// What the link sends of a device's picture: a JPEG from its live stream (the first frame of the
// newest finished live segment, about a second old), or, without a live stream, the newest recorded
// frame; and its live playlist with bare segment names for the platform to ask for one by one.
// Asking starts the device's live stream when it has none (it does not record now): the platform asks
// only while someone watches, and the stream stops `idleMs` after the last question.
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { LIVE_SEGMENT, livePlaylistWith } from '../hls/index.js';
import { liveDir } from '../recording/index.js';
import { newestLiveSegment, type Snapshots } from '../snapshots/index.js';
import type { DevicesService } from '../devices/index.js';

/** Starts and holds devices' live streams on demand (the recording manager). */
export interface LiveDemand {
  /** The live stream runs for at least `holdMs` more; false when the device can have none. */
  watch(deviceId: string, holdMs: number): Promise<boolean>;
  /** Why the device's ffmpeg last failed, if it did. */
  failure(deviceId: string): string | null;
}

/** How long a first question waits for a starting stream: under the platform's 10 s request timeout. */
const START_WAIT_MS = 8000;
const POLL_MS = 100;
/** A snapshot alone holds a started stream this long (a viewer's questions hold it for `idleMs`). */
const SNAPSHOT_HOLD_MS = 10_000;

async function waitFor<T>(get: () => Promise<T | null>, ms: number): Promise<T | null> {
  const end = Date.now() + ms;
  for (;;) {
    const got = await get();
    if (got !== null || Date.now() >= end) return got;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

export class LiveFrames {
  constructor(
    private readonly storageRoot: string,
    private readonly snapshots: Snapshots,
    private readonly devices: DevicesService,
    private readonly demand: LiveDemand,
    private readonly idleMs: number,
  ) {}

  private dir(deviceId: string): string {
    return liveDir(this.storageRoot, deviceId, 'main');
  }

  /** Why the device has no live picture, in words, when its ffmpeg failed. */
  failure(deviceId: string): string | null {
    return this.demand.failure(deviceId);
  }

  /** The live playlist, its segments named as `live_segment` requests name them; null: no live picture. */
  async playlist(deviceId: string): Promise<string | null> {
    const read = () => livePlaylistWith(this.dir(deviceId), (name) => name);
    // Held through the wait too: a short idle time must not stop the stream before it is first seen.
    if (!(await this.demand.watch(deviceId, START_WAIT_MS + this.idleMs))) return read();
    return waitFor(read, START_WAIT_MS);
  }

  /** A live segment's bytes, or null when it has rolled out of the window (or never was). */
  async segment(deviceId: string, name: string): Promise<Buffer | null> {
    if (!LIVE_SEGMENT.test(name)) return null;
    await this.demand.watch(deviceId, this.idleMs);
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
    const ownSnapshot = device.type === 'ip' && Boolean(device.stream_config.snapshot_uri);
    if (!ownSnapshot && (await this.demand.watch(deviceId, START_WAIT_MS + SNAPSHOT_HOLD_MS))) {
      await waitFor(() => newestLiveSegment(this.dir(deviceId)), START_WAIT_MS);
    }
    const shot = await this.snapshots.current(device, 'main', () => this.devices.credentials(deviceId)).catch(() => null);
    return shot?.jpeg ?? null;
  }
}
