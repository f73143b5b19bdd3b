// The time span an activity request asks for: a local day (`date=YYYY-MM-DD`, in the camera's or the
// project's time zone) or `from`/`to` (RFC 3339), turned into UTC quarter-hour buckets [lo, hi).
import { validation } from '../../lib/errors.js';
import { offsetMinutes } from '../recordings/index.js';
import { QUARTER_MS } from './picture-checks-repository.js';

/** A year and a day: the longest span one request reads (a year of one camera is 35 000 quarters). */
const MAX_SPAN_MS = 366 * 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;

export interface ActivityQuery {
  date?: string;
  from?: string;
  to?: string;
}

export interface Span {
  from: string;
  to: string;
  lo: number;
  hi: number;
}

/** Local midnight of a calendar day in `tz`, as epoch milliseconds. */
function localMidnight(tz: string, y: number, m: number, d: number): number {
  const utc = Date.UTC(y, m - 1, d);
  const first = utc - offsetMinutes(tz, utc) * 60_000;
  return utc - offsetMinutes(tz, first) * 60_000;
}

function instant(field: string, text: string): number {
  const ms = RFC3339.test(text) ? Date.parse(text) : Number.NaN;
  if (!Number.isFinite(ms)) throw validation(field, 'must be an RFC 3339 time such as 2026-11-02T06:00:00Z');
  return ms;
}

export function spanOf(q: ActivityQuery, tz: string): Span {
  let start: number;
  let end: number;
  if (q.date !== undefined) {
    if (q.from !== undefined || q.to !== undefined) throw validation('date', 'give either date, or from and to, not both');
    const m = DATE.exec(q.date);
    const [y, mo, d] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
    const check = new Date(Date.UTC(y, mo - 1, d));
    if (!m || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || y < 1970) throw validation('date', 'must be a calendar day, YYYY-MM-DD');
    start = localMidnight(tz, y, mo, d);
    const next = new Date(Date.UTC(y, mo - 1, d + 1));
    end = localMidnight(tz, next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate());
  } else {
    if (q.from === undefined || q.to === undefined) throw validation(q.from === undefined ? 'from' : 'to', 'give date, or both from and to');
    start = instant('from', q.from);
    end = instant('to', q.to);
    if (end <= start) throw validation('to', 'must be after from');
    if (end - start > MAX_SPAN_MS) throw validation('to', 'the span may be at most 366 days');
  }
  return {
    from: new Date(start).toISOString(),
    to: new Date(end).toISOString(),
    lo: Math.floor(start / QUARTER_MS),
    hi: Math.ceil(end / QUARTER_MS),
  };
}
