// Local dates and hours in an IANA time zone, for day reports and per-hour counts.
import { pad2, wallClock, zoneOffsetMs } from '../../lib/time/wall-clock.js';

/** The instant local midnight of `date` (YYYY-MM-DD) begins in the zone. */
export function localMidnight(date: string, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  const first = guess - zoneOffsetMs(guess, timeZone);
  return guess - zoneOffsetMs(first, timeZone);
}

/** The local date (YYYY-MM-DD) and hour (0–23) of an instant. */
export function localDateHour(ms: number, timeZone: string): { date: string; hour: number } {
  const p = wallClock(ms, timeZone);
  return { date: `${p.year}-${pad2(p.month)}-${pad2(p.day)}`, hour: p.hour };
}
