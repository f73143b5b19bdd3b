// Whether a weekly recording schedule ({"mon": ["08:00-18:00"], …}) is open at a moment, in the
// device's time zone.
import { WEEKDAYS } from './device-record.js';

export function scheduleOpen(schedule: Record<string, string[]> | null, timeZone: string, at: Date): boolean {
  if (!schedule) return true;
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  const day = get('weekday').toLowerCase().slice(0, 3);
  const minutes = Number(get('hour')) * 60 + Number(get('minute'));
  const toMin = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  return (schedule[day] ?? []).some((w) => {
    const [from, to] = w.split('-') as [string, string];
    return minutes >= toMin(from) && minutes < toMin(to);
  });
}

export function checkSchedule(schedule: Record<string, string[]> | null | undefined): string | null {
  if (!schedule) return null;
  for (const [day, windows] of Object.entries(schedule)) {
    if (!(WEEKDAYS as readonly string[]).includes(day)) return `unknown day ${day} (mon … sun)`;
    for (const w of windows) {
      const [from, to] = w.split('-') as [string, string];
      if (from >= to) return `window ${w} on ${day} ends before it starts`;
    }
  }
  return null;
}
