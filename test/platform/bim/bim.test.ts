// BIM behaviour: uploaded renders come back byte for byte and decode, the nearest capture for a date
// from either side, pending renders completed by an upload, camera parameters round-trip, layers are
// replaced and deleted with their images, bad input is a 4xx, and the camera deletion hook leaves no
// BIM object behind.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Person, TestPlatform } from '../../helpers/platform.js';
import { buildTestPlatform } from '../../helpers/platform.js';
import { b64, bimUrl, cameraParameters, createLayer, jpeg, layersUrl, png, uploadCapture } from './bim-helpers.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

let tp: TestPlatform;
let owner: Person;
let viewer: Person;
let exid: string;

// Small limits, so "too large" is cheap to reach.
const MAX_BYTES = 60_000;
const MAX_PIXELS = 1_000_000;

beforeAll(async () => {
  tp = await buildTestPlatform({ OVERLOOK_BIM_IMAGE_MAX_BYTES: String(MAX_BYTES), OVERLOOK_BIM_IMAGE_MAX_PIXELS: String(MAX_PIXELS) });
  owner = await tp.person('owner');
  viewer = await tp.person('viewer');
  const project = await tp.project(owner, 'Tower');
  exid = (await tp.camera(owner, project.exid, 'Crane cam')).exid;
  await tp.addMember(owner, project.exid, viewer, 'viewer');
});
afterAll(() => tp.close());

const newCamera = async () => {
  const project = await tp.project(owner, 'Site');
  await tp.addMember(owner, project.exid, viewer, 'viewer');
  return (await tp.camera(owner, project.exid, 'Cam')).exid;
};

