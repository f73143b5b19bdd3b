// What other features use of work leases.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export { WorkLeases } from './leases.js';
