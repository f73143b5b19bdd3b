// What other folders of the recorder may use of snapshots: the service's type and its pictures
// (docs/architecture.md, The recorder's folders).
export type { Snapshot, Snapshots } from './snapshots.js';
export { newestLiveSegment } from './live-segment.js';
