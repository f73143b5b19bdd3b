// What other folders of the recorder may use of recordings: the index of recorded segments
// (docs/architecture.md, The recorder's folders).
export type { Segment, SegmentIndex } from './segment-index.js';
