// The scope catalogue (docs/access-model.md): every scope the key editor offers, with its group and what it opens.
// A route may only name scopes from here (checked when routes are registered and by a test).

export const SCOPE_CATALOGUE = [
  { scope: 'user:info', group: 'User', description: 'Profile, roles, permissions, sessions and notifications (read)', opens_endpoints: true },
  { scope: 'profile:write', group: 'User', description: 'Profile update, marking notifications read, revoking own sessions', opens_endpoints: true },
  { scope: 'projects:read', group: 'Projects and cameras', description: 'Projects, contacts, battery readings, progress photos', opens_endpoints: true },
  { scope: 'cameras:read', group: 'Projects and cameras', description: 'Cameras, health, battery, last public note', opens_endpoints: true },
  { scope: 'camera:live_view', group: 'Camera features', description: 'Live snapshots, HLS and RTMP stream details, ONVIF calls', opens_endpoints: true },
  { scope: 'camera:recordings', group: 'Camera features', description: 'Stored snapshots, days/hours index, thumbnails, ANPR events', opens_endpoints: true },
  { scope: 'camera:ptz', group: 'Camera features', description: 'All pan/tilt/zoom controls and presets', opens_endpoints: true },
  { scope: 'project:media_hub', group: 'Project features', description: 'Media hub items, compares and timelapses', opens_endpoints: true },
  { scope: 'project:bim', group: 'Project features', description: 'BIM captures, camera parameters and layers', opens_endpoints: true },
  { scope: 'project:weather', group: 'Project features', description: 'Weather at the project’s location', opens_endpoints: true },
  { scope: 'project:video_wall', group: 'Project features', description: 'Video walls', opens_endpoints: true },
  { scope: 'project:comments', group: 'Project features', description: 'Comments on cameras (read and write)', opens_endpoints: true },
  { scope: 'project:connectors', group: 'Project features', description: 'Third-party connectors', opens_endpoints: true },
  {
    scope: 'project:settings',
    group: 'Project features',
    description: 'Members, roles, logos, thumbnails, camera settings, project transfer',
    opens_endpoints: true,
  },
  { scope: 'project:gate_report', group: 'Project features', description: 'Gate report (opens no endpoint of the main API)', opens_endpoints: false },
  { scope: 'project:timeline', group: 'Project features', description: 'Timeline (opens no endpoint of the main API)', opens_endpoints: false },
  { scope: 'project:smart_search', group: 'Project features', description: 'Smart search (opens no endpoint of the main API)', opens_endpoints: false },
  { scope: 'project:ppe_monitoring', group: 'Project features', description: 'PPE monitoring (opens no endpoint of the main API)', opens_endpoints: false },
  { scope: 'project:360', group: 'Project features', description: '360° captures (opens no endpoint of the main API)', opens_endpoints: false },
  { scope: 'project:drone', group: 'Project features', description: 'Drone captures (opens no endpoint of the main API)', opens_endpoints: false },
  { scope: 'project:planner', group: 'Project features', description: 'Planner (opens no endpoint of the main API)', opens_endpoints: false },
  { scope: 'project:automations', group: 'Project features', description: 'Automations (opens no endpoint of the main API)', opens_endpoints: false },
  { scope: 'project:widgets', group: 'Project features', description: 'Widgets (opens no endpoint of the main API)', opens_endpoints: false },
] as const;

export type Scope = (typeof SCOPE_CATALOGUE)[number]['scope'];

export const ALL_SCOPES: readonly Scope[] = SCOPE_CATALOGUE.map((s) => s.scope);
const known = new Set<string>(ALL_SCOPES);

export const isScope = (s: string): s is Scope => known.has(s);
