// What other features use of a camera's lifecycle: its teardown.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export { CameraTeardown } from './camera-teardown.js';
