// The exported clip's file name: its true start on the device's clock, as the recorder's UI and its
// people read time (the footage form takes the device's local time), never UTC.
import { pad2, wallClock } from '../../lib/time/wall-clock.js';

/** `footage-2026-05-01T10-00-00.mp4` for a clip starting at `start`, in `timeZone` (IANA). */
export function footageFileName(start: Date, timeZone: string): string {
  const c = wallClock(start, timeZone);
  return `footage-${c.year}-${pad2(c.month)}-${pad2(c.day)}T${pad2(c.hour)}-${pad2(c.minute)}-${pad2(c.second)}.mp4`;
}
