// Strict ISO 8601 instants for ANPR filters and capture times: `Date.parse` alone takes "1" for 2001
// and rolls 30 February over to March, so the text is matched first and its fields checked back.
import { validation } from '../../lib/errors.js';

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2}))?$/i;

/** The instant as an ISO-8601 UTC string, or null. A date alone is midnight UTC; a time needs a zone (Z or ±hh:mm). */
export function parseInstant(text: string): string | null {
  const m = ISO.exec(text);
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  const t = Date.parse(m[4] === undefined ? `${y}-${mo}-${d}T00:00:00Z` : text.replace(' ', 'T'));
  if (Number.isNaN(t) || year < 1970) return null;
  return new Date(t).toISOString();
}

export function instantOrFail(text: string, field: string): string {
  const at = parseInstant(text);
  if (!at) throw validation(field, 'must be an ISO 8601 date-time with a zone (e.g. 2026-11-23T08:15:00Z) or a date (2026-11-23)');
  return at;
}

/** A `from`/`to` range (both inclusive), checked in order. */
export function rangeOrFail(from?: string, to?: string): { from?: string; to?: string } {
  const range = { from: from === undefined ? undefined : instantOrFail(from, 'from'), to: to === undefined ? undefined : instantOrFail(to, 'to') };
  if (range.from && range.to && range.from > range.to) throw validation('from', 'must not be after to');
  return range;
}
