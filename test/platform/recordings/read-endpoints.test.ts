// Cloud recordings read endpoints (camera:recordings, viewer): real JPEGs stored through
// the object store and the index, then read back by time, nearest, latest/oldest, days and hours in
// the camera's time zone (DST and +05:45), pages, thumbnails; every bad input is a 400, never a 5xx.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotKey } from '../../../src/platform/recordings/snapshot-index.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { checkEndpointAccess, type AccessWorld, type EndpointSpec } from '../../helpers/access.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

let tp: TestPlatform;
let owner: Person;
let projectExid: string;

/** A real JPEG, 640×360, of one colour (so a test can tell frames apart after decoding). */
const jpegOf = (r: number, g: number, b: number) =>
  sharp({ create: { width: 640, height: 360, channels: 3, background: { r, g, b } } })
    .jpeg()
    .toBuffer();

/** Stores a frame for real: the bytes in the object store, the row in the index. */
async function store(cameraExid: string, takenAt: string, colour: [number, number, number] = [40, 90, 160], note: string | null = null): Promise<Buffer> {
  const { id } = await servicesOf(tp.app).cameras.row(cameraExid);
  const at = new Date(takenAt);
  const key = snapshotKey(id, at);
  const jpeg = await jpegOf(...colour);
  await servicesOf(tp.app).storage.put(key, jpeg, 'image/jpeg');
  await servicesOf(tp.app).snapshotIndex.add({ cameraId: id, takenAt: at, objectKey: key, size: jpeg.length, source: note ? 'manual' : 'schedule', note });
  return jpeg;
}

