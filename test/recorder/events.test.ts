// Events: per-device webhook tokens (created, listed, revoked), generic and licence-plate ingestion,
// listings with filters and {meta, data} pages; and the remote storages' configuration.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecorder, type TestRecorder } from '../helpers/recorder.js';

let r: TestRecorder;
let admin: { authorization: string };
let viewer: { authorization: string };
let gate: string;
let yard: string;

const device = async (name: string) => {
  const res = await r.app.inject({
    method: 'POST',
    url: '/api/devices',
    headers: admin,
    payload: { name, type: 'file', stream_config: { path: r.video }, storage_config: { recording_mode: 'never' } },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
};
const webhookToken = async (deviceId: string, name = 'camera') => {
  const res = await r.app.inject({ method: 'POST', url: `/api/devices/${deviceId}/webhook-tokens`, headers: admin, payload: { name } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; token: string; hint: string };
};

beforeAll(async () => {
  r = await buildTestRecorder();
  admin = r.bearer(r.adminToken);
  viewer = r.bearer(r.userToken);
  gate = await device('Gate');
  yard = await device('Yard');
});
afterAll(() => r.close());

describe('webhook tokens', () => {
  it('created with the value once, listed without it, revoked: then refused', async () => {
    const created = await webhookToken(gate, 'ANPR camera');
    expect(created.token).toMatch(/^owh_/);
    const listed = await r.app.inject({ method: 'GET', url: `/api/devices/${gate}/webhook-tokens`, headers: admin });
    expect(listed.statusCode).toBe(200);
    const entry = listed.json().find((t: { id: string }) => t.id === created.id);
    expect(entry).toMatchObject({ name: 'ANPR camera', revoked_at: null, hint: created.hint });
    expect(JSON.stringify(listed.json())).not.toContain(created.token);
    const stored = await r.db.kysely.selectFrom('webhook_tokens').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(created.token);

    const post = (token: string, deviceId = gate) =>
      r.app.inject({ method: 'POST', url: `/api/devices/${deviceId}/events?token=${encodeURIComponent(token)}`, payload: { type: 'motion' } });
    expect((await post(created.token)).statusCode).toBe(201);
    // A token belongs to one device only.
    expect((await post(created.token, yard)).statusCode).toBe(401);

    const revoked = await r.app.inject({ method: 'DELETE', url: `/api/devices/${gate}/webhook-tokens?token_id=${created.id}`, headers: admin });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().revoked_at).not.toBeNull();
    expect((await post(created.token)).statusCode).toBe(401);
    // Revoking again changes nothing: same answer, same revocation time.
    const again = await r.app.inject({ method: 'DELETE', url: `/api/devices/${gate}/webhook-tokens?token_id=${created.id}`, headers: admin });
    expect(again.statusCode).toBe(200);
    expect(again.json().revoked_at).toBe(revoked.json().revoked_at);
    expect((await r.app.inject({ method: 'DELETE', url: `/api/devices/${yard}/webhook-tokens?token_id=${created.id}`, headers: admin })).statusCode).toBe(404);
    expect((await r.app.inject({ method: 'DELETE', url: `/api/devices/${gate}/webhook-tokens`, headers: admin })).statusCode).toBe(400);
  });

  it('only admins manage them; ingestion without a token, with a user token or a made-up one is 401', async () => {
    expect((await r.app.inject({ method: 'POST', url: `/api/devices/${gate}/webhook-tokens`, headers: viewer, payload: { name: 'x' } })).statusCode).toBe(403);
    expect((await r.app.inject({ method: 'GET', url: `/api/devices/${gate}/webhook-tokens`, headers: viewer })).statusCode).toBe(403);
    expect((await r.app.inject({ method: 'POST', url: `/api/devices/${gate}/webhook-tokens`, headers: admin, payload: { name: '' } })).statusCode).toBe(400);
    expect((await r.app.inject({ method: 'POST', url: `/api/devices/nope/webhook-tokens`, headers: admin, payload: { name: 'x' } })).statusCode).toBe(404);
    for (const headers of [{}, viewer, { authorization: `Bearer owh_${'x'.repeat(43)}` }]) {
      expect((await r.app.inject({ method: 'POST', url: `/api/devices/${gate}/events`, headers, payload: { a: 1 } })).statusCode).toBe(401);
    }
    // An admin's own access token may post events (for testing an integration by hand).
    expect((await r.app.inject({ method: 'POST', url: `/api/devices/${gate}/events`, headers: admin, payload: { type: 'manual' } })).statusCode).toBe(201);
    // ... in the header only: `?token=` carries access tokens on media routes alone (docs/recorder.md).
    expect((await r.app.inject({ method: 'POST', url: `/api/devices/${gate}/events?token=${r.adminToken}`, payload: { type: 'manual' } })).statusCode).toBe(
      401,
    );
  });
});

describe('generic events', () => {
  it('keep the whole body as metadata, take the time and type from it; list with filters and pages', async () => {
    const { token } = await webhookToken(yard);
    const hook = { authorization: `Bearer ${token}` };
    const body = { type: 'intrusion', time: '2026-11-20T10:00:00+01:00', zone: { id: 3, name: 'north fence' }, score: 0.93 };
    const res = await r.app.inject({ method: 'POST', url: `/api/devices/${yard}/events`, headers: hook, payload: body });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ device_id: yard, type: 'intrusion', time: '2026-11-20T09:00:00.000Z', metadata: body });
    for (let i = 0; i < 4; i++) {
      const t = `2026-11-21T0${i}:00:00Z`;
      expect((await r.app.inject({ method: 'POST', url: `/api/devices/${yard}/events?type=door`, headers: hook, payload: { time: t, n: i } })).statusCode).toBe(
        201,
      );
    }

    const list = async (q: string) => {
      const got = await r.app.inject({ method: 'GET', url: `/api/events?${q}`, headers: viewer });
      expect(got.statusCode, got.body).toBe(200);
      return got.json();
    };
    const doors = await list(`device_id=${yard}&type=door&page_size=3`);
    expect(doors.meta).toEqual({ current_page: 1, page_size: 3, total_count: 4, total_pages: 2 });
    expect(doors.data.map((e: { metadata: { n: number } }) => e.metadata.n)).toEqual([3, 2, 1]);
    expect((await list(`device_id=${yard}&type=door&page_size=3&page=2`)).data.map((e: { metadata: { n: number } }) => e.metadata.n)).toEqual([0]);
    const window = await list(`device_id=${yard}&start_date=2026-11-21T01:00:00Z&end_date=2026-11-21T03:00:00Z`);
    expect(window.data.map((e: { metadata: { n: number } }) => e.metadata.n)).toEqual([2, 1]);
    expect((await list(`device_id=${gate}&type=intrusion`)).meta.total_count).toBe(0);
  });

  it('bad input is a 400 that names the problem, and nothing is stored', async () => {
    const { token } = await webhookToken(yard);
    const before = (
      await r.db.kysely
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
    const post = (url: string, payload: unknown, contentType = 'application/json') =>
      r.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
        payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      });
    for (const [url, payload] of [
      [`/api/devices/${yard}/events`, { time: 'soon' }],
      [`/api/devices/${yard}/events`, '[1,2]'],
      [`/api/devices/${yard}/events`, '{"broken"'],
      [`/api/devices/${yard}/events?type=has space`, {}],
    ] as const) {
      const res = await post(url, payload);
      expect(res.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(400);
      expect(res.json().code).toBeTruthy();
    }
    expect((await r.app.inject({ method: 'GET', url: '/api/events?start_date=yesterday', headers: viewer })).statusCode).toBe(400);
    expect((await r.app.inject({ method: 'GET', url: '/api/events?page=0', headers: viewer })).statusCode).toBe(400);
    expect((await r.app.inject({ method: 'GET', url: '/api/events?page_size=100000', headers: viewer })).statusCode).toBe(400);
    const after = (
      await r.db.kysely
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
    expect(Number(after)).toBe(Number(before));
  });
});

describe('licence-plate events', () => {
  it('plate, time, direction, list type, confidence, box and a JPEG plate image are kept; listed by plate', async () => {
    const { token } = await webhookToken(gate);
    const jpeg = await sharp({ create: { width: 120, height: 40, channels: 3, background: '#ffd200' } })
      .jpeg()
      .toBuffer();
    const res = await r.app.inject({
      method: 'POST',
      url: `/api/devices/${gate}/events/lpr?token=${encodeURIComponent(token)}`,
      payload: {
        plate_number: ' ab12 cde ',
        capture_time: '2026-11-21T07:30:00Z',
        direction: 'in',
        list_type: 'white',
        confidence: 0.97,
        bounding_box: [10, 20, 130, 60],
        plate_image: jpeg.toString('base64'),
        lane: 2,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      plate_number: 'AB12 CDE',
      direction: 'in',
      list_type: 'white',
      confidence: 0.97,
      bounding_box: [10, 20, 130, 60],
      has_plate_image: true,
      metadata: { lane: 2 },
    });
    const dir = join(r.config.storageRoot, gate, 'lpr', '2026-11-21');
    expect(existsSync(dir) && readdirSync(dir)).toEqual([`${res.json().id}.jpg`]);

    await r.app.inject({
      method: 'POST',
      url: `/api/devices/${gate}/events/lpr?token=${encodeURIComponent(token)}`,
      payload: { plate_number: 'XY99 ZZZ', capture_time: '2026-11-21T08:00:00Z' },
    });
    const byPlate = await r.app.inject({ method: 'GET', url: '/api/events/lpr?plate_number=ab12%20cde', headers: viewer });
    expect(byPlate.statusCode).toBe(200);
    expect(byPlate.json().meta.total_count).toBe(1);
    expect(byPlate.json().data[0].id).toBe(res.json().id);
    const all = (await r.app.inject({ method: 'GET', url: `/api/events/lpr?device_id=${gate}`, headers: viewer })).json();
    expect(all.data.map((e: { plate_number: string }) => e.plate_number)).toEqual(['XY99 ZZZ', 'AB12 CDE']);
    expect(all.data[0]).toMatchObject({ direction: 'unknown', has_plate_image: false, confidence: null });
  });

  it('refuses a missing plate, a bad time, a box of the wrong size, a non-JPEG image, an out-of-range confidence', async () => {
    const { token } = await webhookToken(gate);
    const base = { plate_number: 'AB12CDE', capture_time: '2026-11-21T07:30:00Z' };
    for (const extra of [
      { plate_number: undefined },
      { plate_number: '   ' },
      { capture_time: 'noon' },
      { bounding_box: [1, 2, 3] },
      { plate_image: Buffer.from('GIF89a not a jpeg').toString('base64') },
      { confidence: 1.5 },
      { direction: 'sideways' },
    ]) {
      const res = await r.app.inject({
        method: 'POST',
        url: `/api/devices/${gate}/events/lpr?token=${encodeURIComponent(token)}`,
        payload: { ...base, ...extra },
      });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
    }
  });
});

describe('remote storages', () => {
  it('admins create, read, change and delete them; secrets are write-only; users are refused', async () => {
    const created = await r.app.inject({
      method: 'POST',
      url: '/api/remote_storages',
      headers: admin,
      payload: {
        name: 'Site S3',
        type: 's3',
        url: 'https://s3.example.com',
        config: { bucket: 'clips', region: 'eu-west-1', access_key_id: 'AKIA1', secret_access_key: 'very-secret' },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    expect(created.json().config).toMatchObject({ bucket: 'clips', has_secret: true });
    expect(created.body).not.toContain('very-secret');
    expect((await r.app.inject({ method: 'GET', url: `/api/remote_storages/${id}`, headers: admin })).body).not.toContain('very-secret');

    const renamed = await r.app.inject({ method: 'PUT', url: `/api/remote_storages/${id}`, headers: admin, payload: { name: 'Site bucket' } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Site bucket', config: { bucket: 'clips', has_secret: true } });

    expect(
      (
        await r.app.inject({
          method: 'POST',
          url: '/api/remote_storages',
          headers: admin,
          payload: { name: 'Site bucket', type: 'http', url: 'https://x.example' },
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (await r.app.inject({ method: 'POST', url: '/api/remote_storages', headers: admin, payload: { name: 'b', type: 's3', url: 'https://x.example' } }))
        .statusCode,
    ).toBe(400);
    expect(
      (await r.app.inject({ method: 'POST', url: '/api/remote_storages', headers: admin, payload: { name: 'c', type: 'http', url: 'ftp://x.example' } }))
        .statusCode,
    ).toBe(400);
    expect(
      (await r.app.inject({ method: 'POST', url: '/api/remote_storages', headers: admin, payload: { name: 'd', type: 'nfs', url: 'https://x.example' } }))
        .statusCode,
    ).toBe(400);
    expect((await r.app.inject({ method: 'GET', url: '/api/remote_storages', headers: viewer })).statusCode).toBe(403);

    expect((await r.app.inject({ method: 'DELETE', url: `/api/remote_storages/${id}`, headers: admin })).statusCode).toBe(204);
    expect((await r.app.inject({ method: 'GET', url: `/api/remote_storages/${id}`, headers: admin })).statusCode).toBe(404);
  });
});
