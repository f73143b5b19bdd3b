// The recorder's own embedded database (SQLite in its data dir): users, tokens, devices, the segment
// index, runs, events, remote storages and their upload queue, the platform link and its outbox. Times are ISO 8601 UTC text with milliseconds; booleans 0/1; JSON as text.
import type { Generated } from 'kysely';

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
  /** 1: the device is shared with the linked platform (docs/recorder.md, Platform link); 0: kept out. */
  share_with_platform: number;
  /** JSON: the plate reader's settings (plate-settings/plate-reader-config.ts); null when it reads no plates. */
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

export interface UploadsTable {
  id: string;
  storage_id: string;
  /** segment | snapshot */
  kind: string;
  device_id: string;
  /** Where the object goes: the same for every attempt, so a retry overwrites (uploads/object-keys.ts). */
  object_key: string;
  /** A segment's id in the index; its file is read when it is sent. */
  segment_id: string | null;
  start_date: string;
  end_date: string;
  /** A snapshot's JPEG, taken when it was queued. */
  body: Buffer | null;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
}

interface UploadStatusTable {
  storage_id: string;
  last_success_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
}

/** The one link to a platform (id 1), when linked. */
interface PlatformLinkTable {
  id: number;
  platform_url: string;
  link_id: string;
  project_exid: string;
  /** The link's credential, sealed (db/sealed-secrets.ts). */
  credential: string;
  /** Set when the platform closed the link as revoked: no reconnecting until linked again. */
  revoked_at: string | null;
  last_error: string | null;
  created_at: string;
}

/** The platform's last cloud-frame schedule of a device, kept so frames go on while it is unreachable. */
interface LinkSchedulesTable {
  device_id: string;
  camera_exid: string;
  frequency: number;
  /** JSON weekly windows, or null: always. */
  schedule: string | null;
  timezone: string;
}

/** A frame or event owed to the platform, sent oldest first and deleted when acknowledged. */
export interface LinkOutboxTable {
  /** Never reused (AUTOINCREMENT): the platform acknowledges by it. */
  seq: Generated<number>;
  device_id: string;
  /** `frame`, or an event's kind (`plate`, …). */
  kind: string;
  taken_at: string;
  /** A frame's JPEG, relative to the outbox folder. */
  file: string | null;
  /** An event's data, JSON. */
  data: string | null;
  /** Bytes it takes (the JPEG, or the event's JSON), for the backlog cap. */
  size: number;
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
  uploads: UploadsTable;
  upload_status: UploadStatusTable;
  platform_link: PlatformLinkTable;
  link_schedules: LinkSchedulesTable;
  link_outbox: LinkOutboxTable;
}
