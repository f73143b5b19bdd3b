// What other features use of the access directory: the directory itself.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export { AccessDirectory } from './directory.js';
