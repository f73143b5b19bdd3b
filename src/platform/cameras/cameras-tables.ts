// The cameras feature's tables: cameras, their notes and their battery readings.
import { flag, json, nullable, oneOf, optional, real, table, text, timestamp, type TableType, type TablesType } from '../../lib/db/table.js';

const cameras = table({
  id: text(),
  exid: text(),
  project_id: text(),
  name: text(),
  /** `linked`: a device of a linked site recorder (docs/site-link.md); it has no connection of its own. */
  kind: oneOf(['simulated', 'ip', 'linked']),
  /**
   * waiting until the first health check, then what the last check found; a linked camera's follows its
   * device and link (`recording` when the recorder records it).
   */
  status: oneOf(['waiting', 'online', 'offline', 'recording']),
  timezone: text(),
  lat: nullable(real()),
  lng: nullable(real()),
  is_public: flag(),
  /** Connection details (snapshot_url, rtsp_url, onvif_url, username, password). Never returned. */
  connection: json(),
  /** State the simulated camera keeps (PTZ position, presets, battery). */
  sim_state: json(),
  last_online_at: nullable(timestamp()),
  last_checked_at: nullable(timestamp()),
  created_at: timestamp(),
  updated_at: timestamp(),
  /** Compass heading the camera looks at, degrees from north (settings; null unknown). */
  heading: optional(nullable(real())),
  /** Horizontal field of view, degrees (settings; null unknown). */
  fov: optional(nullable(real())),
  /** `fault` while any picture check of its stored frames is in fault (docs/analysis.md); set by the picture checks. */
  picture_status: optional(oneOf(['ok', 'fault'])),
});
export type CamerasTable = TableType<typeof cameras>;

const cameraNotes = table({
  id: text(),
  camera_id: text(),
  author_id: nullable(text()),
  content: text(),
  is_public: flag(),
  created_at: timestamp(),
});

const batteryReadings = table({
  id: text(),
  camera_id: text(),
  voltage: real(),
  percentage: nullable(real()),
  recorded_at: timestamp(),
});

export const camerasTables = { cameras, camera_notes: cameraNotes, battery_readings: batteryReadings };
export type CamerasTables = TablesType<typeof camerasTables>;
