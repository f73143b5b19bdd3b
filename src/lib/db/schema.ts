// Table types for Kysely. Timestamps are ISO-8601 UTC text, booleans 0/1 integers, JSON is text:
// the same on SQLite and PostgreSQL, so one set of migrations and queries serves both.

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  firstname: string;
  lastname: string;
  is_admin: number;
  /** JSON array of feature flags enabled for this person. */
  features: string;
  created_at: string;
  updated_at: string;
  /** Set while a platform admin has disabled the account: no sign-in, no session, no key works. */
  disabled_at?: string | null;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  revoked_at: string | null;
  ip: string | null;
  user_agent: string | null;
  /** The platform admin acting as this user, when the session is an impersonation. */
  impersonator_id?: string | null;
}

export interface SessionActivitiesTable {
  id: string;
  user_id: string;
  session_id: string | null;
  /** login, login_failed, logout, session_revoked */
  action: string;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
}

export interface NotificationsTable {
  id: string;
  user_id: string;
  type: string;
  message: string;
  /** JSON object: camera_exid, project_exid, actor_email… */
  context: string;
  read_at: string | null;
  created_at: string;
}

export interface ProjectsTable {
  id: string;
  exid: string;
  name: string;
  status: string;
  timezone: string;
  created_at: string;
  updated_at: string;
}

export interface ProjectMembersTable {
  project_id: string;
  user_id: string;
  role: string;
  created_at: string;
}

export interface CamerasTable {
  id: string;
  exid: string;
  project_id: string;
  name: string;
  /** simulated | ip */
  kind: string;
  status: string;
  timezone: string;
  lat: number | null;
  lng: number | null;
  is_public: number;
  /** JSON: connection details (snapshot_url, rtsp_url, onvif_url, username, password). Never returned. */
  connection: string;
  /** JSON: state the simulated camera keeps (PTZ position, presets, battery). */
  sim_state: string;
  last_online_at: string | null;
  last_checked_at: string | null;
  created_at: string;
  updated_at: string;
  /** Compass heading the camera looks at, degrees from north (settings; null unknown). */
  heading?: number | null;
  /** Horizontal field of view, degrees (settings; null unknown). */
  fov?: number | null;
}

export interface CameraNotesTable {
  id: string;
  camera_id: string;
  author_id: string | null;
  content: string;
  is_public: number;
  created_at: string;
}

export interface BatteryReadingsTable {
  id: string;
  camera_id: string;
  voltage: number;
  percentage: number | null;
  recorded_at: string;
}

