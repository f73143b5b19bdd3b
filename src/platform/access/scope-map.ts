// The scope map, derived from the routes' own declarations: what OpenAPI publishes as x-scopes, what
// docs/access-model.md shows, and what tests hold against that doc's rules. There is no second copy.
import { policyOf, type RegisteredRoute } from './registered-route.js';
import type { AccessPolicy } from './policy.js';
import { WILDCARD_PARAM } from '../../lib/http/openapi-transform.js';

export interface ScopeMapEntry {
  method: string;
  /** OpenAPI-style path: `/v2/cameras/{camera_exid}`. */
  path: string;
  /** public | people | scoped */
  access: AccessPolicy['access'];
  scopes: string[];
  /** The least role on the touched project, when the route touches one. */
  role: string | null;
  /** Where the touched project comes from (path, camera, body, record, list) or null. */
  project: string | null;
  /** On routes reached only by a purpose-bound token: its kind (media, ingestion). */
  token: string | null;
}

// A trailing wildcard (the CRM and CMS proxies) is `{path}`, as the OpenAPI transform names it.
export const toOpenApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\/\*$/, `/{${WILDCARD_PARAM}}`);

const PROJECT_SOURCE: Record<string, string> = {
  'path-project': 'path {exid}',
  'path-camera': 'camera of {camera_exid}',
  'query-camera': 'camera of ?camera_exid',
  'body-project': 'body project_exid',
  record: 'the addressed record',
  list: 'list (filtered)',
};

export function scopeMap(routes: readonly RegisteredRoute[]): ScopeMapEntry[] {
  const seen = new Set<string>();
  const out: ScopeMapEntry[] = [];
  for (const r of routes) {
    if (r.method === 'HEAD' || r.options.schema?.hide) continue;
    const path = toOpenApiPath(r.url);
    const id = `${r.method} ${path}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const p: AccessPolicy = policyOf(r) ?? { access: 'public' };
    const source = p.access === 'public' || p.access === 'token' ? undefined : p.project;
    const role = p.access === 'public' || p.access === 'token' ? undefined : p.role;
    const self = p.access === 'public' || p.access === 'token' ? undefined : p.self;
    out.push({
      method: r.method,
      path,
      access: p.access,
      scopes: p.access === 'scoped' ? [...p.scopes] : [],
      role: source && source.from !== 'list' ? `${role ?? 'viewer'}${self ? ` (a person on their own {${self.param}}: ${self.role})` : ''}` : null,
      project: source ? PROJECT_SOURCE[source.from]! : p.access === 'token' ? 'the token’s camera' : null,
      token: p.access === 'token' ? p.token : null,
    });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/** The Markdown table of docs/access-model.md. */
export function renderScopeTable(entries: readonly ScopeMapEntry[]): string {
  const rows = entries
    .filter((e) => e.path.startsWith('/v2') || e.path.startsWith('/.well-known') || e.path === '/health' || e.path === '/ready')
    .map((e) => {
      const who = { public: 'anyone', people: 'people only (closed to keys)', scoped: 'people and keys', token: `${e.token} token only (closed to keys)` }[
        e.access
      ];
      const scopes = e.scopes.length ? e.scopes.map((s) => `\`${s}\``).join(', ') : '—';
      return `| ${e.method} | \`${e.path}\` | ${who} | ${scopes} | ${e.project ?? '—'} | ${e.role ?? '—'} |`;
    });
  return ['| Method | Path | Who | Key scopes (any one) | Project checked | Least role |', '|---|---|---|---|---|---|', ...rows].join('\n');
}
