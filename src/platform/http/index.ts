// What handlers of every feature use to read what the access layer decided.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export { actingUserId, allowedProject } from './principal-helpers.js';
