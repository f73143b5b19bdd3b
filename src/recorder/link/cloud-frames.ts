// Takes the platform's cloud frames on the recorder's own clock, from the schedules the platform
// last sent (kept in the database, so frames go on while the platform is unreachable): a device with
// `frequency` frames a minute gets one at every slot of 60/frequency seconds, when its weekly
// schedule is open in the schedule's time zone. Each frame goes into the outbox.
import type { FrameSchedule } from '../../lib/site-link/protocol.js';
import { type DevicesService, scheduleOpen } from '../devices/index.js';
import type { LiveFrames } from './live-frames.js';
import type { Outbox } from './outbox.js';

const TICK_MS = 250;

/** The platform names weekdays in full (`monday`); the recorder's schedule check reads the first three letters. */
function weekly(schedule: FrameSchedule['schedule']): Record<string, string[]> | null {
  if (schedule === null) return null;
  const out: Record<string, string[]> = {};
  for (const [day, windows] of Object.entries(schedule)) out[day.slice(0, 3).toLowerCase()] = windows;
  return out;
}

export class CloudFrames {
  private schedules: FrameSchedule[] = [];
  private readonly lastSlot = new Map<string, number>();
  private readonly busy = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: {
      devices: DevicesService;
      live: LiveFrames;
      outbox: Outbox;
      log: { warn(obj: object, msg: string): void };
      now?: () => number;
    },
  ) {}

  setSchedules(schedules: FrameSchedule[]): void {
    this.schedules = schedules;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.lastSlot.clear();
  }

  /** Whether a frame is owed now; each slot is taken once. */
  private due(s: FrameSchedule, now: number): boolean {
    if (s.frequency <= 0) return false;
    const slot = Math.floor(now / (60_000 / s.frequency));
    const last = this.lastSlot.get(s.device_id);
    if (last === slot) return false;
    this.lastSlot.set(s.device_id, slot);
    try {
      return scheduleOpen(weekly(s.schedule), s.timezone, new Date(now));
    } catch {
      // A time zone this machine does not know: no frames rather than a crash on every tick.
      return false;
    }
  }

  private tick(): void {
    const now = this.deps.now?.() ?? Date.now();
    for (const s of this.schedules) {
      if (this.busy.has(s.device_id) || !this.due(s, now)) continue;
      this.busy.add(s.device_id);
      void this.take(s.device_id, new Date(now)).finally(() => this.busy.delete(s.device_id));
    }
  }

  private async take(deviceId: string, at: Date): Promise<void> {
    try {
      if (!(await this.deps.devices.exists(deviceId))) return;
      if (!(await this.deps.devices.get(deviceId)).share_with_platform) return;
      const jpeg = await this.deps.live.jpeg(deviceId);
      if (!jpeg) return;
      await this.deps.outbox.addFrame(deviceId, at, jpeg);
    } catch (err) {
      this.deps.log.warn({ err, deviceId }, 'platform link: taking a cloud frame failed');
    }
  }
}
