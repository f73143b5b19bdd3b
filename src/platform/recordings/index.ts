// What other features use of recordings: the snapshot index and reader, settings and capture.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export { offsetMinutes } from './local-calendar.js';
export type { SnapshotWriter } from './capture.js';
export { ManualCapture } from './manual-capture.js';
export { RecordingSettings, RecordingSettingsService, RecordingSettingsUpdate } from './recording-settings.js';
export { SnapshotIndex } from './snapshot-index-repository.js';
export type { SnapshotEntry } from './snapshot-index.js';
export { SnapshotReader } from './snapshot-reader.js';
export type { StoredFrame } from './stored-frames.js';
