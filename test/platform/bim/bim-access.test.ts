// The access rules on each of the 13 BIM operations (project:bim): viewers read, editors write; and the
// published scope map carries project:bim on exactly those 13, under …/bim and …/layers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopeMap } from '../../../src/platform/access/scope-map.js';
import { checkEndpointAccess, type AccessWorld, type EndpointSpec } from '../../helpers/access.js';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';
import { b64, bimUrl, cameraParameters, createLayer, layersUrl, png, uploadCapture } from './bim-helpers.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

let tp: TestPlatform;
let image: string;
beforeAll(async () => {
  tp = await buildTestPlatform();
  image = b64(await png());
});
afterAll(() => tp.close());

// Each world's camera gets a capture, a pending request, camera parameters and a layer.
const withRecords: EndpointSpec['setup'] = async (t, w) => {
  const capture = await uploadCapture(t, w.owner, w.cameraExid, '2026-11-20T08:00:00Z');
  const pending = await t.app.inject({
    method: 'POST',
    url: bimUrl(w.cameraExid, '/pending'),
    headers: w.owner.auth,
    payload: { requested_for: '2026-12-01' },
  });
  expect(pending.statusCode).toBe(201);
  const params = await t.app.inject({ method: 'POST', url: bimUrl(w.cameraExid, '/camera-parameters'), headers: w.owner.auth, payload: cameraParameters });
  expect(params.statusCode).toBe(200);
  const layer = await createLayer(t, w.owner, w.cameraExid);
  return { captureId: capture.id, pendingId: pending.json().id, layerId: layer.id };
};

const spec = (
  method: EndpointSpec['method'],
  path: (w: AccessWorld) => string,
  role: 'viewer' | 'editor',
  okStatus: number,
  payload?: () => unknown,
  base = bimUrl,
): EndpointSpec => ({
  method,
  url: (w) => base(w.cameraExid, path(w)),
  otherUrl: (w) => base(w.otherCameraExid, path(w)),
  scopes: ['project:bim'],
  role,
  okStatus,
  setup: withRecords,
  ...(payload ? { payload } : {}),
});

describe('BIM operations (project:bim)', () => {
  const specs: [string, () => EndpointSpec][] = [
    ['GET …/bim', () => spec('GET', () => '', 'viewer', 200)],
    [
      'POST …/bim',
      () =>
        spec(
          'POST',
          () => '',
          'editor',
          201,
          () => ({ captured_at: '2026-11-21T08:00:00Z', image }),
        ),
    ],
    ['GET …/bim/{capture}', () => spec('GET', () => '/1763625600', 'viewer', 200)],
    ['DELETE …/bim/{capture}', () => spec('DELETE', (w) => `/${w.extra.captureId}`, 'editor', 204)],
    ['GET …/bim/pending', () => spec('GET', () => '/pending', 'viewer', 200)],
    [
      'POST …/bim/pending',
      () =>
        spec(
          'POST',
          () => '/pending',
          'editor',
          201,
          () => ({ requested_for: '2027-01-01T00:00:00Z' }),
        ),
    ],
    ['GET …/bim/camera-parameters', () => spec('GET', () => '/camera-parameters', 'viewer', 200)],
    [
      'POST …/bim/camera-parameters',
      () =>
        spec(
          'POST',
          () => '/camera-parameters',
          'editor',
          200,
          () => cameraParameters,
        ),
    ],
    ['GET …/layers', () => spec('GET', () => '', 'viewer', 200, undefined, layersUrl)],
    [
      'POST …/layers',
      () =>
        spec(
          'POST',
          () => '',
          'editor',
          201,
          () => ({ name: 'MEP', image }),
          layersUrl,
        ),
    ],
    ['GET …/layers/{id}', () => spec('GET', (w) => `/${w.extra.layerId}`, 'viewer', 200, undefined, layersUrl)],
    [
      'PUT …/layers/{id}',
      () =>
        spec(
          'PUT',
          (w) => `/${w.extra.layerId}`,
          'editor',
          200,
          () => ({ name: 'Renamed', opacity: 0.4 }),
          layersUrl,
        ),
    ],
    ['DELETE …/layers/{id}', () => spec('DELETE', (w) => `/${w.extra.layerId}`, 'editor', 204, undefined, layersUrl)],
  ];
  for (const [name, make] of specs) it(name, () => checkEndpointAccess(tp, make()));

  it('the scope map puts project:bim on exactly these 13 operations', () => {
    const ops = scopeMap(servicesOf(tp.app).registeredRoutes).filter((r) => r.scopes.includes('project:bim'));
    expect(ops.length).toBe(13);
    for (const op of ops) expect(op.path).toMatch(/^\/v2\/cameras\/\{camera_exid\}\/(bim|layers)(\/|$)/);
  });
});
