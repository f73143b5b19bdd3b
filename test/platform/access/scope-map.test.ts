// The published scope map: OpenAPI x-scopes, the endpoint lists below, and docs/access-model.md all
// agree with what the server enforces (the rules: docs/access-model.md, "Which endpoints each scope reaches").
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderScopeTable, scopeMap, type ScopeMapEntry } from '../../../src/platform/access/scope-map.js';
import { BEGIN, DOC, END } from '../../../scripts/access-model.js';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

// The endpoints of user:info, profile:write, projects:read and cameras:read, path by path, with the scopes that reach each.
const LISTED: Record<string, string[]> = {
  'GET /v2/users/{id}': ['user:info'],
  'GET /v2/users/{email}/features': ['user:info'],
  'GET /v2/users/permissions': ['user:info'],
  'GET /v2/users/roles': ['user:info'],
  'GET /v2/users/active-sessions': ['user:info'],
  'GET /v2/users/session/activities': ['user:info'],
  'GET /v2/notifications': ['user:info'],
  'GET /v2/auth/options': ['user:info'],
  'GET /v2/auth/signup_options': ['user:info'],
  'GET /v2/auth/provider/{provider}': ['user:info'],
  'GET /v2/oauth2-tokens/providers': ['user:info'],
  'PATCH /v2/users/{id}': ['profile:write'],
  'DELETE /v2/users/active-sessions/{id}': ['profile:write'],
  'PATCH /v2/notifications/{id}': ['profile:write'],
  'POST /v2/notifications/mark-as-read': ['profile:write'],
  'GET /v2/projects': ['projects:read'],
  'POST /v2/projects': ['projects:read'],
  'GET /v2/projects/{exid}': ['projects:read'],
  'GET /v2/projects/{exid}/cameras': ['projects:read', 'cameras:read'],
  'GET /v2/projects/{exid}/contacts': ['projects:read'],
  'GET /v2/projects/{exid}/camera_refs': ['projects:read'],
  'GET /v2/projects/{exid}/battery-readings': ['projects:read'],
  'GET /v2/projects/{exid}/progress-photos': ['projects:read'],
  'GET /v2/cameras': ['projects:read', 'cameras:read'],
  'GET /v2/progress-photos/{id}': ['projects:read'],
  'POST /v2/progress-photos': ['projects:read'],
  'PATCH /v2/progress-photos/{id}': ['projects:read'],
  'DELETE /v2/progress-photos/{id}': ['projects:read'],
  'GET /v2/cameras/{camera_exid}': ['cameras:read'],
  'GET /v2/cameras/{camera_exid}/health': ['cameras:read'],
  'GET /v2/cameras/{camera_exid}/last-public-note': ['cameras:read'],
  'GET /v2/cameras/{camera_exid}/battery-readings': ['cameras:read'],
  'GET /v2/cameras/{camera_exid}/battery-readings/voltage-summary': ['cameras:read'],
};
// The camera features: camera:live_view, camera:recordings, camera:ptz.
const LISTED_CAMERA: Record<string, string[]> = Object.fromEntries(
  [
    ...['live/snapshot', 'live/snapshot.jpg', 'hls', 'streaming'].map((p) => [`GET /v2/cameras/{camera_exid}/${p}`, 'camera:live_view']),
    ['GET /v2/onvif/v20/{service}/{operation}', 'camera:live_view'],
    ...[
      'thumbnail',
      'recordings/snapshots',
      'recordings/snapshots/latest',
      'recordings/snapshots/oldest',
      'recordings/snapshots/{timestamp}',
      'recordings/snapshots/{timestamp}/nearest',
      'recordings/snapshots/{year}/{month}/days',
      'recordings/snapshots/{year}/{month}/{day}/hours',
      'anpr',
      'anpr/matched',
      'anpr/plates',
      'anpr/{eventid}',
    ].map((p) => [`GET /v2/cameras/{camera_exid}/${p}`, 'camera:recordings']),
    ['POST /v2/cameras/{camera_exid}/snapshots', 'camera:recordings'],
    ...['status', 'presets', 'nodes', 'configurations'].map((p) => [`GET /v2/cameras/{camera_exid}/ptz/${p}`, 'camera:ptz']),
    ...[
      'home',
      'home/set',
      'relative',
      'continuous/start/{direction}',
      'continuous/stop',
      'continuous/zoom/{mode}',
      'presets/create',
      'presets/go/{preset_token}',
      'presets/{preset_token}/set',
    ].map((p) => [`POST /v2/cameras/{camera_exid}/ptz/${p}`, 'camera:ptz']),
    ['DELETE /v2/cameras/{camera_exid}/ptz/presets/{preset_token}/remove', 'camera:ptz'],
  ].map(([k, s]) => [k!, [s!]]),
);
const FEATURE_PREFIXES: Record<string, { count: number; prefixes: RegExp[] }> = {
  'project:media_hub': { count: 18, prefixes: [/^\/v2\/projects\/\{exid\}\/media-hub/, /^\/v2\/media-hub/] },
  'project:bim': { count: 13, prefixes: [/^\/v2\/cameras\/\{camera_exid\}\/(bim|layers)/] },
  'project:weather': { count: 3, prefixes: [/^\/v2\/projects\/\{exid\}\/weather/] },
  'project:video_wall': { count: 5, prefixes: [/^\/v2\/video-walls/] },
  'project:comments': { count: 5, prefixes: [/^\/v2\/projects\/\{exid\}\/comments/] },
  'project:connectors': { count: 46, prefixes: [/^\/v2\//] },
  'project:settings': { count: 32, prefixes: [/^\/v2\/projects\/\{exid\}/, /^\/v2\/cameras\/\{camera_exid\}/] },
};

let tp: TestPlatform;
let map: ScopeMapEntry[];
let openapi: { openapi: string; paths: Record<string, Record<string, { 'x-scopes'?: string[]; operationId?: string; tags?: string[] }>> };
beforeAll(async () => {
  tp = await buildTestPlatform();
  map = scopeMap(servicesOf(tp.app).registeredRoutes);
  openapi = (await tp.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json();
});
afterAll(() => tp.close());

const keyOf = (e: ScopeMapEntry) => `${e.method} ${e.path}`;

describe('the scope map', () => {
  it('gives the user, project and camera scopes their endpoints path by path', () => {
    const actual = Object.fromEntries(map.map((e) => [keyOf(e), e.scopes]));
    for (const [endpoint, scopes] of Object.entries(LISTED)) {
      expect(actual[endpoint], endpoint).toBeDefined();
      expect([...actual[endpoint]!].sort(), endpoint).toEqual([...scopes].sort());
    }
  });

  it('gives the camera-feature scopes their endpoints path by path', () => {
    const actual = Object.fromEntries(map.map((e) => [keyOf(e), e.scopes]));
    for (const [endpoint, scopes] of Object.entries(LISTED_CAMERA)) {
      expect(actual[endpoint], endpoint).toEqual(scopes);
    }
    // Live view 5 (with the ONVIF passthrough), recordings 13 (ANPR's list and its three sub-paths included), PTZ 14.
    expect(Object.keys(LISTED_CAMERA)).toHaveLength(5 + 13 + 14);
  });

  it('opens no endpoint to a scope not listed for it', () => {
    const allowed = new Map<string, string[]>(Object.entries({ ...LISTED, ...LISTED_CAMERA }));
    for (const e of map.filter((x) => x.scopes.length > 0)) {
      const listed = allowed.get(keyOf(e));
      if (listed) continue;
      // Otherwise it must be a project-feature endpoint under its scope's prefixes.
      expect(e.scopes, keyOf(e)).toHaveLength(1);
      const feature = FEATURE_PREFIXES[e.scopes[0]!];
      expect(feature, `${keyOf(e)} has scope ${e.scopes[0]} outside the listed endpoints`).toBeDefined();
      expect(
        feature!.prefixes.some((p) => p.test(e.path)),
        `${keyOf(e)} lies outside ${e.scopes[0]}'s prefixes`,
      ).toBe(true);
    }
  });

  it('gives each project-feature scope its exact count of operations, under its prefixes, in the map and in OpenAPI', () => {
    const published = Object.entries(openapi.paths).flatMap(([path, ops]) => Object.entries(ops).map(([, op]) => ({ path, scopes: op['x-scopes'] ?? [] })));
    for (const [scope, { count, prefixes }] of Object.entries(FEATURE_PREFIXES)) {
      const entries = map.filter((e) => e.scopes.includes(scope));
      expect(entries.length, scope).toBe(count);
      for (const e of entries)
        expect(
          prefixes.some((p) => p.test(e.path)),
          `${keyOf(e)} outside ${scope}'s prefixes`,
        ).toBe(true);
      expect(published.filter((o) => o.scopes.includes(scope)).length, `${scope} in OpenAPI`).toBe(count);
    }
  });

  it('closes the key, developer-app, admin and sign-in endpoints to keys', () => {
    const closed = map.filter(
      (e) =>
        /^\/v2\/(api-keys|developer\/apps|admin)(\/|$)/.test(e.path) ||
        ['/v2/auth/login', '/v2/auth/logout', '/v2/auth/users/me', '/v2/auth/credentials'].includes(e.path),
    );
    expect(closed.length).toBeGreaterThanOrEqual(12);
    for (const e of closed) expect(e.scopes, keyOf(e)).toEqual([]);
  });
});

describe('OpenAPI', () => {
  it('is OpenAPI 3.1 with x-scopes, an operationId and tags on every operation', () => {
    expect(openapi.openapi).toBe('3.1.0');
    const ids = new Set<string>();
    for (const [path, ops] of Object.entries(openapi.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(Array.isArray(op['x-scopes']), `${method} ${path}`).toBe(true);
        expect(op.operationId, `${method} ${path}`).toBeTruthy();
        expect(op.tags?.length, `${method} ${path}`).toBeGreaterThan(0);
        expect(ids.has(op.operationId!), `duplicate operationId ${op.operationId}`).toBe(false);
        ids.add(op.operationId!);
      }
    }
  });

  it('publishes exactly the scope map the server enforces', () => {
    const published = Object.entries(openapi.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([m, op]) => [`${m.toUpperCase()} ${path}`, op['x-scopes']] as const),
    );
    const enforced = map.map((e) => [keyOf(e), e.scopes] as const);
    expect(Object.fromEntries(published)).toEqual(Object.fromEntries(enforced));
  });

  it('serves an interactive reference at /docs', async () => {
    const page = await tp.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<title>Overlook main API reference</title>');
    // The page's script comes from this server, not a CDN (test/platform/openapi/docs-page.test.ts drives it).
    expect(page.body).toContain('src="js/scalar.js"');
  });
});

describe('docs/access-model.md', () => {
  it('holds the scope table generated from the routes (run `npm run docs:access` after changing routes)', () => {
    const doc = readFileSync(DOC, 'utf8');
    const table = doc.slice(doc.indexOf(BEGIN) + BEGIN.length, doc.indexOf(END)).trim();
    expect(table).toBe(renderScopeTable(map));
  });
});
