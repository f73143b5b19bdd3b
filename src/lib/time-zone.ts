// IANA time zone names, checked by the runtime's own zone database.

// Building an Intl.DateTimeFormat costs about as much as the rest of a snapshot request and leaves
// ICU objects for the collector to finalise, and hot paths ask on every request; so the answers are
// remembered, in a bounded memo: names come from user input (and zones are matched in any letter
// case), so the set of names asked about has no bound of its own (docs/architecture.md, Caches).
import { boundedMemo } from './cache/bounded-memo.js';

const answers = boundedMemo<boolean>(1000);

export function isTimeZone(tz: string): boolean {
  return answers(tz, () => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  });
}
