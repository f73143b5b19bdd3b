// Which recorded frames a clip or timelapse uses: those in the time range, inside the daily schedule
// (local hours and weekdays in the camera's time zone), thinned evenly to at most `max` frames so a
// year-long timelapse reads a bounded number of JPEGs.
import { type SnapshotEntry, type SnapshotIndex, offsetMinutes } from '../recordings/index.js';

export interface DailySchedule {
  /** Local start of the window, HH:MM (inclusive). */
  from: string;
  /** Local end of the window, HH:MM (exclusive); earlier than `from` means the window crosses midnight. */
  to: string;
  /** Local weekdays kept, 0 = Sunday … 6 = Saturday; omitted: every day. */
  days?: number[];
}

export const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether the instant falls in the schedule, read in the time zone `tz`. */
function inSchedule(s: DailySchedule, tz: string, ms: number): boolean {
  const local = new Date(ms + offsetMinutes(tz, ms) * 60_000);
  const minute = local.getUTCHours() * 60 + local.getUTCMinutes();
  if (s.days && !s.days.includes(local.getUTCDay())) return false;
  const lo = minutesOf(s.from);
  const hi = minutesOf(s.to);
  return lo <= hi ? minute >= lo && minute < hi : minute >= lo || minute < hi;
}

/** Local wall-clock text of an instant, for the timestamp overlay: YYYY-MM-DD HH:MM:SS. */
export function localStamp(tz: string, ms: number): string {
  return new Date(ms + offsetMinutes(tz, ms) * 60_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** Evenly spaced picks of at most `max` items, always keeping the first and the last. */
function thin<T>(items: T[], max: number): T[] {
  if (items.length <= max) return items;
  if (max <= 1) return items.slice(0, 1);
  const out: T[] = [];
  for (let i = 0; i < max; i++) out.push(items[Math.round((i * (items.length - 1)) / (max - 1))]!);
  return out;
}

/** The frames of [from, to] inside the schedule, thinned to `max`. Reads the index a page at a time. */
export async function selectFrames(
  index: SnapshotIndex,
  camera: { id: string; timezone: string },
  range: { from: string; to: string; schedule?: DailySchedule | null },
  max: number,
): Promise<SnapshotEntry[]> {
  const kept: SnapshotEntry[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await index.list(camera.id, { from: range.from, to: range.to, order: 'asc', after, limit: 1000 });
    for (const e of page) if (!range.schedule || inSchedule(range.schedule, camera.timezone, Date.parse(e.takenAt))) kept.push(e);
    if (page.length < 1000) break;
    after = page[page.length - 1]!.takenAt;
    // Keep memory bounded on huge ranges: thin as we go (a little coarser than one final pass).
    if (kept.length > max * 4) kept.splice(0, kept.length, ...thin(kept, max * 2));
  }
  return thin(kept, max);
}
