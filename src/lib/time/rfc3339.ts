// One strict reader for every time a client sends (docs/security.md, "Times").
// Date.parse and new Date take "1" as 2001, "12/25/2026" as a US date and roll
// "2026-02-30" over to 2 March; a time given to the API is either an exact
// RFC 3339 date-time or refused.
//
// Rules: YYYY-MM-DDTHH:MM:SS, optional fraction (1–9 digits, kept to the
// millisecond), then "Z" or a ±HH:MM offset. "T"/"Z" may be lower case (RFC 3339
// §5.6 allows it). Every field must exist on the calendar: no 2026-02-30, no hour
// 24, no leap second (60). Years 0000–9999 only.

const PATTERN = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (year: number, month: number) => DAYS[month - 1]! + (month === 2 && isLeap(year) ? 1 : 0);

/** The instant an RFC 3339 date-time names, or null when the text is not one. */
export function parseRfc3339(text: string): Date | null {
  if (typeof text !== 'string' || text.length > 40) return null;
  const m = PATTERN.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offsetMinutes = 0;
  if (!m[8]) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, ms);
  return new Date(utc.getTime() - offsetMinutes * 60_000);
}

/** True when the text is an RFC 3339 date-time as above. */
export const isRfc3339 = (text: string) => parseRfc3339(text) !== null;
