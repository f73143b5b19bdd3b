// Cameras (cameras:read; creation by people only): access rules, then behaviour against the
// simulated camera and a real HTTP "IP camera" served by the test.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordReading } from '../../../src/platform/cameras/battery-readings-repository.js';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';
import { checkEndpointAccess, type EndpointSpec } from '../../helpers/access.js';

/** The fake cameras listen on 127.0.0.1: opted in as a site's LAN would be (docs/security.md, Outbound connections). */
const LOCAL_CAMERAS = { OVERLOOK_ALLOWED_NETWORKS: '127.0.0.1/32' };

let tp: TestPlatform;
let ipCam: Server;
let ipCamUrl: string;
beforeAll(async () => {
  tp = await buildTestPlatform(LOCAL_CAMERAS);
  const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
    .jpeg()
    .toBuffer();
  const expected = `Basic ${Buffer.from('admin:s3cret').toString('base64')}`;
  ipCam = createServer((req, res) => {
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="cam"' }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
  });
  await new Promise<void>((r) => ipCam.listen(0, '127.0.0.1', r));
  ipCamUrl = `http://127.0.0.1:${(ipCam.address() as AddressInfo).port}/snapshot.jpg`;
});
afterAll(async () => {
  ipCam.close();
  await tp.close();
});

const cam =
  (path = '') =>
  (w: { cameraExid: string }) =>
    `/v2/cameras/${w.cameraExid}${path}`;
const otherCam =
  (path = '') =>
  (w: { otherCameraExid: string }) =>
    `/v2/cameras/${w.otherCameraExid}${path}`;
const read = (path: string, extra: Partial<EndpointSpec> = {}): EndpointSpec => ({
  method: 'GET',
  url: cam(path),
  otherUrl: otherCam(path),
  scopes: ['cameras:read'],
  role: 'viewer',
  okStatus: 200,
  ...extra,
});

const endpoints: EndpointSpec[] = [
  read(''),
  read('/health'),
  read('/battery-readings'),
  read('/battery-readings/voltage-summary'),
  read('/last-public-note', {
    setup: async (_tp, w) => {
      const res = await tp.app.inject({
        method: 'POST',
        url: `/v2/cameras/${w.cameraExid}/notes`,
        headers: w.owner.auth,
        payload: { content: 'Gate moved', is_public: true },
      });
      expect(res.statusCode).toBe(201);
      return {};
    },
  }),
  {
    method: 'GET',
    url: (w) => `/v2/projects/${w.projectExid}/cameras`,
    otherUrl: (w) => `/v2/projects/${w.otherProjectExid}/cameras`,
    scopes: ['projects:read', 'cameras:read'],
    role: 'viewer',
    okStatus: 200,
  },
  { method: 'POST', url: cam('/notes'), payload: () => ({ content: 'note' }), scopes: [], role: 'editor', okStatus: 201 },
  {
    method: 'POST',
    url: () => '/v2/cameras',
    payload: (w) => ({ name: 'New cam', project_exid: w.projectExid, simulated: true }),
    scopes: [],
    role: 'admin',
    okStatus: 201,
  },
];

