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

export interface OauthProviderTokensTable {
  id: string;
  user_id: string;
  provider: string;
  /** Encrypted at rest by the connectors feature. */
  token_data: string;
  scopes: string;
  expires_at: string | null;
  created_at: string;
}

export interface Database {
  users: UsersTable;
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
  oauth_provider_tokens: OauthProviderTokensTable;
}

