// The media hub's forms take times with <input type=datetime-local>, which has no zone: the person
// means their own clock, so the value is sent as RFC 3339 with their offset at that moment.
import { pad2 } from './recordings-time.js';

/** "2026-11-10T14:05" (the person's time) → "2026-11-10T14:05:00+01:00"; '' for an empty value. */
export function withOffset(value) {
  if (!value) return '';
  const local = value.length === 16 ? `${value}:00` : value.slice(0, 19);
  const offset = -new Date(value).getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  return `${local}${sign}${pad2(Math.floor(Math.abs(offset) / 60))}:${pad2(Math.abs(offset) % 60)}`;
}

/** A Date as a datetime-local value in the person's time, to the minute. */
export const localInput = (d) => `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}T${pad2(d.getHours())}:${pad2(d.getMinutes())}`;

/** "UTC+01:00": the person's offset now, for the form's hint. */
export function offsetLabel(date = new Date()) {
  const offset = -date.getTimezoneOffset();
  const sign = offset < 0 ? '−' : '+';
  return `UTC${sign}${pad2(Math.floor(Math.abs(offset) / 60))}:${pad2(Math.abs(offset) % 60)}`;
}