async function camera(timezone = 'UTC'): Promise<string> {
  const res = await tp.app.inject({
    method: 'POST',
    url: '/v2/cameras',
    headers: owner.auth,
    payload: { name: `Cam ${timezone}`, project_exid: projectExid, simulated: true, timezone },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().exid;
}

const get = (url: string, headers: Record<string, string> = {}) => tp.app.inject({ method: 'GET', url, headers: { ...owner.auth, ...headers } });

/** JPEG is lossy: a solid colour comes back within a few levels. */
function expectColour(actual: number[], expected: number[]): void {
  for (const [i, v] of actual.entries()) expect(Math.abs(v - expected[i]!), `channel ${i}: ${actual} vs ${expected}`).toBeLessThanOrEqual(4);
}

async function meanColour(jpeg: Buffer): Promise<number[]> {
  const { channels } = await sharp(jpeg).stats();
  return channels.slice(0, 3).map((c) => Math.round(c.mean));
}

beforeAll(async () => {
  tp = await buildTestPlatform(); // only the frames this file stores
  owner = await tp.person('owner');
  projectExid = (await tp.project(owner, 'Recordings site')).exid;
});
afterAll(async () => tp.close());

describe('access rules', () => {
  const T0 = '2026-11-20T09:30:00.000Z';
  const setup = async (_tp: TestPlatform, w: AccessWorld) => {
    await store(w.cameraExid, T0);
    await store(w.otherCameraExid, T0);
    return {};
  };
  const read = (path: string): EndpointSpec => ({
    method: 'GET',
    url: (w) => `/v2/cameras/${w.cameraExid}${path}`,
    otherUrl: (w) => `/v2/cameras/${w.otherCameraExid}${path}`,
    scopes: ['camera:recordings'],
    role: 'viewer',
    okStatus: 200,
    setup,
  });
  for (const path of [
    '/recordings/snapshots',
    '/recordings/snapshots/latest',
    '/recordings/snapshots/oldest',
    `/recordings/snapshots/${T0}`,
    `/recordings/snapshots/${T0}/nearest`,
    '/recordings/snapshots/2026/11/days',
    '/recordings/snapshots/2026/11/20/hours',
    '/thumbnail',
  ]) {
    it(`GET ${path}`, async () => checkEndpointAccess(tp, read(path)));
  }
});

describe('one frame by time', () => {
  let exid: string;
  let red: Buffer;
  beforeAll(async () => {
    exid = await camera();
    red = await store(exid, '2026-11-23T10:15:00.250Z', [200, 30, 30], 'crane lift');
    await store(exid, '2026-11-23T10:15:01.000Z', [30, 200, 30]);
    await store(exid, '2026-11-23T10:20:00.000Z', [30, 30, 200]);
  });

  it('answers JSON with a data URI by default, the exact frame when milliseconds are given', async () => {
    const res = await get(`/v2/cameras/${exid}/recordings/snapshots/2026-11-23T10:15:00.250Z`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(body).toMatchObject({ created_at: '2026-11-23T10:15:00.250Z', source: 'manual', note: 'crane lift' });
    expect(body.data).toMatch(/^data:image\/jpeg;base64,/);
    const bytes = Buffer.from(body.data.slice('data:image/jpeg;base64,'.length), 'base64');
    expect(bytes.equals(red)).toBe(true);
    expect((await sharp(bytes).metadata()).width).toBe(640);
    expect((await get(`/v2/cameras/${exid}/recordings/snapshots/2026-11-23T10:15:00.251Z`)).statusCode).toBe(404);
  });

  it('serves the JPEG itself with Accept: image/jpeg or ?view=true, with frame time and caching headers', async () => {
    for (const [url, headers] of [
      [`/v2/cameras/${exid}/recordings/snapshots/2026-11-23T10:15:00Z`, { accept: 'image/jpeg' }],
      [`/v2/cameras/${exid}/recordings/snapshots/2026-11-23T10:15:00Z?view=true`, {}],
      [`/v2/cameras/${exid}/recordings/snapshots/${Date.parse('2026-11-23T10:15:00Z') / 1000}?view=true`, {}],
      [`/v2/cameras/${exid}/recordings/snapshots/2026-11-23T11:15:00+01:00`, { accept: 'image/*' }],
    ] as [string, Record<string, string>][]) {
      const res = await get(url, headers);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(Number(res.headers['content-length'])).toBe(red.length);
      expect(res.headers['x-snapshot-date']).toBe('2026-11-23T10:15:00.250Z'); // the first frame of that second
      expect(res.headers['cache-control']).toContain('immutable');
      expect(res.rawPayload.equals(red)).toBe(true);
      expectColour(await meanColour(res.rawPayload), [200, 30, 30]);
    }
  });

  it('answers 304 to If-None-Match with the frame’s ETag', async () => {
    const url = `/v2/cameras/${exid}/recordings/snapshots/2026-11-23T10:15:01Z?view=true`;
    const first = await get(url);
    expect(first.statusCode).toBe(200);
    const again = await get(url, { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('finds the nearest frame on either side', async () => {
    const near = async (t: string) => (await get(`/v2/cameras/${exid}/recordings/snapshots/${t}/nearest`)).json().created_at;
    expect(await near('2026-11-23T10:17:00Z')).toBe('2026-11-23T10:15:01.000Z'); // 1 min 59 s before vs 3 min after
    expect(await near('2026-11-23T10:18:00Z')).toBe('2026-11-23T10:20:00.000Z'); // 2 min 59 s before vs 2 min after
    expect(await near('2026-11-23T09:00:00Z')).toBe('2026-11-23T10:15:00.250Z');
    expect(await near('2027-01-01T00:00:00Z')).toBe('2026-11-23T10:20:00.000Z');
    const jpeg = await get(`/v2/cameras/${exid}/recordings/snapshots/2026-11-23T10:19:00Z/nearest`, { accept: 'image/jpeg' });
    expect(jpeg.headers['x-snapshot-date']).toBe('2026-11-23T10:20:00.000Z');
    expect(jpeg.headers['cache-control']).toBe('private, no-cache');
    expectColour(await meanColour(jpeg.rawPayload), [30, 30, 200]);
  });

  it('gives the latest and oldest frames, and a 320-pixel thumbnail of the latest', async () => {
    expect((await get(`/v2/cameras/${exid}/recordings/snapshots/latest`)).json().created_at).toBe('2026-11-23T10:20:00.000Z');
    const oldest = await get(`/v2/cameras/${exid}/recordings/snapshots/oldest?view=true`);
    expect(oldest.headers['x-snapshot-date']).toBe('2026-11-23T10:15:00.250Z');
    expect(oldest.rawPayload.equals(red)).toBe(true);
    const thumb = await get(`/v2/cameras/${exid}/thumbnail`);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    expect(thumb.headers['x-snapshot-date']).toBe('2026-11-23T10:20:00.000Z');
    const meta = await sharp(thumb.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([320, 180]);
    // A newer frame makes a new thumbnail.
    await store(exid, '2026-11-23T10:25:00.000Z', [240, 240, 20]);
    const next = await get(`/v2/cameras/${exid}/thumbnail`);
    expect(next.headers['x-snapshot-date']).toBe('2026-11-23T10:25:00.000Z');
    expectColour(await meanColour(next.rawPayload), [240, 240, 20]);
  });

  it('answers 404 when nothing is stored', async () => {
    const empty = await camera();
    for (const path of ['latest', 'oldest', '2026-11-23T10:15:00Z', '2026-11-23T10:15:00Z/nearest']) {
      const res = await get(`/v2/cameras/${empty}/recordings/snapshots/${path}`);
      expect(res.statusCode, path).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    expect((await get(`/v2/cameras/${empty}/thumbnail`)).statusCode).toBe(404);
    expect((await get(`/v2/cameras/${empty}/recordings/snapshots`)).json()).toEqual({
      data: [],
      meta: { total_count: 0, limit: 100, order: 'desc', next_cursor: null },
    });
    expect((await get(`/v2/cameras/${empty}/recordings/snapshots/2026/11/days`)).json()).toEqual({ days: [] });
    expect((await get(`/v2/cameras/no-such-camera/recordings/snapshots/latest`)).statusCode).toBe(404);
  });
});

describe('days and hours in the camera’s time zone', () => {
  it('follows New York across both DST changes', async () => {
    const exid = await camera('America/New_York');
    // 2026-03-08: clocks jump 02:00 → 03:00 EST→EDT. 06:59Z = 01:59 EST; 07:00Z = 03:00 EDT.
    await store(exid, '2026-03-08T06:59:00Z');
    await store(exid, '2026-03-08T07:00:00Z');
    await store(exid, '2026-03-09T03:30:00Z'); // 23:30 EDT on the 8th
    await store(exid, '2026-03-01T04:59:59.999Z'); // 23:59 EST on Feb 28th
    // 2026-11-01: 01:00–02:00 happens twice. 05:30Z = 01:30 EDT, 06:30Z = 01:30 EST, 07:10Z = 02:10 EST.
    await store(exid, '2026-11-01T05:30:00Z');
    await store(exid, '2026-11-01T06:30:00Z');
    await store(exid, '2026-11-01T07:10:00Z');
    await store(exid, '2026-11-01T04:00:00Z'); // 00:00 EDT
    const base = `/v2/cameras/${exid}/recordings/snapshots`;
    expect((await get(`${base}/2026/03/days`)).json()).toEqual({ days: [8] });
    expect((await get(`${base}/2026/2/days`)).json()).toEqual({ days: [28] });
    expect((await get(`${base}/2026/3/8/hours`)).json()).toEqual({ hours: [1, 3, 23] });
    expect((await get(`${base}/2026/3/9/hours`)).json()).toEqual({ hours: [] });
    expect((await get(`${base}/2026/11/days`)).json()).toEqual({ days: [1] });
    expect((await get(`${base}/2026/10/days`)).json()).toEqual({ days: [] });
    expect((await get(`${base}/2026/11/01/hours`)).json()).toEqual({ hours: [0, 1, 2] });
  });

  it('follows a +05:45 zone (Asia/Kathmandu) to the quarter hour', async () => {
    const exid = await camera('Asia/Kathmandu');
    await store(exid, '2026-11-22T18:14:59Z'); // 23:59:59 on the 22nd
    await store(exid, '2026-11-22T18:15:00Z'); // 00:00 on the 23rd
    await store(exid, '2026-11-23T04:44:00Z'); // 10:29
    await store(exid, '2026-11-23T04:45:00Z'); // 10:30
    await store(exid, '2026-11-30T18:15:00Z'); // 00:00 on Dec 1st
    const base = `/v2/cameras/${exid}/recordings/snapshots`;
    expect((await get(`${base}/2026/11/days`)).json()).toEqual({ days: [22, 23] });
    expect((await get(`${base}/2026/12/days`)).json()).toEqual({ days: [1] });
    expect((await get(`${base}/2026/11/23/hours`)).json()).toEqual({ hours: [0, 10] });
    expect((await get(`${base}/2026/11/22/hours`)).json()).toEqual({ hours: [23] });
  });
});

describe('the list', () => {
  let exid: string;
  const times = Array.from({ length: 7 }, (_, i) => new Date(Date.parse('2026-11-10T08:00:00Z') + i * 60_000).toISOString());
  beforeAll(async () => {
    exid = await camera();
    for (const t of times) await store(exid, t);
  });

  it('pages newest first with a cursor until the end', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await get(`/v2/cameras/${exid}/recordings/snapshots?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.meta.total_count).toBe(7);
      seen.push(...body.data.map((d: { created_at: string }) => d.created_at));
      cursor = body.meta.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...times].reverse());
  });

  it('filters by from/to (inclusive, in any offset) in ascending order, with links to each frame', async () => {
    const res = await get(`/v2/cameras/${exid}/recordings/snapshots?from=2026-11-10T09:02:00%2B01:00&to=2026-11-10T08:04:00Z&order=asc`);
    const body = res.json();
    expect(body.data.map((d: { created_at: string }) => d.created_at)).toEqual(times.slice(2, 5));
    expect(body.meta).toMatchObject({ total_count: 3, order: 'asc', next_cursor: null });
    expect(body.data[0]).toMatchObject({ size: expect.any(Number), source: 'schedule', note: null });
    const frame = await get(`${body.data[0].url}?view=true`);
    expect(frame.headers['x-snapshot-date']).toBe(times[2]);
    const unix = await get(`/v2/cameras/${exid}/recordings/snapshots?from=${Date.parse(times[5]!) / 1000}`);
    expect(unix.json().data).toHaveLength(2);
  });
});

describe('bad input is a 400 naming the field', () => {
  let exid: string;
  beforeAll(async () => {
    exid = await camera('Europe/Dublin');
    await store(exid, '2026-11-23T10:00:00Z');
  });
  const cases: [string, string][] = [
    ['/recordings/snapshots/2026/13/days', 'month'],
    ['/recordings/snapshots/2026/0/days', 'month'],
    ['/recordings/snapshots/2026/x/days', 'month'],
    ['/recordings/snapshots/1969/1/days', 'year'],
    ['/recordings/snapshots/20261/1/days', 'year'],
    ['/recordings/snapshots/abcd/1/days', 'year'],
    ['/recordings/snapshots/2026/02/30/hours', 'day'],
    ['/recordings/snapshots/2025/02/29/hours', 'day'],
    ['/recordings/snapshots/2026/02/0/hours', 'day'],
    ['/recordings/snapshots/2026/13/1/hours', 'month'],
    ['/recordings/snapshots/yesterday', 'timestamp'],
    ['/recordings/snapshots/2026-02-30T10:00:00Z', 'timestamp'],
    ['/recordings/snapshots/2026-11-23T25:00:00Z', 'timestamp'],
    ['/recordings/snapshots/2026-11-23T10:00:00+15:00', 'timestamp'],
    ['/recordings/snapshots/253402300800/nearest', 'timestamp'],
    ['/recordings/snapshots/10000-01-01T00:00:00Z/nearest', 'timestamp'],
    ['/recordings/snapshots/-5/nearest', 'timestamp'],
    ['/recordings/snapshots/1e9/nearest', 'timestamp'],
    ['/recordings/snapshots?limit=0', 'limit'],
    ['/recordings/snapshots?limit=5000', 'limit'],
    ['/recordings/snapshots?limit=ten', 'limit'],
    ['/recordings/snapshots?order=sideways', 'order'],
    ['/recordings/snapshots?from=soon', 'from'],
    ['/recordings/snapshots?to=2026-13-01', 'to'],
    ['/recordings/snapshots?from=2026-11-02&to=2026-11-01', 'to'],
    ['/recordings/snapshots?cursor=not-a-cursor!', 'cursor'],
    ['/recordings/snapshots?cursor=Zm9v', 'cursor'],
    ['/recordings/snapshots/latest?view=maybe', 'view'],
  ];
  for (const [path, field] of cases) {
    it(`${path} → 400 (${field})`, async () => {
      const res = await get(`/v2/cameras/${exid}${path}`);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(res.json().message).toContain(field);
    });
  }
  it('odd paths and long values never give a 5xx', async () => {
    for (const path of [
      '/recordings/snapshots/' + 'x'.repeat(300),
      '/recordings/snapshots/%E0%A4%A/nearest',
      '/recordings/snapshots/2026/11/32/hours',
      '/recordings/snapshots/2026/11/days/extra',
      '/recordings/snapshots/9999-12-31T23:59:59.999Z/nearest',
    ]) {
      const res = await get(`/v2/cameras/${exid}${path}`);
      expect(res.statusCode, path).toBeLessThan(500);
    }
  });
});
