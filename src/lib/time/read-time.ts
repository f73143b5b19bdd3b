// The one reader of times that clients send (docs/security.md, "Times"). `Date.parse` takes "1" as
// 2001, "12/25/2026" as a US date and rolls "2026-02-30" over to 2 March, so the text is matched
// against an ISO 8601 pattern and every field checked against the calendar: no 30 February, no hour
// 24, no leap second. A fraction is kept to the millisecond.
//
// Endpoints differ in what they have always accepted, so each family has a named grammar here:
// - RFC 3339 (`parseRfc3339`): a full date-time with seconds and a zone; audit, keys, the recorder.
// - Recordings (`parseTimestamp`): ISO 8601 with or without a time, seconds or zone (none: UTC),
//   or Unix seconds; the answer keeps the precision the caller gave.
// - Instants (`parseInstant`, `instantOrFail`, `rangeOrFail`): a date alone (midnight UTC) or a
//   date-time with a zone; ANPR and comments.
// - Instants or Unix seconds (`unixOrInstant`, `unixOrInstantRange`): BIM's `{datetime}` and filters.
import { validation } from '../errors.js';

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:([Tt ])(\d{2}):(\d{2})(?::(\d{2})(?:([.,])(\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;
const OFFSET = /^([+-])(\d{2})(?::?(\d{2}))?$/;
const DAY_MS = 86_400_000;
/** The last millisecond of 9999, the end of four-digit years. */
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (year: number, month: number) => DAYS[month - 1]! + (month === 2 && isLeap(year) ? 1 : 0);

interface TimeGrammar {
  /** Characters allowed between the date and the time. */
  separators: string;
  /** A date alone, read as midnight UTC. */
  dateOnly: boolean;
  seconds: 'required' | 'optional';
  fractionSeparators: string;
  /** After a time; when optional, none means UTC. */
  zone: 'required' | 'optional';
  /** `±HH:MM` only, also `±HHMM`, or also `±HH`. */
  offsets: 'colon' | 'minutes' | 'hours';
  maxOffsetHours: number;
  /** Whether the year as written or the instant read must lie in 1970–9999, or neither. */
  within: 'year-from-1970' | 'instant-1970-to-9999' | 'any';
}

const RFC3339: TimeGrammar = {
  separators: 'Tt',
  dateOnly: false,
  seconds: 'required',
  fractionSeparators: '.',
  zone: 'required',
  offsets: 'colon',
  maxOffsetHours: 23,
  within: 'any',
};
const RECORDINGS: TimeGrammar = {
  separators: 'T ',
  dateOnly: true,
  seconds: 'optional',
  fractionSeparators: '.,',
  zone: 'optional',
  offsets: 'hours',
  maxOffsetHours: 14,
  within: 'instant-1970-to-9999',
};
const INSTANT: TimeGrammar = {
  separators: 'Tt ',
  dateOnly: true,
  seconds: 'optional',
  fractionSeparators: '.',
  zone: 'required',
  offsets: 'minutes',
  maxOffsetHours: 23,
  within: 'year-from-1970',
};

/** Start of the span a text names, in epoch ms, and the span's length; null when the grammar refuses it. */
function readDateTime(text: string, g: TimeGrammar): { ms: number; precisionMs: number } | null {
  const m = DATE_TIME.exec(text);
  if (!m) return null;
  const [, y, mo, d, sep, h, mi, s, fracSep, frac, zone] = m;
  const [year, month, day] = [Number(y), Number(mo), Number(d)];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (sep === undefined) {
    if (!g.dateOnly) return null;
  } else if (!g.separators.includes(sep)) return null;
  if (s === undefined && sep !== undefined && g.seconds === 'required') return null;
  if (fracSep !== undefined && !g.fractionSeparators.includes(fracSep)) return null;
  if (sep !== undefined && zone === undefined && g.zone === 'required') return null;
  const [hour, minute, second] = [Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return null;
  const offsetMinutes = zone === undefined || zone === 'Z' || zone === 'z' ? 0 : readOffset(zone, g);
  if (offsetMinutes === null) return null;
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, frac ? Number(frac.slice(0, 3).padEnd(3, '0')) : 0);
  const ms = utc.getTime() - offsetMinutes * 60_000;
  if (g.within === 'year-from-1970' && year < 1970) return null;
  if (g.within === 'instant-1970-to-9999' && (ms < 0 || ms > MAX_MS)) return null;
  const precisionMs = sep === undefined ? DAY_MS : frac ? 10 ** (3 - Math.min(3, frac.length)) : s === undefined ? 60_000 : 1000;
  return { ms, precisionMs };
}

function readOffset(zone: string, g: TimeGrammar): number | null {
  const [, sign, hh, mm] = OFFSET.exec(zone) ?? [];
  if (!sign) return null;
  if (g.offsets === 'colon' && zone.length !== 6) return null;
  if (g.offsets === 'minutes' && mm === undefined) return null;
  const [hours, minutes] = [Number(hh), Number(mm ?? 0)];
  if (hours > g.maxOffsetHours || minutes > 59) return null;
  return (sign === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/** The instant an RFC 3339 date-time names, or null when the text is not one. */
export function parseRfc3339(text: string): Date | null {
  if (typeof text !== 'string' || text.length > 40) return null;
  const t = readDateTime(text, RFC3339);
  return t && new Date(t.ms);
}

export interface Instant {
  /** Epoch milliseconds of the start of the named span. */
  ms: number;
  /** Length of the span the caller named: 1 (milliseconds given), 1000 (seconds), 86 400 000 (a date). */
  precisionMs: number;
}

const UNIX_WITH_MS = /^\d{1,11}(?:\.(\d{1,3}))?$/;

/** A recordings time: ISO 8601 (no zone means UTC) or Unix seconds; else a 400 naming the field. */
export function parseTimestamp(field: string, raw: string): Instant {
  const value = raw.trim();
  const unix = UNIX_WITH_MS.exec(value);
  const t = unix ? { ms: Math.round(Number(value) * 1000), precisionMs: unix[1] ? 10 ** (3 - unix[1].length) : 1000 } : readDateTime(value, RECORDINGS);
  if (!t) throw validation(field, 'must be an ISO 8601 time (e.g. 2026-11-23T10:15:00Z) or Unix seconds, between 1970 and 9999');
  return t;
}

/** The instant as an ISO-8601 UTC string, or null. A date alone is midnight UTC; a time needs a zone (Z or ±hh:mm). */
export function parseInstant(text: string): string | null {
  const t = readDateTime(text, INSTANT);
  return t && new Date(t.ms).toISOString();
}

export function instantOrFail(text: string, field: string): string {
  const at = parseInstant(text);
  if (!at) throw validation(field, 'must be an ISO 8601 date-time with a zone (e.g. 2026-11-23T08:15:00Z) or a date (2026-11-23)');
  return at;
}

/** A `from`/`to` range (both inclusive), checked in order. */
export function rangeOrFail(from?: string, to?: string): { from?: string; to?: string } {
  return ordered({ from: from === undefined ? undefined : instantOrFail(from, 'from'), to: to === undefined ? undefined : instantOrFail(to, 'to') });
}

const UNIX_SECONDS = /^\d{1,12}$/;
const MAX_SECONDS = Math.floor(MAX_MS / 1000);

/** Unix seconds (0 to the end of 9999) or an instant as `parseInstant` reads it, as an ISO-8601 UTC string. */
export function unixOrInstant(value: string | number, field: string): string {
  if (typeof value === 'number' || UNIX_SECONDS.test(value)) {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0 || n > MAX_SECONDS) throw validation(field, `must be Unix seconds (0 to ${MAX_SECONDS}) or an ISO 8601 date-time`);
    return new Date(n * 1000).toISOString();
  }
  const at = parseInstant(value);
  if (!at) throw validation(field, 'must be an ISO 8601 date-time with a zone (2026-11-23T08:15:00Z), a date (2026-11-23) or Unix seconds');
  return at;
}

export function unixOrInstantRange(from: string | undefined, to: string | undefined): { from?: string; to?: string } {
  return ordered({ from: from === undefined ? undefined : unixOrInstant(from, 'from'), to: to === undefined ? undefined : unixOrInstant(to, 'to') });
}

function ordered(range: { from?: string; to?: string }): { from?: string; to?: string } {
  if (range.from && range.to && range.from > range.to) throw validation('from', 'must not be after to');
  return range;
}
