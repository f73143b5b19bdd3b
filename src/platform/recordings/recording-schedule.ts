// A camera's weekly recording schedule: per weekday a list of "HH:MM-HH:MM" windows in the camera's
// own time zone (so "08:00-18:00" follows daylight saving). Parsed and checked once when saved; the
// recorder loop asks `isInSchedule` on every tick, so that question is cheap (cached formatters).
import { boundedMemo } from '../../lib/cache/index.js';
import { validation } from '../../lib/errors.js';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** As stored and returned: every weekday present, windows sorted. */
export type WeeklySchedule = Record<Weekday, string[]>;

/** Minutes from local midnight: [start, end), end may be 1440 ("24:00"). */
type Window = readonly [number, number];
export type ParsedSchedule = Record<Weekday, Window[]>;

export const WINDOW_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]-(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$';
const WINDOW_RE = new RegExp(WINDOW_PATTERN);
const MAX_WINDOWS_PER_DAY = 24;

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Checks a schedule as sent by a client and returns it normalised (all seven days, sorted windows).
 * Days left out record nothing. Windows must not cross midnight (split them: "22:00-24:00" and
 * "00:00-06:00" the next day) and must not overlap.
 */
export function normaliseSchedule(input: Partial<Record<string, unknown>>): WeeklySchedule {
  for (const day of Object.keys(input)) {
    if (!(WEEKDAYS as readonly string[]).includes(day)) throw validation(`schedule.${day}`, `unknown weekday; use ${WEEKDAYS.join(', ')}`);
  }
  const out = {} as WeeklySchedule;
  for (const day of WEEKDAYS) {
    const raw = input[day] ?? [];
    if (!Array.isArray(raw)) throw validation(`schedule.${day}`, 'must be a list of "HH:MM-HH:MM" windows');
    if (raw.length > MAX_WINDOWS_PER_DAY) throw validation(`schedule.${day}`, `at most ${MAX_WINDOWS_PER_DAY} windows a day`);
    const windows: [number, number, string][] = [];
    for (const w of raw) {
      if (typeof w !== 'string' || !WINDOW_RE.test(w))
        throw validation(`schedule.${day}`, `${JSON.stringify(w)} is not a "HH:MM-HH:MM" window (24-hour clock, end may be 24:00)`);
      const [start, end] = [minutes(w.slice(0, 5)), minutes(w.slice(6, 11))];
      if (end <= start) throw validation(`schedule.${day}`, `window ${w} ends before it starts; split windows that cross midnight`);
      windows.push([start, end, w]);
    }
    windows.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < windows.length; i++) {
      if (windows[i]![0] < windows[i - 1]![1]) throw validation(`schedule.${day}`, `windows ${windows[i - 1]![2]} and ${windows[i]![2]} overlap`);
    }
    out[day] = windows.map((w) => w[2]);
  }
  return out;
}

export function parseSchedule(s: WeeklySchedule): ParsedSchedule {
  const out = {} as ParsedSchedule;
  for (const day of WEEKDAYS) out[day] = (s[day] ?? []).map((w) => [minutes(w.slice(0, 5)), minutes(w.slice(6, 11))] as const);
  return out;
}

/** A formatter per zone: a pure memo, bounded (docs/architecture.md, Caches). */
const formatters = boundedMemo<Intl.DateTimeFormat>(1000);
const formatter = (timeZone: string): Intl.DateTimeFormat =>
  formatters(timeZone, () => new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }));

/** The weekday and minute of the day at `at` in `timeZone`. */
export function localWeekMinute(at: Date, timeZone: string): { day: Weekday; minute: number } {
  let day = 'monday';
  let hour = 0;
  let minute = 0;
  for (const p of formatter(timeZone).formatToParts(at)) {
    if (p.type === 'weekday') day = p.value.toLowerCase();
    else if (p.type === 'hour') hour = Number(p.value);
    else if (p.type === 'minute') minute = Number(p.value);
  }
  return { day: day as Weekday, minute: hour * 60 + minute };
}

/** Whether `at` falls inside one of the schedule's windows; a null schedule means always. */
export function isInSchedule(schedule: ParsedSchedule | null, timeZone: string, at: Date): boolean {
  if (!schedule) return true;
  const { day, minute } = localWeekMinute(at, timeZone);
  return schedule[day].some(([start, end]) => minute >= start && minute < end);
}
