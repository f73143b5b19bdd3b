// The cloud recordings feature's tables: the index of stored JPEGs (the bytes are in the object store),
// its per-15-minute counts, and each camera's recording settings.
import { integer, json, nullable, oneOf, table, text, timestamp, type TableType, type TablesType } from '../../lib/db/table.js';

export const RECORDING_STATUSES = ['on', 'off', 'paused'] as const;
export type RecordingStatus = (typeof RECORDING_STATUSES)[number];

/** One stored JPEG of a camera's cloud recordings. */
const snapshots = table({
  camera_id: text(),
  /** When the frame was taken, with milliseconds; (camera_id, taken_at) is the primary key. */
  taken_at: timestamp(),
  object_key: text(),
  size: integer(),
  source: oneOf(['schedule', 'manual']),
  note: nullable(text()),
  created_by: nullable(text()),
  created_at: timestamp(),
});
type SnapshotsTable = TableType<typeof snapshots>;
export type SnapshotSource = SnapshotsTable['source'];

/** Snapshot counts per camera per UTC 15-minute bucket, kept in the same transactions as `snapshots`. */
const snapshotBuckets = table({
  camera_id: text(),
  /** floor(epoch milliseconds / 900 000) */
  bucket: integer(),
  count: integer(),
});

/** A camera's cloud recording settings; a camera without a row records nothing (status off). */
const cameraRecordingSettings = table({
  camera_id: text(),
  status: oneOf(RECORDING_STATUSES),
  /** Snapshots a minute, 1 to 60. */
  frequency: integer(),
  /** Days to keep, or -1 forever. */
  storage_duration: integer(),
  /** Weekday -> ["HH:MM-HH:MM", …] in the camera's time zone; null = always. */
  schedule: nullable(json()),
  updated_by: nullable(text()),
  updated_at: timestamp(),
});
export type CameraRecordingSettingsTable = TableType<typeof cameraRecordingSettings>;

export const recordingsTables = { snapshots, snapshot_buckets: snapshotBuckets, camera_recording_settings: cameraRecordingSettings };
export type RecordingsTables = TablesType<typeof recordingsTables>;
