// The counts for the weather, video-wall and comments scopes (docs/access-model.md): exactly these operations
// under these prefixes, as the published OpenAPI and the scope map show them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopeMap } from '../../../src/platform/access/scope-map.js';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

let tp: TestPlatform;
beforeAll(async () => {
  tp = await buildTestPlatform();
});
afterAll(() => tp.close());

const EXPECTED: Record<string, string[]> = {
  'project:weather': ['GET /v2/projects/{exid}/weather', 'GET /v2/projects/{exid}/weather/current', 'GET /v2/projects/{exid}/weather/filters'],
  'project:video_wall': [
    'DELETE /v2/video-walls/{id}',
    'GET /v2/video-walls',
    'GET /v2/video-walls/{id}',
    'PATCH /v2/video-walls/{id}',
    'POST /v2/video-walls',
  ],
  'project:comments': [
    'DELETE /v2/projects/{exid}/comments/{id}',
    'GET /v2/projects/{exid}/comments',
    'GET /v2/projects/{exid}/comments/{id}',
    'PATCH /v2/projects/{exid}/comments/{id}',
    'POST /v2/projects/{exid}/comments',
  ],
};

describe('project-feature scope counts', () => {
  it('the scope map holds exactly these operations per scope', () => {
    const map = scopeMap(servicesOf(tp.app).registeredRoutes);
    for (const [scope, ops] of Object.entries(EXPECTED)) {
      expect(
        map
          .filter((e) => e.scopes.includes(scope))
          .map((e) => `${e.method} ${e.path}`)
          .sort(),
        scope,
      ).toEqual(ops);
    }
  });

  it('the published OpenAPI shows the same', async () => {
    const doc = (await tp.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json() as {
      paths: Record<string, Record<string, { 'x-scopes'?: string[] }>>;
    };
    for (const [scope, ops] of Object.entries(EXPECTED)) {
      const found: string[] = [];
      for (const [path, methods] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(methods)) if (op['x-scopes']?.includes(scope)) found.push(`${method.toUpperCase()} ${path}`);
      }
      expect(found.sort(), scope).toEqual(ops);
    }
  });
});
