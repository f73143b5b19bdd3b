// An instant as a wall clock in an IANA time zone shows it: year, month (1–12), day, hour (0–23),
// minute and second, from Intl's own time-zone data.
import { boundedMemo } from '../cache/index.js';

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** A formatter per zone: a pure memo, bounded (docs/architecture.md, Caches). */
const formatters = boundedMemo<Intl.DateTimeFormat>(1000);
const formatter = (timeZone: string): Intl.DateTimeFormat =>
  formatters(
    timeZone,
    () =>
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      }),
  );

/** The wall clock of `timeZone` at `at`. Throws a RangeError for a zone Intl does not know. */
export function wallClock(at: Date | number, timeZone: string): WallClock {
  const p: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(at)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return { year: p.year ?? 0, month: p.month ?? 1, day: p.day ?? 1, hour: p.hour ?? 0, minute: p.minute ?? 0, second: p.second ?? 0 };
}

/** How far the zone's clock is ahead of UTC at `ms` (taken to its whole second), in milliseconds. */
export function zoneOffsetMs(ms: number, timeZone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  const c = wallClock(whole, timeZone);
  return Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second) - whole;
}

/** Two digits, zero-padded. */
export const pad2 = (n: number): string => String(n).padStart(2, '0');
