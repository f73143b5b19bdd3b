// What other features use of ANPR: its instant and range parsers.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export { instantOrFail, parseInstant, rangeOrFail } from './time.js';
