// Times on the recordings screen are the camera's local times (the API's days and hours are in the
// camera's time zone: docs/cameras.md, Reading the stored frames). These helpers turn UTC instants into
// that zone's calendar parts and back, with the browser's own zone database (Intl).

const formatters = new Map();

/** The camera's zone if the browser knows it, else UTC (the API falls back the same way). */
export function usableZone(tz) {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz;
  } catch {
    return 'UTC';
  }
}

function partsFormatter(tz) {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** { year, month (1–12), day, hour, minute, second } of instant `ms` in zone `tz`. */
export function localParts(tz, ms) {
  const p = {};
  for (const part of partsFormatter(tz).formatToParts(Math.floor(ms / 1000) * 1000)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return p;
}

/** Local time minus UTC in minutes at instant `ms`. */
function offsetMinutes(tz, ms) {
  const whole = Math.floor(ms / 1000) * 1000;
  const p = localParts(tz, whole);
  return Math.round((Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - whole) / 60_000);
}

/**
 * The UTC instants at which the local wall clock shows `wall` (a Date.UTC of the local parts): one
 * usually, two in a repeated hour, none in a skipped one (then the instant the clock jumped over it).
 */
function instantsOfWall(tz, wall) {
  const found = new Set();
  for (const probe of [wall - 14 * 3_600_000, wall + 14 * 3_600_000]) {
    const at = wall - offsetMinutes(tz, probe) * 60_000;
    if (offsetMinutes(tz, at) * 60_000 + at === wall) found.add(at);
  }
  if (found.size === 0) found.add(wall - offsetMinutes(tz, wall - 14 * 3_600_000) * 60_000);
  return [...found].sort((a, b) => a - b);
}

/** The UTC range [from, to] (inclusive, ISO) of local hour `hour` of a local day. */
export function hourRange(tz, year, month, day, hour) {
  const start = instantsOfWall(tz, Date.UTC(year, month - 1, day, hour));
  const end = instantsOfWall(tz, Date.UTC(year, month - 1, day, hour + 1));
  return { from: new Date(start[0]).toISOString(), to: new Date(end[end.length - 1] - 1).toISOString() };
}

/** Whether instant `iso` falls in that local hour (filters a repeated or skipped hour's edges). */
export function inLocalHour(tz, iso, year, month, day, hour) {
  const p = localParts(tz, Date.parse(iso));
  return p.year === year && p.month === month && p.day === day && p.hour === hour;
}

/** A frame's time for people: weekday, date, time to the second and the zone's short name. */
export function frameTime(tz, iso) {
  const key = `frame|${tz}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(undefined, {
      timeZone: tz,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    formatters.set(key, f);
  }
  return f.format(new Date(iso));
}

export const monthName = (year, month) =>
  new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(year, month - 1, 1));

export const longDate = (year, month, day) =>
  new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    Date.UTC(year, month - 1, day),
  );

const daysInMonth = (year, month) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Monday-first weeks of a month: arrays of 7 day numbers, null outside the month. */
export function monthWeeks(year, month) {
  const lead = (new Date(Date.UTC(year, month - 1, 1)).getUTCDay() + 6) % 7;
  const cells = [...Array(lead).fill(null), ...Array.from({ length: daysInMonth(year, month) }, (_, i) => i + 1)];
  while (cells.length % 7) cells.push(null);
  const weeks = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

export const shiftMonth = ({ year, month }, by) => {
  const m = year * 12 + (month - 1) + by;
  return { year: Math.floor(m / 12), month: (m % 12) + 1 };
};

export const pad2 = (n) => String(n).padStart(2, '0');
