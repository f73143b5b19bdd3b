// When a progress-photo delivery is next due, in the project's time zone (Intl does the zone maths).

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: Weekday;
}

function localParts(at: Date, timeZone: string): LocalParts {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    weekday: String(parts.weekday).toLowerCase().slice(0, 3) as Weekday,
  };
}

/** The UTC instant at which the zone's wall clock shows the given local date and time. */
function zonedInstant(year: number, month: number, day: number, hour: number, minute: number, timeZone: string): Date {
  const guess = Date.UTC(year, month - 1, day, hour, minute);
  // The zone's offset at the guess, applied once and then checked once (enough away from DST jumps).
  let t = guess;
  for (let i = 0; i < 2; i++) {
    const p = localParts(new Date(t), timeZone);
    const shown = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
    t += guess - shown;
  }
  return new Date(t);
}

/** The next delivery strictly after `from`, or null when paused or no weekday is chosen. */
export function nextSendAt(schedule: 'daily' | 'weekly', days: Weekday[], sendAt: string, timeZone: string, from = new Date(), paused = false): string | null {
  if (paused) return null;
  const [hh, mm] = sendAt.split(':').map(Number) as [number, number];
  const today = localParts(from, timeZone);
  for (let offset = 0; offset <= 7; offset++) {
    const base = new Date(Date.UTC(today.year, today.month - 1, today.day + offset));
    const y = base.getUTCFullYear();
    const m = base.getUTCMonth() + 1;
    const d = base.getUTCDate();
    const weekday = WEEKDAYS[(base.getUTCDay() + 6) % 7]!;
    if (schedule === 'weekly' && !days.includes(weekday)) continue;
    const at = zonedInstant(y, m, d, hh, mm, timeZone);
    if (at.getTime() > from.getTime()) return at.toISOString();
  }
  return null;
}
