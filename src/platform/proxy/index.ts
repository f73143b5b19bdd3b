// What other features use of the upstream proxy.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export { UpstreamProxy } from './upstream-proxy.js';
