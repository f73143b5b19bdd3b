// Camera settings: each change takes effect at once (the camera caches are dropped), the connection is
// validated like camera creation and its secrets never come back, a connection check really talks to the
// camera, recording settings are the recordings' own, and every change is in the camera's history.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { jpeg } from '../projects/settings-helpers.js';

/** The fake cameras listen on 127.0.0.1: opted in as a site's LAN would be (docs/security.md, Outbound connections). */
const LOCAL_CAMERAS = { OVERLOOK_ALLOWED_NETWORKS: '127.0.0.1/32' };

let tp: TestPlatform;
let server: Server;
let snapshotUrl: string;
beforeAll(async () => {
  tp = await buildTestPlatform(LOCAL_CAMERAS);
  const frame = await jpeg(320, 180);
  // A camera's snapshot URL on loopback: answers a JPEG to user cam / password secret (basic auth).
  server = createServer((req, res) => {
    if (req.headers.authorization !== `Basic ${Buffer.from('cam:secret').toString('base64')}`) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="cam"' }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(frame);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  snapshotUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/snap.jpg`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await tp.close();
});

async function world(): Promise<{ owner: Person; exid: string; projectExid: string }> {
  const owner = await tp.person('owner');
  const p = await tp.project(owner, 'Camera site');
  const cam = await tp.camera(owner, p.exid, 'Gate');
  return { owner, exid: cam.exid, projectExid: p.exid };
}

const inject = (owner: Person, method: 'GET' | 'PATCH' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
  tp.app.inject({ method, url, headers: owner.auth, ...(payload ? { payload } : {}) });

describe('camera settings', () => {
  it('a read answered from the cache shows a change at once (the record’s text is made again)', async () => {
    const { owner, exid } = await world();
    const name = async () => (await inject(owner, 'GET', `/v2/cameras/${exid}`)).json().name;
    // The first read loads the record, the second is answered from the cache.
    expect([await name(), await name()]).toEqual(['Gate', 'Gate']);
    await inject(owner, 'PATCH', `/v2/cameras/${exid}/settings`, { name: 'East gate' });
    expect([await name(), await name()]).toEqual(['East gate', 'East gate']);
  });

  it('rename, location, orientation, time zone and visibility show at once on the camera', async () => {
    const { owner, exid } = await world();
    // Warm the camera cache first, so a stale cache would show.
    expect((await inject(owner, 'GET', `/v2/cameras/${exid}`)).json().name).toBe('Gate');
    expect((await inject(owner, 'PATCH', `/v2/cameras/${exid}/settings`, { name: ' North gate ' })).json().name).toBe('North gate');
    expect((await inject(owner, 'PATCH', `/v2/cameras/${exid}/settings/location`, { location: { lat: 53.35, lng: -6.26 } })).json().location).toEqual({
      lat: 53.35,
      lng: -6.26,
    });
    expect((await inject(owner, 'PATCH', `/v2/cameras/${exid}/settings/orientation`, { heading: 270.5, fov: 90 })).json()).toMatchObject({
      heading: 270.5,
      fov: 90,
    });
    expect((await inject(owner, 'PATCH', `/v2/cameras/${exid}/settings/timezone`, { timezone: 'Europe/Dublin' })).json().timezone).toBe('Europe/Dublin');
    expect((await inject(owner, 'PATCH', `/v2/cameras/${exid}/settings/visibility`, { is_public: true })).json().is_public).toBe(true);
    const cam = (await inject(owner, 'GET', `/v2/cameras/${exid}`)).json();
    expect(cam).toMatchObject({ name: 'North gate', location: { lat: 53.35, lng: -6.26 }, timezone: 'Europe/Dublin', is_public: true });
    const settings = (await inject(owner, 'GET', `/v2/cameras/${exid}/settings`)).json();
    expect(settings).toMatchObject({ exid, kind: 'simulated', connection: null, heading: 270.5, fov: 90, recording: { status: 'off' } });
    // Clearing.
    expect((await inject(owner, 'PATCH', `/v2/cameras/${exid}/settings/location`, { location: null })).json().location).toBeNull();
    expect((await inject(owner, 'PATCH', `/v2/cameras/${exid}/settings/orientation`, { heading: null })).json()).toMatchObject({ heading: null, fov: 90 });

    const history = (await inject(owner, 'GET', `/v2/cameras/${exid}/settings/history`)).json();
    expect(history.data.map((e: { action: string }) => e.action).sort()).toEqual(
      [
        'camera.location_changed',
        'camera.location_changed',
        'camera.orientation_changed',
        'camera.orientation_changed',
        'camera.renamed',
        'camera.timezone_changed',
        'camera.visibility_changed',
      ].sort(),
    );
    expect(history.data.find((e: { action: string }) => e.action === 'camera.renamed').details).toMatchObject({ from: 'Gate', to: 'North gate' });
  });

  it('refuses bad values with 400 and unknown cameras with 404', async () => {
    const { owner, exid } = await world();
    const cases: [string, object][] = [
      ['/settings', { name: '   ' }],
      ['/settings', {}],
      ['/settings/location', { location: { lat: 91, lng: 0 } }],
      ['/settings/location', { location: { lat: 'north', lng: 0 } }],
      ['/settings/location', {}],
      ['/settings/orientation', { heading: 360 }],
      ['/settings/orientation', { fov: 0 }],
      ['/settings/orientation', {}],
      ['/settings/timezone', { timezone: 'Europe/Atlantis' }],
      ['/settings/visibility', { is_public: 'yes' }],
      ['/settings/recording', { frequency: 0 }],
      ['/settings/recording', { storage_duration: 0 }],
      ['/settings/recording', { schedule: { monday: ['25:00-26:00'] } }],
    ];
    for (const [path, payload] of cases) {
      const res = await inject(owner, 'PATCH', `/v2/cameras/${exid}${path}`, payload);
      expect(res.statusCode, `${path} ${JSON.stringify(payload)}: ${res.body}`).toBe(400);
    }
    expect((await inject(owner, 'GET', `/v2/cameras/no-such-cam/settings`)).statusCode).toBe(404);
    expect((await inject(owner, 'GET', `/v2/cameras/${exid}/settings/history?page_size=0`)).statusCode).toBe(400);
  });

  it('recording settings are the cloud recordings’ own', async () => {
    const { owner, exid } = await world();
    const res = await inject(owner, 'PATCH', `/v2/cameras/${exid}/settings/recording`, {
      status: 'on',
      frequency: 4,
      storage_duration: 30,
      schedule: { monday: ['08:00-18:00'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const people = (await inject(owner, 'GET', `/v2/cameras/${exid}/cloud-recordings`)).json();
    expect(people).toMatchObject({ status: 'on', frequency: 4, storage_duration: 30, schedule: { monday: ['08:00-18:00'] } });
    expect((await inject(owner, 'GET', `/v2/cameras/${exid}/settings/recording`)).json()).toEqual(people);
    const row = await tp.t.db.kysely.selectFrom('camera_recording_settings').selectAll().executeTakeFirst();
    expect(row).toMatchObject({ status: 'on', frequency: 4, updated_by: owner.id });
  });
});

describe('camera connection', () => {
  it('is validated like creation, write-only, keeps the password unless told, and turns a simulated camera into a real one', async () => {
    const { owner, exid } = await world();
    const bad: object[] = [
      {},
      { snapshot_url: 'ftp://127.0.0.1/x.jpg' },
      { snapshot_url: 'not a url' },
      { rtsp_url: 'http://127.0.0.1/stream' },
      { snapshot_url: 'http://user:pw@127.0.0.1/x.jpg' },
      { snapshot_url: snapshotUrl, password: 'secret' },
      { snapshot_url: snapshotUrl, username: 'cam', token: 'x' },
    ];
    for (const payload of bad) {
      const res = await inject(owner, 'PUT', `/v2/cameras/${exid}/settings/connection`, payload);
      expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(400);
    }
    const set = await inject(owner, 'PUT', `/v2/cameras/${exid}/settings/connection`, { snapshot_url: snapshotUrl, username: 'cam', password: 'secret' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({
      kind: 'ip',
      connection: { snapshot_url: snapshotUrl, rtsp_url: null, onvif_url: null, username: 'cam', password_set: true },
    });
    expect(set.body).not.toContain('secret');
    expect((await inject(owner, 'GET', `/v2/cameras/${exid}/settings`)).body).not.toContain('secret');
    expect((await inject(owner, 'GET', `/v2/cameras/${exid}`)).json().kind).toBe('ip');
    // The live snapshot now comes from the new address, with the stored credentials.
    const live = await inject(owner, 'GET', `/v2/cameras/${exid}/live/snapshot.jpg`);
    expect(live.statusCode, live.body).toBe(200);
    expect(live.headers['content-type']).toContain('image/jpeg');

    // Same username, no password: the stored password is kept (the client cannot send it back).
    const keep = await inject(owner, 'PUT', `/v2/cameras/${exid}/settings/connection`, { snapshot_url: snapshotUrl, username: 'cam' });
    expect(keep.json().connection.password_set).toBe(true);
    expect((await inject(owner, 'POST', `/v2/cameras/${exid}/settings/connection/check`, {})).json()).toMatchObject({ status: 'online', tested: 'stored' });
    // null clears it; the camera then refuses us.
    const cleared = await inject(owner, 'PUT', `/v2/cameras/${exid}/settings/connection`, { snapshot_url: snapshotUrl, username: 'cam', password: null });
    expect(cleared.json().connection.password_set).toBe(false);
    expect((await inject(owner, 'POST', `/v2/cameras/${exid}/settings/connection/check`)).json()).toMatchObject({ status: 'offline', tested: 'stored' });
    expect((await inject(owner, 'GET', `/v2/cameras/${exid}/live/snapshot.jpg`)).statusCode).toBe(502);

    const history = (await inject(owner, 'GET', `/v2/cameras/${exid}/settings/history`)).json();
    const change = history.data.find((e: { action: string }) => e.action === 'camera.connection_changed');
    expect(change.details).toMatchObject({ snapshot_url: snapshotUrl, login: 'username only' });
    expect(JSON.stringify(history)).not.toContain('secret');
  });

  it('a check tries given details without saving them', async () => {
    const { owner, exid } = await world();
    const good = await inject(owner, 'POST', `/v2/cameras/${exid}/settings/connection/check`, {
      snapshot_url: snapshotUrl,
      username: 'cam',
      password: 'secret',
    });
    expect(good.json()).toMatchObject({ status: 'online', tested: 'given', reason: null });
    const wrong = await inject(owner, 'POST', `/v2/cameras/${exid}/settings/connection/check`, {
      snapshot_url: snapshotUrl,
      username: 'cam',
      password: 'wrong',
    });
    expect(wrong.json()).toMatchObject({ status: 'offline', tested: 'given' });
    expect(wrong.json().reason).toBeTruthy();
    const closed = await inject(owner, 'POST', `/v2/cameras/${exid}/settings/connection/check`, { snapshot_url: 'http://127.0.0.1:1/x.jpg' });
    expect(closed.json().status).toBe('offline');
    expect((await inject(owner, 'POST', `/v2/cameras/${exid}/settings/connection/check`, { snapshot_url: 'gopher://x' })).statusCode).toBe(400);
    // Nothing was saved: still the simulated camera.
    expect((await inject(owner, 'GET', `/v2/cameras/${exid}/settings`)).json()).toMatchObject({ kind: 'simulated', connection: null });
  });
});