describe('captures', () => {
  it('stores an upload and serves the same bytes back, as JSON record or image', async () => {
    const cam = await newCamera();
    const image = await png(120, 90);
    const up = await tp.app.inject({
      method: 'POST',
      url: bimUrl(cam),
      headers: owner.auth,
      payload: { captured_at: '2026-03-01T10:00:00+02:00', image: `data:image/png;base64,${b64(image)}`, name: 'Level 3' },
    });
    expect(up.statusCode, up.body).toBe(201);
    const capture = up.json();
    expect(capture).toMatchObject({
      captured_at: '2026-03-01T08:00:00.000Z',
      name: 'Level 3',
      content_type: 'image/png',
      width: 120,
      height: 90,
      size: image.length,
      uploaded_by: owner.id,
    });

    const json = await tp.app.inject({ method: 'GET', url: bimUrl(cam, '/2026-03-01T08:00:00Z'), headers: viewer.auth });
    expect(json.statusCode).toBe(200);
    expect(json.json().id).toBe(capture.id);

    const img = await tp.app.inject({ method: 'GET', url: capture.image_url, headers: viewer.auth });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.rawPayload.equals(image)).toBe(true);
    const meta = await sharp(img.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['png', 120, 90, true]);

    // Accept negotiation: image/* gets the image, */* and no header get JSON; the ETag answers 304.
    const byAccept = await tp.app.inject({
      method: 'GET',
      url: bimUrl(cam, '/2026-03-01'),
      headers: { ...viewer.auth, accept: 'image/avif,image/webp,image/*,*/*;q=0.8' },
    });
    expect(byAccept.rawPayload.equals(image)).toBe(true);
    const star = await tp.app.inject({ method: 'GET', url: bimUrl(cam, '/2026-03-01'), headers: { ...viewer.auth, accept: '*/*' } });
    expect(star.headers['content-type']).toMatch(/^application\/json/);
    const again = await tp.app.inject({ method: 'GET', url: capture.image_url, headers: { ...viewer.auth, 'if-none-match': img.headers.etag as string } });
    expect(again.statusCode).toBe(304);

    const list = await tp.app.inject({ method: 'GET', url: bimUrl(cam), headers: viewer.auth });
    expect(list.json().data.map((c: { id: string }) => c.id)).toEqual([capture.id]);
    expect(list.json().meta.total_count).toBe(1);
  });

  it('answers the nearest capture for a date from either side, by ISO date or Unix seconds', async () => {
    const cam = await newCamera();
    const jan = await uploadCapture(tp, owner, cam, '2026-01-01T00:00:00Z', await jpeg());
    const mar = await uploadCapture(tp, owner, cam, '2026-03-01T00:00:00Z');
    const nearest = async (at: string) => (await tp.app.inject({ method: 'GET', url: bimUrl(cam, `/${at}`), headers: viewer.auth })).json().id;
    expect(await nearest('2025-06-01T00:00:00Z')).toBe(jan.id); // before every capture
    expect(await nearest('2026-01-20')).toBe(jan.id); // after January, closer to it
    expect(await nearest('2026-02-20')).toBe(mar.id); // before March, closer to it
    expect(await nearest('2030-01-01')).toBe(mar.id); // after every capture
    expect(await nearest(String(Date.parse('2026-02-25T00:00:00Z') / 1000))).toBe(mar.id);
    expect(await nearest(String(Date.parse('2026-01-05T00:00:00Z') / 1000))).toBe(jan.id);

    const jpg = await tp.app.inject({ method: 'GET', url: bimUrl(cam, '/2026-01-02?format=image'), headers: viewer.auth });
    expect(jpg.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(jpg.rawPayload).metadata()).format).toBe('jpeg');

    const range = await tp.app.inject({ method: 'GET', url: bimUrl(cam, '?from=2026-02-01&sort=asc'), headers: viewer.auth });
    expect(range.json().data.map((c: { id: string }) => c.id)).toEqual([mar.id]);
  });

  it('refuses a second capture for the same date, and deletes one with its image', async () => {
    const cam = await newCamera();
    const first = await uploadCapture(tp, owner, cam, 1767225600);
    const dup = await tp.app.inject({
      method: 'POST',
      url: bimUrl(cam),
      headers: owner.auth,
      payload: { captured_at: '2026-01-01T00:00:00Z', image: b64(await png()) },
    });
    expect(dup.statusCode).toBe(409);
    const key = (await tp.t.db.kysely.selectFrom('bim_captures').select('image_key').where('id', '=', first.id).executeTakeFirstOrThrow()).image_key;
    expect(await servicesOf(tp.app).storage.getBytes(key)).not.toBeNull();
    const del = await tp.app.inject({ method: 'DELETE', url: bimUrl(cam, `/${first.id}`), headers: owner.auth });
    expect(del.statusCode).toBe(204);
    expect(await servicesOf(tp.app).storage.getBytes(key)).toBeNull();
    expect((await tp.app.inject({ method: 'GET', url: bimUrl(cam, '/2026-01-01'), headers: owner.auth })).statusCode).toBe(404);
    expect((await tp.app.inject({ method: 'DELETE', url: bimUrl(cam, `/${first.id}`), headers: owner.auth })).statusCode).toBe(404);
  });
});

