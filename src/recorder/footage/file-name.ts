// The exported clip's file name: its true start on the device's clock, as the recorder's UI and its
// people read time (the footage form takes the device's local time), never UTC.

/** `footage-2026-05-01T10-00-00.mp4` for a clip starting at `start`, in `timeZone` (IANA). */
export function footageFileName(start: Date, timeZone: string): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(start)
      .map((x) => [x.type, x.value]),
  );
  return `footage-${p.year}-${p.month}-${p.day}T${p.hour}-${p.minute}-${p.second}.mp4`;
}
