// The picture checks' tables (docs/analysis.md): what each camera's checks remember between frames,
// the state of each check, and the activity score of every analysed frame with its quarter-hour sums.
import { integer, json, nullable, oneOf, real, table, text, timestamp, type TablesType } from '../../lib/db/table.js';

export const CHECKS = ['black', 'frozen', 'blurred', 'moved'] as const;
export type CheckName = (typeof CHECKS)[number];
export const CHECK_STATES = ['ok', 'fault'] as const;
export type CheckState = (typeof CHECK_STATES)[number];

/** One row per analysed camera: its thresholds and what the checks carry from frame to frame. */
const pictureCameras = table({
  camera_id: text(),
  /** The thresholds the owner changed (the rest are the defaults), JSON object; null = all defaults. */
  thresholds: nullable(json()),
  /** The reference view for `moved` and the last analysed frame: base64 of the 128×96 grey picture plus its percentiles, JSON. */
  reference: nullable(json()),
  reference_at: nullable(timestamp()),
  previous: nullable(json()),
  previous_at: nullable(timestamp()),
  /** The camera's usual amount of detail (a slow average over good frames), for `blurred`. */
  detail_level: nullable(real()),
  /** Frames in a row that showed the same picture as the one before, and when that picture was first stored. */
  unchanged_run: integer(),
  unchanged_since: nullable(timestamp()),
  updated_at: timestamp(),
});

/** Each check's current state per camera, and since when. */
const pictureCheckStates = table({
  camera_id: text(),
  check_name: oneOf(CHECKS),
  state: oneOf(CHECK_STATES),
  since: timestamp(),
});

/** The activity score (0–100) of each analysed frame; (camera_id, taken_at) is the key. */
const pictureFrameActivity = table({
  camera_id: text(),
  taken_at: timestamp(),
  score: real(),
});

/** Activity per camera per UTC quarter hour: the sum of its frames' scores and their number. */
const pictureActivityQuarters = table({
  camera_id: text(),
  /** floor(epoch milliseconds / 900 000) */
  bucket: integer(),
  score: real(),
  frames: integer(),
  /** The frame with the highest score in the quarter, and that score: where a click jumps to. */
  peak_at: timestamp(),
  peak_score: real(),
});

export const pictureChecksTables = {
  picture_cameras: pictureCameras,
  picture_check_states: pictureCheckStates,
  picture_frame_activity: pictureFrameActivity,
  picture_activity_quarters: pictureActivityQuarters,
};
export type PictureChecksTables = TablesType<typeof pictureChecksTables>;
