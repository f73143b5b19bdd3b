// Which feature owns which tables. Only the owner's repository files (`*-repository.ts` under
// src/platform/<feature>/) query its tables; other files call the owner's repository functions (other
// features through its index.ts), so a table's queries, indexes and invariants are read in one place.
// test/platform/table-owners.test.ts checks the source against this map, and the map against the tables
// each feature declares.

/** Feature folder under src/platform → its tables (`prefix_*` stands for every table with that prefix). */
export const TABLE_OWNERS: Readonly<Record<string, readonly string[]>> = {
  users: ['users'],
  auth: ['sessions', 'session_activities', 'oidc_login_states', 'user_identities', 'login_throttle'],
  audit: ['audit_events'],
  notifications: ['notifications'],
  projects: ['projects', 'project_logos', 'project_thumbnails'],
  members: ['project_members', 'project_invitations'],
  cameras: ['cameras', 'camera_notes', 'battery_readings'],
  'progress-photos': ['progress_photos'],
  'api-keys': ['api_keys', 'api_key_projects', 'api_key_rate_counts'],
  recordings: ['snapshots', 'snapshot_buckets', 'camera_recording_settings'],
  anpr: ['anpr_*'],
  bim: ['bim_*'],
  oauth: ['oauth_records'],
  connectors: ['connector_*', 'site_connector_*'],
  'media-hub': ['media_hub_items'],
  weather: ['weather_cache'],
  'video-walls': ['video_walls', 'video_wall_tiles'],
  comments: ['comments'],
  secrets: ['secrets'],
  work: ['work_leases'],
  outbox: ['outbox_*'],
  webhooks: ['webhooks', 'webhook_attempts'],
  mail: ['password_resets', 'mail_preferences', 'progress_photo_sends'],
  'recorder-links': ['recorder_links', 'recorder_link_devices', 'recorder_events'],
  'picture-checks': ['picture_*'],
};

/** The feature that owns a table, or undefined when no feature claims it. */
export function ownerOfTable(table: string): string | undefined {
  for (const [feature, tables] of Object.entries(TABLE_OWNERS)) {
    if (tables.some((t) => (t.endsWith('*') ? table.startsWith(t.slice(0, -1)) : t === table))) return feature;
  }
  return undefined;
}

/** A repository file of the feature: `src/platform/<feature>/…/<name>-repository.ts` (path relative to src/platform, `/`-separated). */
export const isRepositoryOf = (feature: string, path: string): boolean => path.startsWith(`${feature}/`) && path.endsWith('-repository.ts');