describe('access rules', () => {
  for (const spec of endpoints)
    it(`${spec.method} ${spec.url({ cameraExid: '{camera_exid}', projectExid: '{exid}' } as never)}`, () => checkEndpointAccess(tp, spec));

  it('GET /v2/cameras lists only the key’s projects’ cameras, under either scope', async () => {
    const owner = await tp.person('owner');
    const a = await tp.project(owner, 'A');
    const b = await tp.project(owner, 'B');
    const ca = await tp.camera(owner, a.exid);
    await tp.camera(owner, b.exid);
    for (const scope of ['projects:read', 'cameras:read']) {
      const key = await tp.key(owner, { projects: [a.exid], scopes: [scope] });
      const res = await tp.app.inject({ method: 'GET', url: '/v2/cameras', headers: key.headers });
      expect(res.statusCode, scope).toBe(200);
      expect(res.json().map((c: { exid: string }) => c.exid)).toEqual([ca.exid]);
    }
    const byOwner = await tp.app.inject({ method: 'GET', url: '/v2/cameras', headers: owner.auth });
    expect(byOwner.json()).toHaveLength(2);
    const stranger = await tp.person('stranger');
    expect((await tp.app.inject({ method: 'GET', url: '/v2/cameras', headers: stranger.auth })).json()).toEqual([]);
  });

  it('a key with every scope still cannot create a camera (creation is for people only)', async () => {
    const owner = await tp.person('owner');
    const p = await tp.project(owner);
    const key = await tp.key(owner, { projects: [p.exid], scopes: ['cameras:read', 'projects:read', 'project:settings'] });
    const res = await tp.app.inject({
      method: 'POST',
      url: '/v2/cameras',
      headers: key.headers,
      payload: { name: 'x', project_exid: p.exid, simulated: true },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('ENDPOINT_CLOSED_TO_KEYS');
  });
});

describe('camera creation', () => {
  it('simulated: 201 with exid, name, project_exid; the project counts it', async () => {
    const owner = await tp.person('owner');
    const p = await tp.project(owner);
    const res = await tp.app.inject({
      method: 'POST',
      url: '/v2/cameras',
      headers: owner.auth,
      payload: { name: 'Tower crane', project_exid: p.exid, simulated: true },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ name: 'Tower crane', project_exid: p.exid, exid: expect.stringMatching(/^[a-z0-9-]+$/) });
    expect((await tp.app.inject({ method: 'GET', url: `/v2/projects/${p.exid}`, headers: owner.auth })).json().camera_count).toBe(1);
  });

  it('a real camera keeps its password write-only', async () => {
    const owner = await tp.person('owner');
    const p = await tp.project(owner);
    const res = await tp.app.inject({
      method: 'POST',
      url: '/v2/cameras',
      headers: owner.auth,
      payload: { name: 'Gate', project_exid: p.exid, snapshot_url: ipCamUrl, username: 'admin', password: 's3cret' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.body).not.toContain('s3cret');
    const got = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${res.json().exid}`, headers: owner.auth });
    expect(got.body).not.toContain('s3cret');
  });

  it('bad input: 4xx naming the problem, nothing created', async () => {
    const owner = await tp.person('owner');
    const p = await tp.project(owner);
    const cases: unknown[] = [
      { name: 'x', project_exid: p.exid },
      { name: 'x', project_exid: p.exid, snapshot_url: 'not a url' },
      { name: 'x', project_exid: p.exid, snapshot_url: 'file:///etc/passwd' },
      { name: 'x', project_exid: p.exid, rtsp_url: 'http://cam/stream' },
      { name: '', project_exid: p.exid, simulated: true },
      { name: 'x', project_exid: p.exid, simulated: true, location: { lat: 91, lng: 0 } },
      { name: 'x', project_exid: p.exid, simulated: true, timezone: 'Nowhere/Land' },
      { name: 'x', project_exid: p.exid, simulated: 'yes' },
      { name: 'x', project_exid: p.exid, simulated: true, bogus: 1 },
    ];
    for (const payload of cases) {
      const res = await tp.app.inject({ method: 'POST', url: '/v2/cameras', headers: owner.auth, payload: payload as object });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    const missing = await tp.app.inject({
      method: 'POST',
      url: '/v2/cameras',
      headers: owner.auth,
      payload: { name: 'x', project_exid: 'nope-nopes', simulated: true },
    });
    expect(missing.statusCode).toBe(404);
    expect((await tp.app.inject({ method: 'GET', url: `/v2/projects/${p.exid}/cameras`, headers: owner.auth })).json()).toEqual([]);
  });
});

describe('health from real reachability checks', () => {
  it('simulated camera: online with a solar battery reading', async () => {
    const owner = await tp.person('owner');
    const p = await tp.project(owner);
    const c = await tp.camera(owner, p.exid);
    const res = (await tp.app.inject({ method: 'GET', url: `/v2/cameras/${c.exid}/health`, headers: owner.auth })).json();
    expect(res).toMatchObject({ status: 'online', reason: null, battery: { voltage: expect.any(Number), percentage: expect.any(Number) } });
    expect((await tp.app.inject({ method: 'GET', url: `/v2/cameras/${c.exid}`, headers: owner.auth })).json().status).toBe('online');
  });

  it('IP camera over HTTP: online with the right credentials, offline with wrong ones or nothing listening', async () => {
    const owner = await tp.person('owner');
    const p = await tp.project(owner);
    const make = async (payload: Record<string, unknown>) => {
      const res = await tp.app.inject({ method: 'POST', url: '/v2/cameras', headers: owner.auth, payload: { name: 'IP', project_exid: p.exid, ...payload } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().exid as string;
    };
    const good = await make({ snapshot_url: ipCamUrl, username: 'admin', password: 's3cret' });
    const wrong = await make({ snapshot_url: ipCamUrl, username: 'admin', password: 'nope' });
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    const dead = await make({ rtsp_url: `rtsp://127.0.0.1:${port}/stream` });
    const health = async (exid: string) => (await tp.app.inject({ method: 'GET', url: `/v2/cameras/${exid}/health`, headers: owner.auth })).json();
    expect(await health(good)).toMatchObject({ status: 'online', reason: null, battery: null });
    const w = await health(wrong);
    expect(w.status).toBe('offline');
    expect(w.reason).toContain('401');
    const d = await health(dead);
    expect(d.status).toBe('offline');
    expect(d.reason).toContain(`${port}`);
    expect((await tp.app.inject({ method: 'GET', url: `/v2/cameras/${dead}`, headers: owner.auth })).json().status).toBe('offline');
  });
});

describe('notes, readings and voltage summary', () => {
  it('last public note: the newest public one; private notes do not show; 404 when none', async () => {
    const owner = await tp.person('owner');
    const editor = await tp.person('editor');
    const p = await tp.project(owner);
    const c = await tp.camera(owner, p.exid);
    await tp.addMember(owner, p.exid, editor, 'editor');
    const url = `/v2/cameras/${c.exid}/last-public-note`;
    expect((await tp.app.inject({ method: 'GET', url, headers: owner.auth })).statusCode).toBe(404);
    const post = (content: string, is_public: boolean) =>
      tp.app.inject({ method: 'POST', url: `/v2/cameras/${c.exid}/notes`, headers: editor.auth, payload: { content, is_public } });
    expect((await post('first public', true)).statusCode).toBe(201);
    expect((await post('second public', true)).statusCode).toBe(201);
    expect((await post('private', false)).statusCode).toBe(201);
    const note = (await tp.app.inject({ method: 'GET', url, headers: owner.auth })).json();
    expect(note).toMatchObject({ content: 'second public', author_email: editor.email });
    expect((await tp.app.inject({ method: 'POST', url: `/v2/cameras/${c.exid}/notes`, headers: editor.auth, payload: { content: '' } })).statusCode).toBe(400);
  });

  it('readings page newest first; the voltage summary aggregates per UTC day', async () => {
    const owner = await tp.person('owner');
    const p = await tp.project(owner);
    const c = await tp.camera(owner, p.exid);
    const row = await tp.t.db.kysely.selectFrom('cameras').select('id').where('exid', '=', c.exid).executeTakeFirstOrThrow();
    const at = (s: string) => new Date(s);
    await recordReading(tp.t.db, row.id, at('2026-03-01T06:00:00Z'), 12.0, 80);
    await recordReading(tp.t.db, row.id, at('2026-03-01T18:00:00Z'), 13.0, 95);
    await recordReading(tp.t.db, row.id, at('2026-03-02T06:00:00Z'), 11.0, 60);
    // Within a minute of the previous: not stored.
    expect(await recordReading(tp.t.db, row.id, at('2026-03-02T06:00:30Z'), 10.0, 50)).toBe(false);

    const page = (await tp.app.inject({ method: 'GET', url: `/v2/cameras/${c.exid}/battery-readings?page_size=2`, headers: owner.auth })).json();
    expect(page.meta).toMatchObject({ total_count: 3, total_pages: 2 });
    expect(page.data.map((r: { voltage: number }) => r.voltage)).toEqual([11, 13]);

    const sum = (
      await tp.app.inject({
        method: 'GET',
        url: `/v2/cameras/${c.exid}/battery-readings/voltage-summary?from=2026-03-01T00:00:00Z&to=2026-03-03T00:00:00Z`,
        headers: owner.auth,
      })
    ).json();
    expect(sum).toMatchObject({
      count: 3,
      min_voltage: 11,
      max_voltage: 13,
      avg_voltage: 12,
      latest: { voltage: 11, percentage: 60, recorded_at: '2026-03-02T06:00:00.000Z' },
    });
    expect(sum.days).toEqual([
      { day: '2026-03-01', min_voltage: 12, max_voltage: 13, avg_voltage: 12.5, count: 2 },
      { day: '2026-03-02', min_voltage: 11, max_voltage: 11, avg_voltage: 11, count: 1 },
    ]);
    const empty = (
      await tp.app.inject({
        method: 'GET',
        url: `/v2/cameras/${c.exid}/battery-readings/voltage-summary?from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z`,
        headers: owner.auth,
      })
    ).json();
    expect(empty).toEqual({ count: 0, min_voltage: null, max_voltage: null, avg_voltage: null, latest: null, days: [] });
    for (const from of ['soon', '1', '12%2F25%2F2026', '2026-02-30T00:00:00Z']) {
      const bad = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${c.exid}/battery-readings/voltage-summary?from=${from}`, headers: owner.auth });
      expect(bad.statusCode, from).toBe(400);
    }
  });
});
