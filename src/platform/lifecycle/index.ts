// What other features use of the lifecycle: the deletion hooks.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export { DeletionHooks } from './deletion-hooks.js';
