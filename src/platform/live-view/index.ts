// What other features use of live view: its service.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export type { LinkedLive, LiveSnapshot } from './live-view-service.js';
export { LiveViewService } from './live-view-service.js';
export type { StreamStatus } from './live-streams.js';
