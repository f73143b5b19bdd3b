// Snapshots for the storages that ask for them (`snapshot_interval_seconds`): on every multiple of the
// interval (UTC, so every 60 s falls on the minute), a live snapshot of each device that is streaming
// or recording then is queued for the storage, JPEG and all. A slot the recorder was not running for
// is not made up afterwards; one whose timer fired late is still taken. Storages on the same slot share one snapshot of a device.
import type { DevicesService } from '../devices/index.js';
import type { RemoteStorages } from '../remote-storages/index.js';
import type { Snapshot, Snapshots } from '../snapshots/index.js';
import type { UploadQueue } from './upload-queue.js';

export interface SnapshotUploadsDeps {
  storages: Pick<RemoteStorages, 'targets'>;
  devices: Pick<DevicesService, 'list' | 'credentials'>;
  snapshots: Pick<Snapshots, 'current'>;
  queue: Pick<UploadQueue, 'addSnapshot'>;
  /** Called when snapshots were queued. */
  queued(): void;
  log: { warn(obj: object, msg: string): void };
}

/** How long a slot's snapshot of a device is shared with the other storages on that slot. */
const SHARE_MS = 60_000;
/** How far behind a late slot is still taken rather than let go. */
const CATCH_UP_MS = 60_000;

export class SnapshotUploads {
  private readonly schedules = new Map<string, { intervalS: number; timer: NodeJS.Timeout }>();
  private readonly taken = new Map<string, { at: number; shot: Promise<Snapshot | null> }>();
  private syncing: Promise<void> = Promise.resolve();
  private stopped = true;

  constructor(private readonly deps: SnapshotUploadsDeps) {}

  start(): void {
    this.stopped = false;
    this.storagesChanged();
  }

  storagesChanged(): void {
    if (this.stopped) return;
    this.syncing = this.syncing.then(() => this.sync()).catch((err) => this.deps.log.warn({ err }, 'reading the remote storages failed'));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.syncing;
    for (const s of this.schedules.values()) clearTimeout(s.timer);
    this.schedules.clear();
  }

  private async sync(): Promise<void> {
    const wanted = new Map<string, number>();
    for (const s of await this.deps.storages.targets()) {
      const every = s.config.snapshot_interval_seconds;
      if (typeof every === 'number' && every > 0) wanted.set(s.id, every);
    }
    if (this.stopped) return;
    for (const [id, schedule] of this.schedules) {
      if (wanted.get(id) === schedule.intervalS) continue;
      clearTimeout(schedule.timer);
      this.schedules.delete(id);
    }
    for (const [id, intervalS] of wanted) if (!this.schedules.has(id)) this.schedule(id, intervalS);
  }

  /**
   * Sets the storage's timer for its next slot: the one after `previous` when there was one, so a
   * timer that fired late (a busy event loop) skips no slot the recorder was running for; else, or
   * when that slot is more than CATCH_UP_MS behind (the machine was suspended), the next after now.
   */
  private schedule(storageId: string, intervalS: number, previous?: number): void {
    const ms = intervalS * 1000;
    const now = Date.now();
    let slot = previous === undefined ? 0 : previous + ms;
    if (slot < now - CATCH_UP_MS) slot = (Math.floor(now / ms) + 1) * ms;
    const timer = setTimeout(
      () => {
        this.schedule(storageId, intervalS, slot);
        // Fired more than CATCH_UP_MS late (the machine was suspended): that slot is let go too.
        if (Date.now() - slot <= CATCH_UP_MS) void this.take(storageId, new Date(slot));
      },
      Math.max(0, slot - now),
    );
    timer.unref();
    this.schedules.set(storageId, { intervalS, timer });
  }

  private async take(storageId: string, slot: Date): Promise<void> {
    const now = Date.now();
    for (const [key, t] of this.taken) if (now - t.at > SHARE_MS) this.taken.delete(key);
    let queued = 0;
    try {
      const devices = (await this.deps.devices.list()).filter((d) => d.state === 'streaming' || d.state === 'recording');
      for (const device of devices) {
        const key = `${device.id}@${slot.getTime()}`;
        let taken = this.taken.get(key);
        if (!taken) {
          const shot = this.deps.snapshots
            .current(device, 'main', () => this.deps.devices.credentials(device.id))
            .catch((err: Error) => {
              this.deps.log.warn({ deviceId: device.id, error: err.message }, 'no snapshot to upload');
              return null;
            });
          taken = { at: now, shot };
          this.taken.set(key, taken);
        }
        const shot = await taken.shot;
        if (!shot || this.stopped) continue;
        await this.deps.queue.addSnapshot(storageId, device.id, slot, shot.jpeg, shot.at);
        queued++;
      }
    } catch (err) {
      this.deps.log.warn({ err, storageId }, 'queueing snapshots failed');
    }
    if (queued) this.deps.queued();
  }
}
