// Reads the times callers give the recordings endpoints: ISO 8601 (with or without an offset; none
// means UTC) or Unix seconds. Each answer keeps its precision, so "10:00:05" means the whole second
// 10:00:05.000–.999 and "10:00:05.120" exactly that millisecond. Anything else is a 400 naming the field.
import { validation } from '../../lib/errors.js';

export interface Instant {
  /** Epoch milliseconds of the start of the named span. */
  ms: number;
  /** Length of the span the caller named: 1 (milliseconds given), 1000 (seconds), 86 400 000 (a date). */
  precisionMs: number;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/;
const UNIX = /^\d{1,11}(?:\.(\d{1,3}))?$/;
/** 1970-01-01 … 9999-12-31: four-digit years, the span the index's text timestamps sort correctly in. */
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

export function parseTimestamp(field: string, raw: string): Instant {
  const value = raw.trim();
  const bad = () => validation(field, 'must be an ISO 8601 time (e.g. 2026-11-23T10:15:00Z) or Unix seconds, between 1970 and 9999');
  let ms: number;
  let precisionMs: number;
  const unix = UNIX.exec(value);
  if (unix) {
    ms = Math.round(Number(value) * 1000);
    precisionMs = unix[1] ? 10 ** (3 - unix[1].length) : 1000;
  } else {
    const m = ISO.exec(value);
    if (!m) throw bad();
    const [y, mo, d, h, mi, s, frac, zone] = [Number(m[1]), Number(m[2]), Number(m[3]), m[4], m[5], m[6], m[7], m[8]];
    if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) throw bad();
    const hh = h === undefined ? 0 : Number(h);
    const mm = mi === undefined ? 0 : Number(mi);
    const ss = s === undefined ? 0 : Number(s);
    if (hh > 23 || mm > 59 || ss > 59) throw bad();
    const fracMs = frac ? Number(frac.slice(0, 3).padEnd(3, '0')) : 0;
    let offsetMin = 0;
    if (zone && zone !== 'Z' && zone !== 'z') {
      const digits = zone.slice(1).replace(':', '');
      const oh = Number(digits.slice(0, 2));
      const om = digits.length > 2 ? Number(digits.slice(2)) : 0;
      if (oh > 14 || om > 59) throw bad();
      offsetMin = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
    }
    ms = Date.UTC(y, mo - 1, d, hh, mm, ss, fracMs) - offsetMin * 60_000;
    precisionMs = h === undefined ? 86_400_000 : frac ? Math.max(1, 10 ** (3 - Math.min(3, frac.length))) : s === undefined ? 60_000 : 1000;
  }
  if (!Number.isFinite(ms) || ms < 0 || ms > MAX_MS) throw bad();
  return { ms, precisionMs };
}

/** Path segments like "2026", "03", "7": whole numbers only, in range, else a 400 naming the field. */
export function parseCalendarPart(field: 'year' | 'month' | 'day', raw: string, max: number, min = 1): number {
  if (!/^\d{1,4}$/.test(raw)) throw validation(field, `must be a whole number from ${min} to ${max}`);
  const n = Number(raw);
  if (n < min || n > max) throw validation(field, `must be a whole number from ${min} to ${max}`);
  return n;
}
