// Keeps one DeviceRecorder running for each device that should be recording now (mode `always` and,
// when it has one, inside its weekly schedule), checks schedules every 30 s, and applies the
// full-drive rule. A device someone watches (through the platform link) and that does not record now
// gets a live-only one, until nobody has asked for its live view for the hold time (docs/site-link.md).
import { statfs } from 'node:fs/promises';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { SegmentIndex } from '../recordings/index.js';
import { type Device, scheduleOpen, type SourceSpec } from '../devices/index.js';
import { DeviceRecorder, type RecorderDeps } from './device-recorder.js';

export interface DeviceSource {
  device: Device;
  source: SourceSpec | null;
}

export class RecordingManager {
  private readonly recorders = new Map<string, DeviceRecorder>();
  /** Devices whose live view is wanted: when that ends, and the timer that ends it. */
  private readonly watched = new Map<string, { until: number; timer: NodeJS.Timeout }>();
  /** Each device's changes, one after the other (a watch, a schedule check and an edit may come at once). */
  private readonly queues = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: RecorderDeps & { index: SegmentIndex },
    private readonly loadDevices: () => Promise<DeviceSource[]>,
    private readonly loadDevice: (id: string) => Promise<DeviceSource | null>,
  ) {}

  shouldRecord(d: Device, at = new Date()): boolean {
    return d.storage_config.recording_mode === 'always' && scheduleOpen(d.storage_config.schedule, d.timezone, at);
  }

  async startAll(): Promise<void> {
    for (const ds of await this.loadDevices()) await this.apply(ds);
    this.timer = setInterval(() => void this.tick(), 30_000);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    try {
      for (const ds of await this.loadDevices()) await this.inTurn(ds.device.id, () => this.apply(ds));
      await this.enforceFullDrive();
    } catch (err) {
      this.deps.log.warn({ err }, 'recording check failed');
    }
  }

  /** Starts or stops the device's recorder to match its settings; called on every device change. */
  async refresh(deviceId: string): Promise<void> {
    await this.inTurn(deviceId, async () => {
      const ds = await this.loadDevice(deviceId);
      await this.stop(deviceId);
      if (ds) await this.apply(ds);
    });
  }

  /**
   * Someone watches the device's live view: its live stream runs for at least `holdMs` more, whether
   * it records or not. False when it can have none (live view off, no such device, no source).
   */
  async watch(deviceId: string, holdMs: number): Promise<boolean> {
    if (!this.deps.live) return false;
    const until = Date.now() + holdMs;
    const was = this.watched.get(deviceId);
    if (!was || was.until < until) {
      if (was) clearTimeout(was.timer);
      const timer = setTimeout(() => this.unwatch(deviceId), holdMs);
      timer.unref();
      this.watched.set(deviceId, { until, timer });
    }
    if (was && this.recorders.has(deviceId)) return true;
    return this.inTurn(deviceId, async () => {
      const ds = await this.loadDevice(deviceId);
      if (ds) await this.apply(ds);
      return this.recorders.has(deviceId);
    });
  }

  /** Why the device's ffmpeg last failed, when it is running and has (null otherwise). */
  failure(deviceId: string): string | null {
    return this.recorders.get(deviceId)?.failure ?? null;
  }

  private unwatch(deviceId: string): void {
    this.watched.delete(deviceId);
    void this.inTurn(deviceId, async () => {
      const ds = await this.loadDevice(deviceId);
      if (ds) await this.apply(ds);
      else await this.stop(deviceId);
    }).catch((err) => this.deps.log.warn({ err, deviceId }, 'stopping a live view nobody watches failed'));
  }

  private inTurn<T>(deviceId: string, fn: () => Promise<T>): Promise<T> {
    const before = this.queues.get(deviceId) ?? Promise.resolve();
    const run = before.then(fn);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(deviceId, settled);
    void settled.then(() => {
      if (this.queues.get(deviceId) === settled) this.queues.delete(deviceId);
    });
    return run;
  }

  private async apply({ device, source }: DeviceSource): Promise<void> {
    let running = this.recorders.get(device.id);
    const record = source !== null && this.shouldRecord(device);
    const liveOnly = !record && source !== null && this.deps.live !== undefined && this.watched.has(device.id);
    if (running && running.record !== record && !(liveOnly && !running.record)) {
      await this.stop(device.id);
      running = undefined;
    }
    if ((record || liveOnly) && !running && source) {
      const r = new DeviceRecorder(device.id, 'main', source, this.deps, record);
      this.recorders.set(device.id, r);
      r.start();
    } else if (!record && !liveOnly && running) {
      await this.stop(device.id);
    }
    if (!record && device.state !== 'stopped' && !this.recorders.get(device.id)?.record) {
      await this.deps.setState(device.id, 'stopped', null);
    }
  }

  async stop(deviceId: string): Promise<void> {
    const r = this.recorders.get(deviceId);
    if (!r) return;
    this.recorders.delete(deviceId);
    await r.stop();
  }

  async stopAll(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    for (const w of this.watched.values()) clearTimeout(w.timer);
    this.watched.clear();
    await Promise.all([...this.recorders.keys()].map((id) => this.stop(id)));
  }

  running(): { deviceId: string; pid: number | undefined; segments: number }[] {
    return [...this.recorders.values()].map((r) => ({ deviceId: r.deviceId, pid: r.pid, segments: r.segmentsWritten }));
  }

  /** Above the lowest device threshold with `overwrite`: delete the oldest segments until below it. */
  async enforceFullDrive(): Promise<number> {
    const devices = (await this.loadDevices()).map((d) => d.device).filter((d) => d.storage_config.full_drive_action === 'overwrite');
    if (devices.length === 0) return 0;
    const threshold = Math.min(...devices.map((d) => d.storage_config.full_drive_threshold));
    let removed = 0;
    for (let round = 0; round < 100; round++) {
      const fs = await statfs(this.deps.storageRoot);
      const used = 100 * (1 - fs.bavail / fs.blocks);
      if (used < threshold) break;
      const oldest = await this.deps.index.oldest(20);
      if (oldest.length === 0) break;
      for (const s of oldest) {
        await rm(join(this.deps.storageRoot, s.path), { force: true });
        await this.deps.index.remove(s.id);
        removed++;
      }
    }
    if (removed) this.deps.log.info({ removed }, 'full drive: oldest segments deleted');
    return removed;
  }
}