export interface ProgressPhotosTable {
  id: string;
  project_id: string;
  created_by: string;
  title: string;
  /** JSON array of camera exids */
  camera_exids: string;
  /** JSON array of recipient e-mail addresses */
  recipients: string;
  /** daily | weekly */
  schedule: string;
  /** JSON array of weekdays (mon…sun) for weekly schedules */
  days: string;
  /** HH:MM in the project's time zone */
  send_at: string;
  /** email | a connector name */
  provider: string;
  is_paused: number;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  /** SHA-256 of the key value, hex. The value itself is never stored. */
  key_hash: string;
  /** The first characters of the value, to recognise a key in a list. */
  key_hint: string;
  /** JSON array of scope names */
  scopes: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApiKeyProjectsTable {
  api_key_id: string;
  project_id: string;
}

/** One stored JPEG of a camera's cloud recordings (the index; the bytes are in the object store). */
export interface SnapshotsTable {
  camera_id: string;
  /** When the frame was taken: ISO-8601 UTC with milliseconds; (camera_id, taken_at) is the primary key. */
  taken_at: string;
  object_key: string;
  size: number;
  /** schedule | manual */
  source: string;
  note: string | null;
  created_by: string | null;
  created_at: string;
}

/** Snapshot counts per camera per UTC 15-minute bucket, kept in the same transactions as `snapshots`. */
export interface SnapshotBucketsTable {
  camera_id: string;
  /** floor(epoch milliseconds / 900 000) */
  bucket: number;
  count: number;
}

/** One number-plate read of a camera (plate image, if any, in the object store under `image_key`). */
export interface AnprEventsTable {
  id: string;
  camera_id: string;
  /** Normalised: upper-case, no spaces or dashes. */
  plate: string;
  /** As the camera read it. */
  plate_raw: string;
  captured_at: string;
  /** in | out | unknown */
  direction: string;
  confidence: number | null;
  /** JSON [x1, y1, x2, y2] */
  bbox: string | null;
  /** pixels | normalized */
  bbox_units: string | null;
  image_key: string | null;
  /** JSON object */
  metadata: string;
  token_id: string | null;
  created_at: string;
}

/** A camera's or recorder's token for pushing ANPR events; only the SHA-256 of the value is kept. */
export interface AnprIngestionTokensTable {
  id: string;
  camera_id: string;
  name: string;
  token_hash: string;
  token_hint: string;
  created_by: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** Plates a project watches for (`GET …/anpr/matched`), keyed by the normalised plate. */
export interface AnprWatchlistTable {
  project_id: string;
  plate: string;
  label: string;
  created_by: string | null;
  created_at: string;
}

/** A camera's cloud recording settings; a camera without a row records nothing (status off). */
export interface CameraRecordingSettingsTable {
  camera_id: string;
  /** on | off | paused */
  status: string;
  /** Snapshots a minute, 1 to 60. */
  frequency: number;
  /** Days to keep, or -1 forever. */
  storage_duration: number;
  /** JSON: weekday -> ["HH:MM-HH:MM", …] in the camera's time zone; null = always. */
  schedule: string | null;
  updated_by: string | null;
  updated_at: string;
}

/** One record oidc-provider persists (client, grant, session, interaction, code, refresh token…). */
export interface OauthRecordsTable {
  model: string;
  id: string;
  /** JSON. */
  payload: string;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  /** The person who registered this client through /v2/developer/apps (clients only). */
  owner_id: string | null;
  created_at: string;
  expires_at: string | null;
  consumed_at: string | null;
}

/** One security-relevant event (administration, issue 7). Never holds a key value, password or token. */
export interface AuditEventsTable {
  id: string;
  created_at: string;
  /** e.g. auth.login, api_key.created, admin.user_disabled */
  action: string;
  /** success | failure | refused */
  outcome: string;
  actor_user_id: string | null;
  actor_key_id: string | null;
  /** The admin behind an impersonated session. */
  impersonator_id: string | null;
  /** Whose account the event concerns (the owner of a key, the person signed in…). */
  subject_user_id: string | null;
  target_type: string | null;
  target_id: string | null;
  ip: string | null;
  user_agent: string | null;
  /** JSON object, scrubbed of secrets. */
  details: string;
}

/** A provider sign-in between the redirect and the callback (state, nonce and PKCE verifier). */
export interface OidcLoginStatesTable {
  state: string;
  provider: string;
  code_verifier: string;
  nonce: string;
  return_to: string | null;
  created_at: string;
  expires_at: string;
}

/** A person's account at an external OpenID Connect provider, linked by verified e-mail. */
export interface UserIdentitiesTable {
  provider: string;
  subject: string;
  user_id: string;
  email: string;
  created_at: string;
  last_login_at: string;
}

/** A person's connection to a third-party provider (connectors); secrets are AES-256-GCM envelopes. */
export interface ConnectorConnectionsTable {
  id: string;
  user_id: string;
  provider: string;
  auth_kind: string;
  access_token_enc: string | null;
  refresh_token_enc: string | null;
  expires_at: string | null;
  credentials_enc: string | null;
  /** JSON: the remote account (user, company names). */
  account: string;
  /** JSON array of granted scopes. */
  scopes: string;
  created_at: string;
  updated_at: string;
}

/** An OAuth authorization in progress: binds the provider's callback to the person who started it. */
export interface ConnectorOauthStatesTable {
  state: string;
  user_id: string;
  provider: string;
  code_verifier_enc: string | null;
  project_exid: string | null;
  redirect_after: string | null;
  expires_at: string;
}

/** Something a connector uploaded to a provider on behalf of a project. */
export interface ConnectorUploadsTable {
  id: string;
  user_id: string | null;
  provider: string;
  project_id: string;
  camera_id: string | null;
  remote_project_id: string;
  remote_id: string;
  name: string;
  /** JSON. */
  details: string;
  created_at: string;
}

/** An event a provider pushed (doorbell ring, gate booking). */
export interface ConnectorEventsTable {
  id: string;
  provider: string;
  user_id: string | null;
  project_id: string | null;
  /** JSON. */
  payload: string;
  received_at: string;
}

/** Site connectors: a Voyage Control venue or doorbell device feeding a project (and camera), with its sealed webhook secret. */
export interface SiteConnectorLinksTable {
  id: string;
  provider: string;
  project_id: string;
  camera_id: string | null;
  user_id: string;
  remote_id: string;
  remote_name: string | null;
  webhook_secret_enc: string;
  created_at: string;
  updated_at: string;
}

/** Webhook event ids a site connector link has received: a replay of one is refused. */
export interface SiteConnectorDeliveriesTable {
  link_id: string;
  event_id: string;
  received_at: string;
}

/** Fetched weather of a project, by place, time zone and day (or the current conditions); JSON payload in the API's shape. */
export interface WeatherCacheTable {
  project_id: string;
  key: string;
  payload: string;
  fetched_at: string;
}

export interface VideoWallsTable {
  id: string;
  project_id: string;
  name: string;
  grid_rows: number;
  grid_columns: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** One cell of a wall's grid showing one camera (0-based row and column). */
export interface VideoWallTilesTable {
  wall_id: string;
  row_index: number;
  column_index: number;
  camera_id: string;
}

export interface CommentsTable {
  id: string;
  project_id: string;
  camera_id: string;
  author_id: string | null;
  /** The recording moment the comment is about. */
  frame_at: string;
  /** Position on the image, 0..1 from the left and from the top. */
  x: number;
  y: number;
  content: string;
  /** JSON array of user ids already notified of a mention. */
  mentions: string;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A project's logo; the image is in the object store under `object_key`. */
export interface ProjectLogosTable {
  id: string;
  project_id: string;
  name: string;
  /** top-left | top-right | bottom-left | bottom-right */
  position: string;
  object_key: string;
  content_type: string;
  width: number;
  height: number;
  size: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** A project's thumbnail (one per project): uploaded, or taken from a camera's latest recorded frame. */
export interface ProjectThumbnailsTable {
  project_id: string;
  object_key: string;
  /** upload | camera */
  source: string;
  camera_exid: string | null;
  taken_at: string | null;
  width: number;
  height: number;
  size: number;
  updated_by: string | null;
  updated_at: string;
}

/** A media hub item (clip, compare, timelapse, url, file) with its render job state. */
export interface MediaHubItemsTable {
  id: string;
  project_id: string;
  camera_id: string | null;
  kind: string;
  title: string;
  status: string;
  from_date: string | null;
  to_date: string | null;
  requester_id: string | null;
  requester_email: string;
  is_public: number;
  /** JSON render options. */
  options: string;
  link_url: string | null;
  file_name: string | null;
  content_type: string | null;
  file_size: number | null;
  object_key: string | null;
  gif_key: string | null;
  thumbnail_key: string | null;
  logo_key: string | null;
  error: string | null;
  attempts: number;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

/** An uploaded BIM render of a camera's view, for the date of the model it shows (one per camera and date). */
export interface BimCapturesTable {
  id: string;
  camera_id: string;
  captured_at: string;
  name: string | null;
  image_key: string;
  content_type: string;
  width: number;
  height: number;
  size: number;
  uploaded_by: string | null;
  created_at: string;
}

/** A BIM render requested for a date and not made yet (an external BIM tool reports its status). */
export interface BimPendingTable {
  id: string;
  camera_id: string;
  requested_for: string;
  /** pending | processing | completed | failed */
  status: string;
  note: string | null;
  message: string | null;
  capture_id: string | null;
  requested_by: string | null;
  created_at: string;
  updated_at: string;
}

/** A camera's pose and lens for the BIM overlay (metres and degrees), one row a camera. */
export interface BimCameraParametersTable {
  camera_id: string;
  x: number;
  y: number;
  z: number;
  yaw: number;
  pitch: number;
  roll: number;
  fov: number;
  image_width: number;
  image_height: number;
  updated_by: string | null;
  updated_at: string;
}

/** An overlay layer drawn over a camera's view: an image with opacity, order, visibility and dates. */
export interface BimLayersTable {
  id: string;
  camera_id: string;
  name: string;
  image_key: string;
  content_type: string;
  width: number;
  height: number;
  size: number;
  /** 0/1 */
  has_alpha: number;
  opacity: number;
  z_index: number;
  /** 0/1 */
  visible: number;
  from_date: string | null;
  to_date: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface Database {
  media_hub_items: MediaHubItemsTable;
  weather_cache: WeatherCacheTable;
  video_walls: VideoWallsTable;
  video_wall_tiles: VideoWallTilesTable;
  comments: CommentsTable;
  users: UsersTable;
  audit_events: AuditEventsTable;
  oidc_login_states: OidcLoginStatesTable;
  user_identities: UserIdentitiesTable;
  sessions: SessionsTable;
  session_activities: SessionActivitiesTable;
  notifications: NotificationsTable;
  projects: ProjectsTable;
  project_members: ProjectMembersTable;
  cameras: CamerasTable;
  camera_notes: CameraNotesTable;
  battery_readings: BatteryReadingsTable;
  progress_photos: ProgressPhotosTable;
  api_keys: ApiKeysTable;
  api_key_projects: ApiKeyProjectsTable;
  snapshots: SnapshotsTable;
  snapshot_buckets: SnapshotBucketsTable;
  camera_recording_settings: CameraRecordingSettingsTable;
  anpr_events: AnprEventsTable;
  anpr_ingestion_tokens: AnprIngestionTokensTable;
  anpr_watchlist: AnprWatchlistTable;
  bim_captures: BimCapturesTable;
  bim_pending: BimPendingTable;
  bim_camera_parameters: BimCameraParametersTable;
  bim_layers: BimLayersTable;
  oauth_records: OauthRecordsTable;
  project_logos: ProjectLogosTable;
  project_thumbnails: ProjectThumbnailsTable;
  connector_connections: ConnectorConnectionsTable;
  connector_oauth_states: ConnectorOauthStatesTable;
  connector_uploads: ConnectorUploadsTable;
  connector_events: ConnectorEventsTable;
  site_connector_links: SiteConnectorLinksTable;
  site_connector_deliveries: SiteConnectorDeliveriesTable;
}

