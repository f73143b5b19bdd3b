// IANA time zone names, checked by the runtime's own zone database.

// Building an Intl.DateTimeFormat costs about as much as the rest of a snapshot request and leaves
// ICU objects for the collector to finalise, and hot paths ask on every request; so the zones seen to
// be valid are remembered (a finite set, a few hundred at most). Invalid names are not remembered:
// they come from user input, which is unbounded.
const valid = new Set<string>();

export function isTimeZone(tz: string): boolean {
  if (valid.has(tz)) return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
  } catch {
    return false;
  }
  valid.add(tz);
  return true;
}
