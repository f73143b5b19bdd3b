// Wall-clock time in a device's time zone (IANA), with the browser's Intl only: the day, the time
// of day, and back to an instant. The timeline and the export form speak the device's local time,
// which is what people on the site read off their watches.

const formatters = new Map();
function partsIn(tz, date) {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  const p = Object.fromEntries(f.formatToParts(date).map((x) => [x.type, x.value]));
  return { y: +p.year, m: +p.month, d: +p.day, h: +p.hour, mi: +p.minute, s: +p.second };
}

/** How far the zone's wall clock is ahead of UTC at `date`, in ms. */
function offsetMs(tz, date) {
  const p = partsIn(tz, date);
  return Date.UTC(p.y, p.m - 1, p.d, p.h, p.mi, p.s) - Math.floor(date.getTime() / 1000) * 1000;
}

const pad = (n) => String(n).padStart(2, '0');

/** `YYYY-MM-DD` of `date` in the zone. */
export function dayIn(tz, date = new Date()) {
  const p = partsIn(tz, date);
  return `${p.y}-${pad(p.m)}-${pad(p.d)}`;
}

/** `YYYY-MM-DD HH:MM:SS` on the zone's wall clock: how every moment is shown, as the forms take it. */
export function wallClock(tz, date) {
  const p = partsIn(tz, date);
  return `${p.y}-${pad(p.m)}-${pad(p.d)} ${pad(p.h)}:${pad(p.mi)}:${pad(p.s)}`;
}

/** Seconds since the zone's midnight. */
export function secondsOfDay(tz, date) {
  const p = partsIn(tz, date);
  return p.h * 3600 + p.mi * 60 + p.s;
}

/** The instant at `seconds` after midnight of `day` (`YYYY-MM-DD`) in the zone. */
export function instantAt(tz, day, seconds) {
  const [y, m, d] = day.split('-').map(Number);
  const wall = Date.UTC(y, m - 1, d) + seconds * 1000;
  let t = wall - offsetMs(tz, new Date(wall));
  t = wall - offsetMs(tz, new Date(t)); // once more, for a day when the offset changes
  return new Date(t);
}

/** The day's bounds as instants: [its midnight, the next midnight). */
export function dayBounds(tz, day) {
  const start = instantAt(tz, day, 0);
  const [y, m, d] = day.split('-').map(Number);
  const next = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
  return { start, end: instantAt(tz, next, 0) };
}

/** `HH:MM:SS` for seconds of the day. */
export function clock(seconds) {
  const s = Math.max(0, Math.min(86399, Math.floor(seconds)));
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** Seconds of the day from an `<input type=time>` value (`HH:MM` or `HH:MM:SS`), or null. */
export function parseClock(text) {
  const m = /^(\d\d):(\d\d)(?::(\d\d))?$/.exec(text);
  if (!m) return null;
  return +m[1] * 3600 + +m[2] * 60 + +(m[3] ?? 0);
}

/** "2 h 14 min", "45 s": a duration for people. */
export function humanDuration(ms) {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min`;
  return `${Math.floor(min / 60)} h ${min % 60} min`;
}