describe('pending captures', () => {
  it('lists requests, takes progress reports, and is completed by the upload that answers it', async () => {
    const cam = await newCamera();
    const created = await tp.app.inject({
      method: 'POST',
      url: bimUrl(cam, '/pending'),
      headers: owner.auth,
      payload: { requested_for: '2026-05-01', note: 'after the slab pour' },
    });
    expect(created.statusCode).toBe(201);
    const req = created.json();
    expect(req).toMatchObject({ status: 'pending', requested_for: '2026-05-01T00:00:00.000Z', note: 'after the slab pour', capture_id: null });

    const report = await tp.app.inject({
      method: 'POST',
      url: bimUrl(cam, '/pending'),
      headers: owner.auth,
      payload: { id: req.id, status: 'processing', message: 'rendering in Revit' },
    });
    expect(report.statusCode).toBe(200);
    expect(report.json()).toMatchObject({ id: req.id, status: 'processing', message: 'rendering in Revit' });
    const open = await tp.app.inject({ method: 'GET', url: bimUrl(cam, '/pending'), headers: viewer.auth });
    expect(open.json().data.map((p: { id: string; status: string }) => [p.id, p.status])).toEqual([[req.id, 'processing']]);

    // The render arrives: no date needed, the request's is used, and the request is completed.
    const up = await tp.app.inject({ method: 'POST', url: bimUrl(cam), headers: owner.auth, payload: { pending_id: req.id, image: b64(await png()) } });
    expect(up.statusCode, up.body).toBe(201);
    expect(up.json().captured_at).toBe('2026-05-01T00:00:00.000Z');
    expect((await tp.app.inject({ method: 'GET', url: bimUrl(cam, '/pending'), headers: viewer.auth })).json().data).toEqual([]);
    const all = await tp.app.inject({ method: 'GET', url: bimUrl(cam, '/pending?status=all'), headers: viewer.auth });
    expect(all.json().data[0]).toMatchObject({ id: req.id, status: 'completed', capture_id: up.json().id });
    // Completed requests take no more reports or uploads.
    expect(
      (await tp.app.inject({ method: 'POST', url: bimUrl(cam, '/pending'), headers: owner.auth, payload: { id: req.id, status: 'failed' } })).statusCode,
    ).toBe(409);
  });

  it('refuses bad requests with 4xx', async () => {
    const cam = await newCamera();
    for (const payload of [
      {},
      { requested_for: 'tomorrow' },
      { requested_for: '2026-02-30' },
      { requested_for: '2026-01-01', status: 'completed' },
      { id: 'nope', status: 'failed' },
      { id: '0190a0b0-0000-7000-8000-000000000000', status: 'failed' },
    ]) {
      const res = await tp.app.inject({ method: 'POST', url: bimUrl(cam, '/pending'), headers: owner.auth, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, JSON.stringify(payload)).toBeLessThan(500);
    }
    expect((await tp.app.inject({ method: 'GET', url: bimUrl(cam, '/pending?status=done'), headers: owner.auth })).statusCode).toBe(400);
  });
});

describe('camera parameters', () => {
  it('round-trip, are replaced by the next POST, and 404 until set', async () => {
    const cam = await newCamera();
    expect((await tp.app.inject({ method: 'GET', url: bimUrl(cam, '/camera-parameters'), headers: viewer.auth })).statusCode).toBe(404);
    const set = await tp.app.inject({ method: 'POST', url: bimUrl(cam, '/camera-parameters'), headers: owner.auth, payload: cameraParameters });
    expect(set.statusCode, set.body).toBe(200);
    const got = await tp.app.inject({ method: 'GET', url: bimUrl(cam, '/camera-parameters'), headers: owner.auth });
    expect(got.json()).toMatchObject({ ...cameraParameters, updated_by: owner.id });
    const changed = { ...cameraParameters, fov: 90, position: { x: 0, y: 0, z: 40 } };
    await tp.app.inject({ method: 'POST', url: bimUrl(cam, '/camera-parameters'), headers: owner.auth, payload: changed });
    expect((await tp.app.inject({ method: 'GET', url: bimUrl(cam, '/camera-parameters'), headers: owner.auth })).json()).toMatchObject(changed);
  });

  it('refuses numbers out of range or of the wrong type with 400', async () => {
    const bad = [
      { ...cameraParameters, fov: 0 },
      { ...cameraParameters, fov: 180 },
      { ...cameraParameters, rotation: { ...cameraParameters.rotation, pitch: 91 } },
      { ...cameraParameters, image_width: 0 },
      { ...cameraParameters, image_height: 10.5 },
      { ...cameraParameters, position: { x: '1', y: 0, z: 0 } },
      { ...cameraParameters, position: { x: 1e12, y: 0, z: 0 } },
      { rotation: cameraParameters.rotation },
    ];
    for (const payload of bad) {
      const res = await tp.app.inject({ method: 'POST', url: bimUrl(exid, '/camera-parameters'), headers: owner.auth, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('layers', () => {
  it('creates, lists by date and order, serves the image, replaces and deletes', async () => {
    const cam = await newCamera();
    const image = await png(32, 32, 0.25);
    const a = await createLayer(tp, owner, cam, {
      name: 'Facade',
      image: b64(image),
      opacity: 0.6,
      z_index: 2,
      from_date: '2026-01-01',
      to_date: '2026-06-30',
    });
    const b = await createLayer(tp, owner, cam, { name: 'Crane', image: b64(await jpeg()), z_index: -1, visible: false });
    expect(a).toMatchObject({
      name: 'Facade',
      opacity: 0.6,
      z_index: 2,
      visible: true,
      has_alpha: true,
      content_type: 'image/png',
      from_date: '2026-01-01T00:00:00.000Z',
      to_date: '2026-06-30T00:00:00.000Z',
    });
    expect(b).toMatchObject({ has_alpha: false, content_type: 'image/jpeg', visible: false });

    const ids = async (q: string) =>
      (await tp.app.inject({ method: 'GET', url: layersUrl(cam, q), headers: viewer.auth })).json().data.map((l: { id: string }) => l.id);
    expect(await ids('')).toEqual([b.id, a.id]);
    expect(await ids('?date=2026-03-01')).toEqual([b.id, a.id]);
    expect(await ids('?date=2026-08-01')).toEqual([b.id]);
    expect(await ids('?visible=true')).toEqual([a.id]);

    const img = await tp.app.inject({ method: 'GET', url: layersUrl(cam, `/${a.id}?format=image`), headers: viewer.auth });
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.rawPayload.equals(image)).toBe(true);
    const oldKey = (await tp.t.db.kysely.selectFrom('bim_layers').select('image_key').where('id', '=', a.id).executeTakeFirstOrThrow()).image_key;

    // Replace without an image: every field replaced (dates cleared), image kept.
    const keep = await tp.app.inject({ method: 'PUT', url: layersUrl(cam, `/${a.id}`), headers: owner.auth, payload: { name: 'Facade v2', opacity: 0.3 } });
    expect(keep.statusCode, keep.body).toBe(200);
    expect(keep.json()).toMatchObject({
      name: 'Facade v2',
      opacity: 0.3,
      z_index: 0,
      visible: true,
      from_date: null,
      to_date: null,
      content_type: 'image/png',
    });
    // Replace with an image: the new bytes are served, the old object is gone.
    const next = await jpeg(50, 40);
    const swap = await tp.app.inject({ method: 'PUT', url: layersUrl(cam, `/${a.id}`), headers: owner.auth, payload: { name: 'Facade v3', image: b64(next) } });
    expect(swap.json()).toMatchObject({ name: 'Facade v3', content_type: 'image/jpeg', width: 50, height: 40 });
    const img2 = await tp.app.inject({ method: 'GET', url: layersUrl(cam, `/${a.id}`), headers: { ...viewer.auth, accept: 'image/*' } });
    expect(img2.rawPayload.equals(next)).toBe(true);
    expect(await servicesOf(tp.app).storage.getBytes(oldKey)).toBeNull();
    expect((await tp.app.inject({ method: 'GET', url: layersUrl(cam, `/${a.id}`), headers: viewer.auth })).json().name).toBe('Facade v3');

    const newKey = (await tp.t.db.kysely.selectFrom('bim_layers').select('image_key').where('id', '=', a.id).executeTakeFirstOrThrow()).image_key;
    expect((await tp.app.inject({ method: 'DELETE', url: layersUrl(cam, `/${a.id}`), headers: owner.auth })).statusCode).toBe(204);
    expect(await servicesOf(tp.app).storage.getBytes(newKey)).toBeNull();
    expect((await tp.app.inject({ method: 'GET', url: layersUrl(cam, `/${a.id}`), headers: viewer.auth })).statusCode).toBe(404);
    expect(await ids('')).toEqual([b.id]);
  });

  it('refuses bad layers with 4xx', async () => {
    const image = b64(await png());
    const bad: Record<string, unknown>[] = [
      { image },
      { name: '   ', image },
      { name: 'x' },
      { name: 'x', image, opacity: 1.5 },
      { name: 'x', image, z_index: 1.5 },
      { name: 'x', image, from_date: '2026-06-01', to_date: '2026-01-01' },
      { name: 'x', image, from_date: '01/02/2026' },
      { name: 'x', image, visible: 'yes' },
    ];
    for (const payload of bad) {
      const res = await tp.app.inject({ method: 'POST', url: layersUrl(exid), headers: owner.auth, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const missing = '0190a0b0-0000-7000-8000-000000000000';
    expect((await tp.app.inject({ method: 'PUT', url: layersUrl(exid, `/${missing}`), headers: owner.auth, payload: { name: 'x' } })).statusCode).toBe(404);
    expect((await tp.app.inject({ method: 'GET', url: layersUrl(exid, '/not-an-id'), headers: owner.auth })).statusCode).toBe(400);
    expect((await tp.app.inject({ method: 'GET', url: layersUrl(exid, '?date=soon'), headers: owner.auth })).statusCode).toBe(400);
  });
});

describe('upload validation', () => {
  const upload = (payload: unknown) => tp.app.inject({ method: 'POST', url: bimUrl(exid), headers: owner.auth, payload: payload as object });

  it('refuses non-images, disallowed types, truncated, oversized and huge images, and bad dates', async () => {
    const good = await png();
    const cases: [string, unknown, number][] = [
      ['text', { captured_at: '2026-01-01', image: Buffer.from('hello, not an image').toString('base64') }, 400],
      ['not base64', { captured_at: '2026-01-01', image: '***' }, 400],
      [
        'a GIF',
        {
          captured_at: '2026-01-01',
          image: b64(
            await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
              .gif()
              .toBuffer(),
          ),
        },
        415,
      ],
      ['a truncated PNG', { captured_at: '2026-01-01', image: b64(good.subarray(0, Math.floor(good.length / 2))) }, 400],
      [
        'too many bytes',
        {
          captured_at: '2026-01-01',
          image: b64(
            await sharp({ create: { width: 400, height: 400, channels: 3, background: '#888', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
              .png()
              .toBuffer(),
          ),
        },
        413,
      ],
      [
        'too many pixels',
        {
          captured_at: '2026-01-01',
          image: b64(
            await sharp({ create: { width: 1200, height: 1000, channels: 3, background: '#fff' } })
              .png()
              .toBuffer(),
          ),
        },
        413,
      ],
      ['no date', { image: b64(good) }, 400],
      ['bad date', { captured_at: '2026-13-01', image: b64(good) }, 400],
      ['date without zone', { captured_at: '2026-01-01T10:00:00', image: b64(good) }, 400],
      ['negative seconds', { captured_at: -5, image: b64(good) }, 400],
      ['unknown pending', { pending_id: '0190a0b0-0000-7000-8000-000000000000', image: b64(good) }, 404],
      ['extra field', { captured_at: '2026-01-01', image: b64(good), colour: 'red' }, 400],
    ];
    for (const [what, payload, status] of cases) {
      const res = await upload(payload);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(status);
      expect(res.json().code, what).toBeTruthy();
    }
    // Nothing was stored by any refused upload.
    const cameraId = (await servicesOf(tp.app).cameras.row(exid)).id;
    expect(await tp.t.db.kysely.selectFrom('bim_captures').selectAll().where('camera_id', '=', cameraId).execute()).toEqual([]);
  });

  it('refuses bad dates, ids and formats in reads with 400 or 404', async () => {
    for (const path of ['/yesterday', '/2026-02-30', '/99999999999999', '/2026-01-01T10:00:00', '/2026-01-01?format=gif']) {
      const res = await tp.app.inject({ method: 'GET', url: bimUrl(exid, path), headers: owner.auth });
      expect(res.statusCode, path).toBe(400);
    }
    expect((await tp.app.inject({ method: 'GET', url: bimUrl(exid, '/2026-01-01'), headers: owner.auth })).statusCode).toBe(404);
    expect((await tp.app.inject({ method: 'DELETE', url: bimUrl(exid, '/2026-01-01'), headers: owner.auth })).statusCode).toBe(400);
    expect((await tp.app.inject({ method: 'GET', url: bimUrl(exid, '?from=2026-02-01&to=2026-01-01'), headers: owner.auth })).statusCode).toBe(400);
    expect((await tp.app.inject({ method: 'GET', url: '/v2/cameras/no-such-camera/bim', headers: owner.auth })).statusCode).toBe(404);
  });
});

describe('camera deletion', () => {
  it('the deletion hook removes every BIM image of the camera and nothing else', async () => {
    const cam = await newCamera();
    const other = await newCamera();
    await uploadCapture(tp, owner, cam, '2026-01-01T00:00:00Z');
    await uploadCapture(tp, owner, cam, '2026-02-01T00:00:00Z', await jpeg());
    await createLayer(tp, owner, cam);
    await uploadCapture(tp, owner, other, '2026-01-01T00:00:00Z');
    const row = await servicesOf(tp.app).cameras.row(cam);
    const otherRow = await servicesOf(tp.app).cameras.row(other);
    const keysOf = async (cameraId: string) =>
      [
        ...(await tp.t.db.kysely.selectFrom('bim_captures').select('image_key').where('camera_id', '=', cameraId).execute()),
        ...(await tp.t.db.kysely.selectFrom('bim_layers').select('image_key').where('camera_id', '=', cameraId).execute()),
      ].map((r) => r.image_key);
    const keys = await keysOf(row.id);
    expect(keys.length).toBe(3);
    for (const k of keys) expect(await servicesOf(tp.app).storage.getBytes(k)).not.toBeNull();

    await servicesOf(tp.app).deletionHooks.beforeCameraDelete({ id: row.id, exid: cam, projectId: row.project_id });
    for (const k of keys) expect(await servicesOf(tp.app).storage.getBytes(k), k).toBeNull();
    for (const k of await keysOf(otherRow.id)) expect(await servicesOf(tp.app).storage.getBytes(k)).not.toBeNull();

    // The rows follow the camera by cascade.
    await tp.t.db.kysely.deleteFrom('cameras').where('id', '=', row.id).execute();
    expect(await keysOf(row.id)).toEqual([]);
    expect(await tp.t.db.kysely.selectFrom('bim_pending').selectAll().where('camera_id', '=', row.id).execute()).toEqual([]);
  });
});

describe('upload size and the request body limit', () => {
  it('takes a render larger than OVERLOOK_BODY_LIMIT on the upload routes only, of the configured types', async () => {
    const small = await buildTestPlatform({ OVERLOOK_BODY_LIMIT: '65536', OVERLOOK_BIM_IMAGE_TYPES: 'png, webp' });
    try {
      const boss = await small.person('boss');
      const project = await small.project(boss, 'Big renders');
      const cam = (await small.camera(boss, project.exid, 'Cam')).exid;
      const render = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#888', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
        .png()
        .toBuffer();
      expect(render.length).toBeGreaterThan(65536);
      const up = await small.app.inject({ method: 'POST', url: bimUrl(cam), headers: boss.auth, payload: { captured_at: '2026-01-01', image: b64(render) } });
      expect(up.statusCode, up.body).toBe(201);
      const back = await small.app.inject({ method: 'GET', url: `${up.json().image_url}`, headers: boss.auth });
      expect(back.rawPayload.equals(render)).toBe(true);
      const layer = await small.app.inject({ method: 'POST', url: layersUrl(cam), headers: boss.auth, payload: { name: 'Big', image: b64(render) } });
      expect(layer.statusCode, layer.body).toBe(201);
      // OVERLOOK_BIM_IMAGE_TYPES leaves JPEG out here.
      const jpg = await small.app.inject({
        method: 'POST',
        url: bimUrl(cam),
        headers: boss.auth,
        payload: { captured_at: '2026-02-01', image: b64(await jpeg()) },
      });
      expect(jpg.statusCode).toBe(415);
      expect(jpg.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
      // Other BIM routes keep the platform's limit.
      const params = await small.app.inject({
        method: 'POST',
        url: bimUrl(cam, '/camera-parameters'),
        headers: { ...boss.auth, 'content-type': 'application/json' },
        payload: JSON.stringify({ ...cameraParameters, pad: 'x'.repeat(70_000) }),
      });
      expect(params.statusCode).toBe(413);
    } finally {
      await small.close();
    }
  });

  it('publishes the 13 operations in the OpenAPI document', async () => {
    const doc = (await tp.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json();
    const ops = Object.entries(doc.paths as Record<string, Record<string, { 'x-scopes'?: string[] }>>).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, op]) => op['x-scopes']?.includes('project:bim'))
        .map(([m]) => `${m.toUpperCase()} ${path}`),
    );
    expect(ops.sort()).toEqual(
      [
        'GET /v2/cameras/{camera_exid}/bim',
        'POST /v2/cameras/{camera_exid}/bim',
        'GET /v2/cameras/{camera_exid}/bim/{capture}',
        'DELETE /v2/cameras/{camera_exid}/bim/{capture}',
        'GET /v2/cameras/{camera_exid}/bim/pending',
        'POST /v2/cameras/{camera_exid}/bim/pending',
        'GET /v2/cameras/{camera_exid}/bim/camera-parameters',
        'POST /v2/cameras/{camera_exid}/bim/camera-parameters',
        'GET /v2/cameras/{camera_exid}/layers',
        'POST /v2/cameras/{camera_exid}/layers',
        'GET /v2/cameras/{camera_exid}/layers/{id}',
        'PUT /v2/cameras/{camera_exid}/layers/{id}',
        'DELETE /v2/cameras/{camera_exid}/layers/{id}',
      ].sort(),
    );
  });
});

describe('deleting a camera through the API', () => {
  it('DELETE /v2/cameras/{camera_exid} leaves no BIM row or image behind', async () => {
    const cam = await newCamera();
    await uploadCapture(tp, owner, cam, '2026-01-01T00:00:00Z');
    await createLayer(tp, owner, cam);
    await tp.app.inject({ method: 'POST', url: bimUrl(cam, '/camera-parameters'), headers: owner.auth, payload: cameraParameters });
    await tp.app.inject({ method: 'POST', url: bimUrl(cam, '/pending'), headers: owner.auth, payload: { requested_for: '2026-04-01' } });
    const cameraId = (await servicesOf(tp.app).cameras.row(cam)).id;
    const db = tp.t.db.kysely;
    const keys = [
      ...(await db.selectFrom('bim_captures').select('image_key').where('camera_id', '=', cameraId).execute()),
      ...(await db.selectFrom('bim_layers').select('image_key').where('camera_id', '=', cameraId).execute()),
    ].map((r) => r.image_key);
    expect(keys.length).toBe(2);

    const del = await tp.app.inject({ method: 'DELETE', url: `/v2/cameras/${cam}`, headers: owner.auth });
    expect(del.statusCode, del.body).toBe(204);
    for (const k of keys) expect(await servicesOf(tp.app).storage.getBytes(k)).toBeNull();
    for (const table of ['bim_captures', 'bim_layers', 'bim_pending', 'bim_camera_parameters'] as const) {
      expect(await db.selectFrom(table).select('camera_id').where('camera_id', '=', cameraId).execute(), table).toEqual([]);
    }
  });
});
