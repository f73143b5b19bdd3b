// Turns "day D of month M in time zone Z" (or "hour H of a local day") into ranges of UTC 15-minute
// buckets, so the snapshot index can answer days/hours with one index probe per range. Exact because
// every offset in use is a whole number of quarter hours and zones change offset at quarter-hour
// instants; the offset changes (DST) are found with the runtime's own zone database (Intl).
import { boundedMemo } from '../../lib/cache/index.js';
import { zoneOffsetMs } from '../../lib/time/wall-clock.js';
import { BUCKET_MS, type BucketRange } from './snapshot-index.js';

const MINUTE = 60_000;
const DAY_MS = 86_400_000;
const BUCKETS_PER_HOUR = 4;
const BUCKETS_PER_DAY = 96;
/** Wider than any offset (−12:00 … +14:00), so a local day always lies inside its search window. */
const MARGIN_MS = 15 * 3_600_000;
/** Offsets are sampled this often; a zone never changes its offset twice within it. */
const SAMPLE_MS = 12 * 3_600_000;

/** A pure memo, bounded: ranges per zone and month or day (docs/architecture.md, Caches). */
const cached = boundedMemo<BucketRange[]>(2000);

/** Local time minus UTC, in minutes, at instant `ms`. */
export function offsetMinutes(tz: string, ms: number): number {
  return Math.round(zoneOffsetMs(ms, tz) / MINUTE);
}

interface Segment {
  start: number;
  end: number;
  offset: number;
}

/** [start, end) cut where the zone's offset changes, each piece with its offset. */
function segments(tz: string, start: number, end: number): Segment[] {
  const out: Segment[] = [];
  let segStart = start;
  let prevT = start;
  let prevOff = offsetMinutes(tz, start);
  for (let t = Math.min(start + SAMPLE_MS, end); ; t = Math.min(t + SAMPLE_MS, end)) {
    const off = offsetMinutes(tz, t);
    if (off !== prevOff) {
      // Binary search, to the minute, for the first instant with the new offset.
      let lo = prevT / MINUTE;
      let hi = t / MINUTE;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (offsetMinutes(tz, mid * MINUTE) === prevOff) lo = mid;
        else hi = mid;
      }
      out.push({ start: segStart, end: hi * MINUTE, offset: prevOff });
      segStart = hi * MINUTE;
      prevOff = off;
    }
    prevT = t;
    if (t >= end) break;
  }
  out.push({ start: segStart, end, offset: prevOff });
  return out;
}

/**
 * Ranges of UTC buckets grouped by local unit (a day = 96 buckets, an hour = 4) over [start, end),
 * labelled by `keyOf(local unit index)`; units it maps to null are left out.
 */
function localRanges(tz: string, start: number, end: number, unit: number, keyOf: (u: number) => number | null): BucketRange[] {
  const out: BucketRange[] = [];
  for (const s of segments(tz, start, end)) {
    const k = Math.round(s.offset / 15); // local bucket = UTC bucket + k
    const bLo = Math.ceil(s.start / BUCKET_MS);
    const bHi = Math.ceil(s.end / BUCKET_MS);
    if (bHi <= bLo) continue;
    for (let u = Math.floor((bLo + k) / unit); u <= Math.floor((bHi - 1 + k) / unit); u++) {
      const key = keyOf(u);
      if (key === null) continue;
      const lo = Math.max(bLo, u * unit - k);
      const hi = Math.min(bHi, (u + 1) * unit - k);
      const last = out[out.length - 1];
      if (last && last.key === key && last.hi === lo) last.hi = hi;
      else out.push({ key, lo, hi });
    }
  }
  return out;
}

/** The UTC buckets of each local day of a month, keyed by day of month (1…31). */
export function dayRanges(tz: string, year: number, month: number): BucketRange[] {
  return cached(`${tz}|${year}|${month}`, () => {
    const first = Date.UTC(year, month - 1, 1);
    const next = Date.UTC(year, month, 1);
    return localRanges(tz, first - MARGIN_MS, next + MARGIN_MS, BUCKETS_PER_DAY, (u) => {
      const d = new Date(u * DAY_MS);
      return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 ? d.getUTCDate() : null;
    });
  });
}

/** The UTC buckets of each local hour of a day, keyed by hour (0…23); a repeated hour (DST end) has two ranges. */
export function hourRanges(tz: string, year: number, month: number, day: number): BucketRange[] {
  return cached(`${tz}|${year}|${month}|${day}`, () => {
    const midnight = Date.UTC(year, month - 1, day);
    const localDay = midnight / DAY_MS;
    return localRanges(tz, midnight - MARGIN_MS, midnight + DAY_MS + MARGIN_MS, BUCKETS_PER_HOUR, (u) =>
      Math.floor(u / 24) === localDay ? u - localDay * 24 : null,
    );
  });
}
