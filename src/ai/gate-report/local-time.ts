// Local dates and hours in an IANA time zone, for day reports and per-hour counts.

function parts(ms: number, timeZone: string): Record<string, number> {
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  return Object.fromEntries(
    fmt
      .formatToParts(new Date(ms))
      .filter((p) => p.type !== 'literal')
      .map((p) => [p.type, Number(p.value)]),
  );
}

/** How far the zone's clock is ahead of UTC at `ms`, in milliseconds. */
function offset(ms: number, timeZone: string): number {
  const p = parts(ms, timeZone);
  return Date.UTC(p.year ?? 0, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0) - Math.floor(ms / 1000) * 1000;
}

/** The instant local midnight of `date` (YYYY-MM-DD) begins in the zone. */
export function localMidnight(date: string, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  const first = guess - offset(guess, timeZone);
  return guess - offset(first, timeZone);
}

/** The local date (YYYY-MM-DD) and hour (0–23) of an instant. */
export function localDateHour(ms: number, timeZone: string): { date: string; hour: number } {
  const p = parts(ms, timeZone);
  const pad = (n: number | undefined) => String(n ?? 0).padStart(2, '0');
  return { date: `${p.year}-${pad(p.month)}-${pad(p.day)}`, hour: p.hour ?? 0 };
}
