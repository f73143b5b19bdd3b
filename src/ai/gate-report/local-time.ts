// Local dates and hours in an IANA time zone, for day reports and per-hour counts.
import { pad2, wallClock } from '../../lib/time/wall-clock.js';

/** How far the zone's clock is ahead of UTC at `ms`, in milliseconds. */
function offset(ms: number, timeZone: string): number {
  const p = wallClock(ms, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

/** The instant local midnight of `date` (YYYY-MM-DD) begins in the zone. */
export function localMidnight(date: string, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  const first = guess - offset(guess, timeZone);
  return guess - offset(first, timeZone);
}

/** The local date (YYYY-MM-DD) and hour (0–23) of an instant. */
export function localDateHour(ms: number, timeZone: string): { date: string; hour: number } {
  const p = wallClock(ms, timeZone);
  return { date: `${p.year}-${pad2(p.month)}-${pad2(p.day)}`, hour: p.hour };
}
