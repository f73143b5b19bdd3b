// The dates BIM endpoints take: ISO 8601 (strict, with a zone, or a plain date at midnight UTC) or Unix
// seconds, which BIM tools and Evercam clients send in the `{datetime}` path segment.
import { validation } from '../../lib/errors.js';
import { parseInstant } from '../anpr/index.js';

/** Unix seconds between 1970 and 9999. */
const UNIX_SECONDS = /^\d{1,12}$/;
const MAX_SECONDS = 253_402_300_799;

export function bimInstant(value: string | number, field: string): string {
  if (typeof value === 'number' || UNIX_SECONDS.test(value)) {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0 || n > MAX_SECONDS) throw validation(field, 'must be Unix seconds (0 to 253402300799) or an ISO 8601 date-time');
    return new Date(n * 1000).toISOString();
  }
  const at = parseInstant(value);
  if (!at) throw validation(field, 'must be an ISO 8601 date-time with a zone (2026-11-23T08:15:00Z), a date (2026-11-23) or Unix seconds');
  return at;
}

export function bimRange(from: string | undefined, to: string | undefined): { from?: string; to?: string } {
  const range = { from: from === undefined ? undefined : bimInstant(from, 'from'), to: to === undefined ? undefined : bimInstant(to, 'to') };
  if (range.from && range.to && range.from > range.to) throw validation('from', 'must not be after to');
  return range;
}
