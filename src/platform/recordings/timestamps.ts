// The calendar parts of recordings paths (year, month, day), read strictly; times come through
// lib/time/read-time.ts.
import { validation } from '../../lib/errors.js';

export const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Path segments like "2026", "03", "7": whole numbers only, in range, else a 400 naming the field. */
export function parseCalendarPart(field: 'year' | 'month' | 'day', raw: string, max: number, min = 1): number {
  if (!/^\d{1,4}$/.test(raw)) throw validation(field, `must be a whole number from ${min} to ${max}`);
  const n = Number(raw);
  if (n < min || n > max) throw validation(field, `must be a whole number from ${min} to ${max}`);
  return n;
}
