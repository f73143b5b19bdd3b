// ANPR behaviour: what cameras push (normalised plates, times, boxes, images, vendor extras), what is
// refused (4xx, nothing stored), and the reads: filters, pagination, plates with counts, watch-list
// matches and the plate image round trip (decoded with sharp). Runs on SQLite and PostgreSQL.
import sharp from 'sharp';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { testDialect } from '../../helpers/db.js';
import { ingest, ingestionToken, jpeg, push } from './anpr-helpers.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

let tp: TestPlatform;
let owner: Person;
let projectExid: string;
let cam: string;
let token: string;
beforeAll(async () => {
  tp = await buildTestPlatform();
  owner = await tp.person('owner');
  projectExid = (await tp.project(owner, 'Depot')).exid;
  cam = (await tp.camera(owner, projectExid, 'Gate')).exid;
  token = (await ingestionToken(tp, owner, cam)).token;
});
afterAll(() => tp.close());

const get = (url: string, headers: Record<string, string> = owner.auth) => tp.app.inject({ method: 'GET', url, headers });

describe('ingestion', () => {
  it('stores the normalised plate and the raw text, the time in UTC, direction, confidence, box and vendor extras', async () => {
    const e = await ingest(tp, cam, token, {
      plate_number: ' ab 12-cd ',
      capture_time: '2026-11-22T09:15:30.250+02:00',
      direction: 'out',
      confidence: 0.87,
      bounding_box: [410, 220, 560, 262],
      list_type: 'white',
      vehicle_type: 'truck',
      metadata: { lane: 2 },
    });
    expect(e).toMatchObject({
      plate: 'AB12CD',
      plate_raw: 'ab 12-cd',
      captured_at: '2026-11-22T07:15:30.250Z',
      direction: 'out',
      confidence: 0.87,
      bounding_box: [410, 220, 560, 262],
      bounding_box_units: 'pixels',
      has_plate_image: false,
      metadata: { list_type: 'white', vehicle_type: 'truck', lane: 2 },
    });
    const again = await get(`/v2/cameras/${cam}/anpr/${e.id}`);
    expect(again.json()).toMatchObject({ ...e, plate_image: null });
  });

  it('accepts the alternative names (plate, captured_at as epoch ms), normalised boxes, and defaults the time to now', async () => {
    const at = Date.UTC(2026, 10, 22, 6, 0, 0);
    const e = await ingest(tp, cam, token, { plate: 'ÅBC 123', captured_at: at, bounding_box: [0.1, 0.2, 0.3, 0.25], bounding_box_units: 'normalized' });
    expect(e).toMatchObject({ plate: 'ÅBC123', captured_at: new Date(at).toISOString(), bounding_box_units: 'normalized', confidence: null });
    const before = Date.now();
    const now = await ingest(tp, cam, token, { plate_number: 'NOW1' });
    expect(Date.parse(now.captured_at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('refuses bad input with a 4xx and stores nothing', async () => {
    const png = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const good = await jpeg();
    const truncated = good.subarray(0, Math.floor(good.length / 2));
    const huge = await sharp({ create: { width: 5000, height: 5000, channels: 3, background: '#fff' } })
      .jpeg()
      .toBuffer();
    const t0 = '2026-11-22T10:00:00Z';
    const cases: [string, object, number][] = [
      ['no plate', { capture_time: t0 }, 400],
      ['a blank plate', { plate_number: ' - ', capture_time: t0 }, 400],
      ['punctuation only', { plate_number: '#?!', capture_time: t0 }, 400],
      ['a too long plate', { plate_number: 'A'.repeat(21), capture_time: t0 }, 400],
      ['both plate names', { plate_number: 'AB1', plate: 'AB1', capture_time: t0 }, 400],
      ['a number plate', { plate_number: 1234, capture_time: t0 }, 400],
      ['a bad time', { plate_number: 'AB1', capture_time: 'yesterday' }, 400],
      ['30 February', { plate_number: 'AB1', capture_time: '2026-02-30T10:00:00Z' }, 400],
      ['a time without a zone', { plate_number: 'AB1', capture_time: '2026-11-22T10:00:00' }, 400],
      ['month 13', { plate_number: 'AB1', capture_time: '2026-13-01T10:00:00Z' }, 400],
      ['a time a week ahead', { plate_number: 'AB1', capture_time: new Date(Date.now() + 7 * 86_400_000).toISOString() }, 400],
      ['a negative epoch', { plate_number: 'AB1', capture_time: -5 }, 400],
      ['a bad direction', { plate_number: 'AB1', direction: 'sideways' }, 400],
      ['confidence above 1', { plate_number: 'AB1', confidence: 87 }, 400],
      ['confidence below 0', { plate_number: 'AB1', confidence: -0.1 }, 400],
      ['confidence as text', { plate_number: 'AB1', confidence: '0.9' }, 400],
      ['a box of 3', { plate_number: 'AB1', bounding_box: [1, 2, 3] }, 400],
      ['a box of 5', { plate_number: 'AB1', bounding_box: [1, 2, 3, 4, 5] }, 400],
      ['an inverted box', { plate_number: 'AB1', bounding_box: [50, 50, 10, 60] }, 400],
      ['a negative box', { plate_number: 'AB1', bounding_box: [-1, 0, 10, 10] }, 400],
      ['a normalized box above 1', { plate_number: 'AB1', bounding_box: [0, 0, 2, 1], bounding_box_units: 'normalized' }, 400],
      ['units without a box', { plate_number: 'AB1', bounding_box_units: 'pixels' }, 400],
      ['bad units', { plate_number: 'AB1', bounding_box: [0, 0, 1, 1], bounding_box_units: 'inches' }, 400],
      ['a PNG image', { plate_number: 'AB1', plate_image: png.toString('base64') }, 400],
      ['a truncated JPEG', { plate_number: 'AB1', plate_image: truncated.toString('base64') }, 400],
      ['not base64', { plate_number: 'AB1', plate_image: '***not base64***' }, 400],
      ['an empty image', { plate_number: 'AB1', plate_image: '' }, 400],
      ['metadata not an object', { plate_number: 'AB1', metadata: [1, 2] }, 400],
      ['a 25-megapixel image', { plate_number: 'AB1', plate_image: huge.toString('base64') }, 400],
      ['an emoji plate', { plate_number: '🚗🚗', capture_time: t0 }, 400],
      ['a NUL in the plate', { plate_number: 'AB\u00001' }, 400],
      ['a time in 1969', { plate_number: 'AB1', capture_time: '1969-12-31T23:59:59Z' }, 400],
      ['an epoch far away', { plate_number: 'AB1', capture_time: 1e20 }, 400],
    ];
    const before = (await get(`/v2/cameras/${cam}/anpr`)).json().meta.total_count;
    for (const [what, payload, status] of cases) {
      const res = await push(tp, cam, token, payload);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(status);
      expect(res.json().code, what).toBe('VALIDATION_ERROR');
    }
    const text = await tp.app.inject({
      method: 'POST',
      url: `/v2/cameras/${cam}/anpr/events`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      payload: 'AB12CD',
    });
    // Fastify reads text/plain as a string: the body is then not the JSON object the route takes.
    expect(text.statusCode).toBe(400);
    const broken = await tp.app.inject({
      method: 'POST',
      url: `/v2/cameras/${cam}/anpr/events`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: '{"plate_number":',
    });
    expect(broken.statusCode).toBe(400);
    const oversized = await push(tp, cam, token, { plate_number: 'AB1', plate_image: 'A'.repeat(1_100_000) });
    expect(oversized.statusCode).toBe(413);
    for (const payload of ['null', '[1,2]', '"AB12CD"', '{"plate_number": "AB1", "metadata": ' + '{"a":'.repeat(5000) + '1' + '}'.repeat(5000) + '}']) {
      const res = await tp.app.inject({
        method: 'POST',
        url: `/v2/cameras/${cam}/anpr/events`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload.slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, payload.slice(0, 40)).toBeLessThan(500);
    }
    expect((await get(`/v2/cameras/${cam}/anpr`)).json().meta.total_count).toBe(before);
  });

  it('size limits on the image and the metadata: 413', async () => {
    const small = await buildTestPlatform({ OVERLOOK_ANPR_IMAGE_MAX_BYTES: '1500', OVERLOOK_ANPR_METADATA_MAX_BYTES: '100' });
    try {
      const o = await small.person('owner');
      const p = await small.project(o);
      const c = await small.camera(o, p.exid);
      const { token: t } = await ingestionToken(small, o, c.exid);
      const noisy = await sharp(Buffer.from(Array.from({ length: 64 * 64 * 3 }, (_, i) => (i * 7919) % 251)), { raw: { width: 64, height: 64, channels: 3 } })
        .jpeg({ quality: 100 })
        .toBuffer();
      expect(noisy.length).toBeGreaterThan(1500);
      const big = await push(small, c.exid, t, { plate_number: 'AB1', plate_image: noisy.toString('base64') });
      expect(big.statusCode, big.body).toBe(413);
      expect(big.json().code).toBe('PAYLOAD_TOO_LARGE');
      const meta = await push(small, c.exid, t, { plate_number: 'AB1', metadata: { note: 'x'.repeat(200) } });
      expect(meta.statusCode).toBe(413);
      const extras = await push(small, c.exid, t, { plate_number: 'AB1', vendor_blob: 'x'.repeat(200) });
      expect(extras.statusCode).toBe(413);
      expect((await push(small, c.exid, t, { plate_number: 'AB1', plate_image: (await jpeg(16, 8)).toString('base64') })).statusCode).toBe(201);
    } finally {
      await small.close();
    }
  });
});

describe('plate images', () => {
  it('round trip: stored under cameras/<id>/anpr/<event>.jpg, returned as a data URI and as the JPEG; sharp decodes both', async () => {
    const image = await jpeg(96, 32, '#123456');
    const e = await ingest(tp, cam, token, {
      plate_number: 'IMG 1',
      capture_time: '2026-11-10T12:00:00Z',
      plate_image: `data:image/jpeg;base64,${image.toString('base64')}`,
    });
    expect(e.has_plate_image).toBe(true);
    const cameraId = (await tp.t.db.kysely.selectFrom('cameras').select('id').where('exid', '=', cam).executeTakeFirstOrThrow()).id;
    const stored = await servicesOf(tp.app).storage.getBytes(`cameras/${cameraId}/anpr/${e.id}.jpg`);
    expect(stored?.equals(image)).toBe(true);

    const json = await get(`/v2/cameras/${cam}/anpr/${e.id}`);
    expect(json.statusCode).toBe(200);
    const uri: string = json.json().plate_image;
    expect(uri.startsWith('data:image/jpeg;base64,')).toBe(true);
    const fromJson = await sharp(Buffer.from(uri.split(',')[1]!, 'base64')).metadata();
    expect(fromJson).toMatchObject({ format: 'jpeg', width: 96, height: 32 });

    const bytes = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam}/anpr/${e.id}`, headers: { ...owner.auth, accept: 'image/jpeg' } });
    expect(bytes.statusCode).toBe(200);
    expect(bytes.headers['content-type']).toBe('image/jpeg');
    expect(bytes.headers.vary).toContain('accept');
    const { data, info } = await sharp(bytes.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect(info).toMatchObject({ width: 96, height: 32 });
    // The colour survived: the first pixel is close to #123456.
    expect(Math.abs(data[0]! - 0x12) + Math.abs(data[1]! - 0x34) + Math.abs(data[2]! - 0x56)).toBeLessThan(20);

    // A browser's image Accept gets the JPEG; JSON preferred gets JSON.
    const browser = await tp.app.inject({
      method: 'GET',
      url: `/v2/cameras/${cam}/anpr/${e.id}`,
      headers: { ...owner.auth, accept: 'image/avif,image/webp,image/*,*/*;q=0.8' },
    });
    expect(browser.headers['content-type']).toBe('image/jpeg');
    const prefersJson = await tp.app.inject({
      method: 'GET',
      url: `/v2/cameras/${cam}/anpr/${e.id}`,
      headers: { ...owner.auth, accept: 'application/json, image/jpeg;q=0.5' },
    });
    expect(prefersJson.headers['content-type']).toContain('application/json');
  });

  it('an event without an image: 404 for the JPEG; unknown and malformed ids: 404 and 400; another camera’s event: 404', async () => {
    const e = await ingest(tp, cam, token, { plate_number: 'NOIMG', capture_time: '2026-11-10T12:00:00Z' });
    const jpegOfNone = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam}/anpr/${e.id}`, headers: { ...owner.auth, accept: 'image/jpeg' } });
    expect(jpegOfNone.statusCode).toBe(404);
    expect((await get(`/v2/cameras/${cam}/anpr/0190b7f0-0000-7000-8000-000000000000`)).statusCode).toBe(404);
    const bad = await get(`/v2/cameras/${cam}/anpr/not-an-id`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_ERROR');
    const other = (await tp.camera(owner, projectExid, 'Back gate')).exid;
    expect((await get(`/v2/cameras/${other}/anpr/${e.id}`)).statusCode).toBe(404);
    expect((await get(`/v2/cameras/no-such-camera/anpr/${e.id}`)).statusCode).toBe(404);
  });
});

describe('reads', () => {
  // A camera of its own with a known set of reads.
  let gate: string;
  const reads = [
    { plate_number: 'AB12 CDE', capture_time: '2026-11-01T08:00:00Z', direction: 'in', confidence: 0.95 },
    { plate_number: 'AB12-CDE', capture_time: '2026-11-01T17:00:00Z', direction: 'out', confidence: 0.9 },
    { plate_number: 'AB13 XYZ', capture_time: '2026-11-02T08:30:00Z', direction: 'in', confidence: 0.6 },
    { plate_number: 'ZZ99 TOP', capture_time: '2026-11-03T09:00:00Z', direction: 'unknown' },
    { plate_number: 'ab12cde', capture_time: '2026-11-04T07:45:00Z', direction: 'in', confidence: 0.99 },
  ];
  beforeAll(async () => {
    gate = (await tp.camera(owner, projectExid, 'Reads gate')).exid;
    const t = (await ingestionToken(tp, owner, gate)).token;
    for (const r of reads) await ingest(tp, gate, t, r);
  });
  const list = async (query: string) => {
    const res = await get(`/v2/cameras/${gate}/anpr${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const times = (body: { data: { captured_at: string }[] }) => body.data.map((e) => e.captured_at.slice(0, 16));

  it('lists newest first by default, oldest first with sort=asc, with the total', async () => {
    const all = await list('');
    expect(all.meta).toEqual({ current_page: 1, page_size: 50, total_count: 5, total_pages: 1 });
    expect(times(all)).toEqual(['2026-11-04T07:45', '2026-11-03T09:00', '2026-11-02T08:30', '2026-11-01T17:00', '2026-11-01T08:00']);
    expect(times(await list('?sort=asc'))[0]).toBe('2026-11-01T08:00');
  });

  it('paginates with page and limit', async () => {
    const p2 = await list('?limit=2&page=2&sort=asc');
    expect(p2.meta).toEqual({ current_page: 2, page_size: 2, total_count: 5, total_pages: 3 });
    expect(times(p2)).toEqual(['2026-11-02T08:30', '2026-11-03T09:00']);
    expect((await list('?limit=2&page=4')).data).toEqual([]);
  });

  it('filters: exact plate (spacing and case ignored), prefix, direction, time range, minimum confidence', async () => {
    expect((await list('?plate=ab12%20cde')).meta.total_count).toBe(3);
    expect((await list('?plate=AB1*')).meta.total_count).toBe(4);
    expect((await list('?plate=AB12')).meta.total_count).toBe(0);
    expect((await list('?direction=in')).meta.total_count).toBe(3);
    expect(times(await list('?from=2026-11-01T12:00:00Z&to=2026-11-03T09:00:00Z&sort=asc'))).toEqual([
      '2026-11-01T17:00',
      '2026-11-02T08:30',
      '2026-11-03T09:00',
    ]);
    expect((await list('?from=2026-11-02')).meta.total_count).toBe(3);
    // Events without a confidence never pass a minimum.
    expect((await list('?min_confidence=0.9')).meta.total_count).toBe(3);
    expect((await list('?min_confidence=0')).meta.total_count).toBe(4);
    expect((await list('?plate=AB12CDE&direction=in&min_confidence=0.96')).data.map((e: { confidence: number }) => e.confidence)).toEqual([0.99]);
  });

  it('bad filters: 400', async () => {
    for (const q of [
      '?from=yesterday',
      '?to=2026-02-30',
      '?from=2026-11-03T00:00:00Z&to=2026-11-01T00:00:00Z',
      '?from=2026-11-01T10:00',
      '?direction=sideways',
      '?min_confidence=2',
      '?min_confidence=high',
      '?limit=0',
      '?limit=501',
      '?page=0',
      '?sort=newest',
      '?plate=**',
      '?plate=*',
      '?plate=A%23B',
      '?bogus=1',
    ]) {
      const res = await get(`/v2/cameras/${gate}/anpr${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().code, q).toBe('VALIDATION_ERROR');
      const plates = await get(`/v2/cameras/${gate}/anpr/plates${q}`);
      expect(plates.statusCode, `plates ${q}`).toBe(400);
    }
  });

  it('plates: distinct normalised plates with counts, first and last seen, sorted and paginated', async () => {
    const plates = await get(`/v2/cameras/${gate}/anpr/plates`);
    expect(plates.statusCode).toBe(200);
    expect(plates.json().meta.total_count).toBe(3);
    expect(plates.json().data).toEqual([
      { plate: 'AB12CDE', count: 3, first_seen: '2026-11-01T08:00:00.000Z', last_seen: '2026-11-04T07:45:00.000Z', watchlist_label: null },
      { plate: 'ZZ99TOP', count: 1, first_seen: '2026-11-03T09:00:00.000Z', last_seen: '2026-11-03T09:00:00.000Z', watchlist_label: null },
      { plate: 'AB13XYZ', count: 1, first_seen: '2026-11-02T08:30:00.000Z', last_seen: '2026-11-02T08:30:00.000Z', watchlist_label: null },
    ]);
    const asc = (await get(`/v2/cameras/${gate}/anpr/plates?sort=last_seen_asc&limit=1&page=2`)).json();
    expect(asc.meta).toMatchObject({ total_count: 3, total_pages: 3 });
    expect(asc.data.map((p: { plate: string }) => p.plate)).toEqual(['ZZ99TOP']);
    const byCount = (await get(`/v2/cameras/${gate}/anpr/plates?sort=count_desc&limit=1`)).json();
    expect(byCount.data[0]).toMatchObject({ plate: 'AB12CDE', count: 3 });
    // The filters apply before counting.
    const inOnly = (await get(`/v2/cameras/${gate}/anpr/plates?direction=in&plate=AB12*`)).json();
    expect(inOnly.data).toEqual([expect.objectContaining({ plate: 'AB12CDE', count: 2, last_seen: '2026-11-04T07:45:00.000Z' })]);
  });

  it('matched: only reads whose plate is on this project’s watch list, with its label', async () => {
    expect((await get(`/v2/cameras/${gate}/anpr/matched`)).json().meta.total_count).toBe(0);
    const add = await tp.app.inject({
      method: 'POST',
      url: `/v2/projects/${projectExid}/anpr/watchlist`,
      headers: owner.auth,
      payload: { plate: 'zz 99-top', label: 'Crane hire' },
    });
    expect(add.statusCode).toBe(201);
    expect(add.json()).toMatchObject({ plate: 'ZZ99TOP', label: 'Crane hire' });
    // Another project watching AB12CDE does not make this camera's reads match.
    const elsewhere = await tp.project(owner, 'Elsewhere');
    await tp.app.inject({
      method: 'POST',
      url: `/v2/projects/${elsewhere.exid}/anpr/watchlist`,
      headers: owner.auth,
      payload: { plate: 'AB12CDE', label: 'Not here' },
    });
    const matched = (await get(`/v2/cameras/${gate}/anpr/matched`)).json();
    expect(matched.meta.total_count).toBe(1);
    expect(matched.data[0]).toMatchObject({ plate: 'ZZ99TOP', watchlist_label: 'Crane hire', camera_exid: gate });

    await tp.app.inject({
      method: 'POST',
      url: `/v2/projects/${projectExid}/anpr/watchlist`,
      headers: owner.auth,
      payload: { plate: 'AB12CDE', label: 'Site manager' },
    });
    const both = (await get(`/v2/cameras/${gate}/anpr/matched?sort=asc&limit=2`)).json();
    expect(both.meta.total_count).toBe(4);
    expect(both.data.map((e: { watchlist_label: string }) => e.watchlist_label)).toEqual(['Site manager', 'Site manager']);
    expect((await get(`/v2/cameras/${gate}/anpr/matched?direction=out`)).json().data.map((e: { plate: string }) => e.plate)).toEqual(['AB12CDE']);
    const plates = (await get(`/v2/cameras/${gate}/anpr/plates?plate=ZZ99TOP`)).json();
    expect(plates.data[0].watchlist_label).toBe('Crane hire');

    // Removing the plate from the list removes its matches.
    const del = await tp.app.inject({ method: 'DELETE', url: `/v2/projects/${projectExid}/anpr/watchlist/ZZ99-TOP`, headers: owner.auth });
    expect(del.statusCode).toBe(204);
    expect((await get(`/v2/cameras/${gate}/anpr/matched`)).json().meta.total_count).toBe(3);
  });

  it('another camera’s reads never show up', async () => {
    const own = (await list('')).data.map((e: { camera_exid: string }) => e.camera_exid);
    expect(new Set(own)).toEqual(new Set([gate]));
  });
});

describe('watch list', () => {
  it('normalised plates, 409 on a duplicate, 404 when removing an unlisted plate, 400 on bad input', async () => {
    const p = await tp.project(owner, 'Watch');
    const url = `/v2/projects/${p.exid}/anpr/watchlist`;
    const add = (payload: object) => tp.app.inject({ method: 'POST', url, headers: owner.auth, payload });
    expect((await add({ plate: 'kl 55 mno', label: 'Delivery' })).statusCode).toBe(201);
    const dup = await add({ plate: 'KL55-MNO', label: 'Again' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe('CONFLICT');
    for (const bad of [
      { plate: '---', label: 'x' },
      { plate: 'AB1', label: '   ' },
      { plate: 'AB1' },
      { plate: 'AB1', label: 'x', extra: 1 },
      { plate: 'A'.repeat(30), label: 'x' },
    ]) {
      const res = await add(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await get(url)).json()).toEqual([{ plate: 'KL55MNO', label: 'Delivery', created_at: expect.any(String) }]);
    expect((await tp.app.inject({ method: 'DELETE', url: `${url}/NOPE1`, headers: owner.auth })).statusCode).toBe(404);
    expect((await tp.app.inject({ method: 'DELETE', url: `${url}/kl55mno`, headers: owner.auth })).statusCode).toBe(204);
    expect((await tp.app.inject({ method: 'DELETE', url: `${url}/kl55mno`, headers: owner.auth })).statusCode).toBe(404);
    expect((await get(url)).json()).toEqual([]);
  });
});

describe('deleting a camera', () => {
  it('removeCameraObjects deletes its plate images; the rows and tokens go with the camera row (cascade)', async () => {
    const c = (await tp.camera(owner, projectExid, 'Doomed')).exid;
    const t = (await ingestionToken(tp, owner, c)).token;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await ingest(tp, c, t, { plate_number: `DEL${i}`, plate_image: (await jpeg()).toString('base64') })).id);
    await ingest(tp, c, t, { plate_number: 'DELX' });
    const db = tp.t.db.kysely;
    const cameraId = (await db.selectFrom('cameras').select('id').where('exid', '=', c).executeTakeFirstOrThrow()).id;
    const keys = ids.map((id) => `cameras/${cameraId}/anpr/${id}.jpg`);
    for (const k of keys) expect(await servicesOf(tp.app).storage.getBytes(k)).not.toBeNull();

    expect(await servicesOf(tp.app).anpr.removeCameraObjects(cameraId)).toBe(3);
    for (const k of keys) expect(await servicesOf(tp.app).storage.getBytes(k)).toBeNull();
    await db.deleteFrom('cameras').where('id', '=', cameraId).execute();
    const left = await db.selectFrom('anpr_events').select('id').where('camera_id', '=', cameraId).execute();
    expect(left).toEqual([]);
    const tokens = await db.selectFrom('anpr_ingestion_tokens').select('id').where('camera_id', '=', cameraId).execute();
    expect(tokens).toEqual([]);
  });
});

describe('indexes', () => {
  // The query planner's choice on SQLite (PostgreSQL picks by table statistics, so a small test table says nothing).
  it.skipIf(testDialect() !== 'sqlite')('lists, plate lookups and plate counts of a camera read an index, never the whole table', async () => {
    const plan = async (query: string) =>
      (await sql.raw(`EXPLAIN QUERY PLAN ${query}`).execute(tp.t.db.kysely)).rows.map((r) => (r as { detail: string }).detail).join(' | ');
    const byTime = await plan(`select * from anpr_events where camera_id = 'c' and captured_at >= '2026' order by captured_at desc, id desc limit 50`);
    expect(byTime).toContain('USING INDEX anpr_events_camera_time_idx');
    const byPlate = await plan(`select * from anpr_events where camera_id = 'c' and plate = 'AB1' order by captured_at desc, id desc limit 50`);
    expect(byPlate).toContain('USING INDEX anpr_events_camera_plate_idx');
    const plates = await plan(`select plate, count(*), min(captured_at), max(captured_at) from anpr_events where camera_id = 'c' group by plate`);
    expect(plates).toContain('COVERING INDEX anpr_events_camera_plate_idx');
    for (const p of [byTime, byPlate, plates]) {
      expect(p).not.toMatch(/SCAN anpr_events|TEMP B-TREE/);
    }
  });
});
