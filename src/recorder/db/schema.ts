// The recorder's own embedded database (SQLite in its data dir): users, tokens, devices, the segment
// index, runs, events. Times are ISO 8601 UTC text with milliseconds; booleans 0/1; JSON as text.
export interface RecorderUsersTable {
  id: string;
  username: string;
  password_hash: string;
  /** admin | user (user = read-only) */
  role: string;
  created_at: string;
  updated_at: string;
}

interface AccessTokensTable {
  id: string;
  user_id: string;
  /** SHA-256 hex of the token value; the value itself is never stored. */
  token_hash: string;
  expires_at: string;
  revoked_at: string | null;
  created_at: string;
}

export interface DevicesTable {
  id: string;
  name: string;
  /** ip | file */
  type: string;
  timezone: string;
  /** stopped | streaming | recording | failed */
  state: string;
  /** Why the device is failed, from ffmpeg's own words. */
  state_reason: string | null;
  /** JSON: ip → stream_uri, sub_stream_uri, snapshot_uri; file → path. */
  stream_config: string;
  /** JSON: username, password. Write-only through the API. */
  credentials: string;
  /** JSON: recording_mode, full_drive_threshold, full_drive_action, schedule. */
  storage_config: string;
  /** JSON: the plate reader's settings (plates/plate-reader-config.ts); null when it reads no plates. */
  plate_reader: string | null;
  created_at: string;
  updated_at: string;
}

interface RunsTable {
  id: string;
  device_id: string;
  stream: string;
  start_date: string;
  end_date: string;
  active: number;
}

export interface SegmentsTable {
  id: string;
  device_id: string;
  stream: string;
  run_id: string;
  start_date: string;
  end_date: string;
  duration_ms: number;
  /** Relative to the storage root. */
  path: string;
  size: number;
}

export interface EventsTable {
  id: string;
  device_id: string;
  type: string;
  time: string;
  /** JSON: the whole body as received. */
  metadata: string;
  created_at: string;
}

export interface LprEventsTable {
  id: string;
  device_id: string;
  plate_number: string;
  capture_time: string;
  direction: string;
  list_type: string | null;
  confidence: number | null;
  /** JSON [x1, y1, x2, y2] or null. */
  bounding_box: string | null;
  /** Relative to the storage root, when an image came with the event. */
  plate_image: string | null;
  metadata: string;
  created_at: string;
}

interface WebhookTokensTable {
  id: string;
  device_id: string;
  name: string;
  token_hash: string;
  /** First characters, to recognise a token in a list. */
  hint: string;
  created_at: string;
  revoked_at: string | null;
}

export interface RemoteStoragesTable {
  id: string;
  name: string;
  /** s3 | http */
  type: string;
  url: string;
  /** JSON: bucket, region, access key id (write-only secret), or HTTP headers. */
  config: string;
  created_at: string;
  updated_at: string;
}

export interface RecorderDatabase {
  users: RecorderUsersTable;
  access_tokens: AccessTokensTable;
  devices: DevicesTable;
  runs: RunsTable;
  segments: SegmentsTable;
  events: EventsTable;
  lpr_events: LprEventsTable;
  webhook_tokens: WebhookTokensTable;
  remote_storages: RemoteStoragesTable;
}
