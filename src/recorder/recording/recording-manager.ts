// Keeps one DeviceRecorder running for each device that should be recording now (mode `always` and,
// when it has one, inside its weekly schedule), checks schedules every 30 s, and applies the
// full-drive rule.
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
      for (const ds of await this.loadDevices()) await this.apply(ds);
      await this.enforceFullDrive();
    } catch (err) {
      this.deps.log.warn({ err }, 'recording check failed');
    }
  }

  /** Starts or stops the device's recorder to match its settings; called on every device change. */
  async refresh(deviceId: string): Promise<void> {
    const ds = await this.loadDevice(deviceId);
    if (!ds) return this.stop(deviceId);
    await this.stop(deviceId);
    await this.apply(ds);
  }

  private async apply({ device, source }: DeviceSource): Promise<void> {
    const running = this.recorders.get(device.id);
    const want = source !== null && this.shouldRecord(device);
    if (want && !running) {
      const r = new DeviceRecorder(device.id, 'main', source, this.deps);
      this.recorders.set(device.id, r);
      r.start();
    } else if (!want && running) {
      await this.stop(device.id);
    } else if (!want && device.state !== 'stopped') {
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
