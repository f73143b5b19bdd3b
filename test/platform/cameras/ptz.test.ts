// PTZ (camera:ptz): the access rules of all fourteen endpoints, then behaviour on the
// simulated camera (state persists, the picture moves) and on a fake ONVIF camera the onvif library
// really talks to (SOAP and WS-Security), and bad inputs answered with 4xx.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedPtz, type SimState } from '../../../src/platform/cameras/ptz/simulated-ptz.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { checkEndpointAccess, type EndpointSpec } from '../../helpers/access.js';
import { startFakeCamera, type FakeCamera } from '../../fakes/fake-camera.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

/** The fake cameras listen on 127.0.0.1: opted in as a site's LAN would be (docs/security.md, Outbound connections). */
const LOCAL_CAMERAS = { OVERLOOK_ALLOWED_NETWORKS: '127.0.0.1/32' };

let tp: TestPlatform;
let fake: FakeCamera;
beforeAll(async () => {
  tp = await buildTestPlatform({ ...LOCAL_CAMERAS, OVERLOOK_CAMERA_TIMEOUT_MS: '2000' });
  fake = await startFakeCamera({ username: 'admin', password: 's3cret' });
});
afterAll(async () => {
  await fake.close();
  await tp.close();
});

const ptz = (path: string) => (w: { cameraExid: string; extra?: Record<string, string> }) =>
  `/v2/cameras/${w.cameraExid}/ptz/${path.replace('{preset}', w.extra?.preset ?? '')}`;
const otherPtz = (path: string) => (w: { otherCameraExid: string }) => `/v2/cameras/${w.otherCameraExid}/ptz/${path.replace('{preset}', 'preset_1')}`;
const withPreset = async (t: TestPlatform, w: { cameraExid: string; owner: Person }) => {
  const res = await t.app.inject({ method: 'POST', url: `/v2/cameras/${w.cameraExid}/ptz/presets/create`, headers: w.owner.auth, payload: { name: 'Gate' } });
  expect(res.statusCode).toBe(201);
  return { preset: res.json().token as string };
};
const spec = (method: EndpointSpec['method'], path: string, extra: Partial<EndpointSpec> = {}): EndpointSpec => ({
  method,
  url: ptz(path),
  otherUrl: otherPtz(path),
  scopes: ['camera:ptz'],
  role: method === 'GET' ? 'viewer' : 'editor',
  okStatus: 200,
  ...extra,
});

const endpoints: EndpointSpec[] = [
  spec('GET', 'status'),
  spec('GET', 'presets'),
  spec('GET', 'nodes'),
  spec('GET', 'configurations'),
  spec('POST', 'home'),
  spec('POST', 'home/set'),
  spec('POST', 'relative', { payload: () => ({ pan: 0.1 }) }),
  spec('POST', 'continuous/start/up_left'),
  spec('POST', 'continuous/stop'),
  spec('POST', 'continuous/zoom/in'),
  spec('POST', 'presets/create', { payload: () => ({ name: 'North gate' }), okStatus: 201 }),
  spec('POST', 'presets/go/{preset}', { setup: withPreset }),
  spec('POST', 'presets/{preset}/set', { setup: withPreset }),
  spec('DELETE', 'presets/{preset}/remove', { setup: withPreset, okStatus: 204 }),
];

describe('access rules', () => {
  for (const e of endpoints)
    it(`${e.method} ${e.url({ cameraExid: '{camera_exid}', extra: { preset: '{preset_token}' } } as never)}`, () => checkEndpointAccess(tp, e));
});

/** The simulated scene's sky colour (#87a9c8); the ground, the buildings and the truck are other colours. */
const SKY = [0x87, 0xa9, 0xc8];

/**
 * The simulated camera's picture at a pixel near the left edge, above the resting horizon: sky when it
 * has the sky's colour. Anything else is ground or what stands on it, such as the truck, whose white
 * cab comes past that pixel in some minutes once the camera tilts down.
 */
async function skyOrGround(exid: string): Promise<'sky' | 'ground'> {
  const row = await servicesOf(tp.app).cameras.row(exid);
  const { jpeg } = await servicesOf(tp.app).connections.connect(row).snapshot();
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  const at = (Math.round(info.height * 0.45) * info.width + 5) * info.channels;
  return SKY.every((c, i) => Math.abs(data[at + i]! - c) < 24) ? 'sky' : 'ground';
}

describe('the simulated camera', () => {
  let owner: Person;
  let exid: string;
  const call = (method: 'GET' | 'POST' | 'DELETE', path: string, payload?: object) =>
    tp.app.inject({ method, url: `/v2/cameras/${exid}/ptz/${path}`, headers: owner.auth, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    owner = await tp.person('ptz-owner');
    const p = await tp.project(owner, 'PTZ site');
    exid = (await tp.camera(owner, p.exid, 'Crane cam')).exid;
  });

  it('moves, and the move persists and shows in the picture', async () => {
    expect((await call('GET', 'status')).json()).toMatchObject({ pan: 0, tilt: 0, zoom: 0, moving: false });
    expect(await skyOrGround(exid)).toBe('sky');
    const moved = await call('POST', 'relative', { tilt: 0.5, zoom: 0.2 });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ pan: 0, tilt: 0.5, zoom: 0.2, moving: false });
    const row = await tp.t.db.kysely.selectFrom('cameras').select('sim_state').where('exid', '=', exid).executeTakeFirstOrThrow();
    expect(JSON.parse(row.sim_state)).toMatchObject({ pan: 0, tilt: 45, zoom: 2.8 });
    expect(await skyOrGround(exid)).toBe('ground');
    // Clamped to the ranges.
    expect((await call('POST', 'relative', { tilt: 1, zoom: 1 })).json()).toMatchObject({ tilt: 1, zoom: 1 });
    expect((await call('POST', 'relative', { tilt: -0.5, zoom: -0.8 })).json()).toMatchObject({ tilt: 0.5, zoom: 0.2 });
  });

  it('presets: create, go, overwrite, remove; home and set home', async () => {
    const created = await call('POST', 'presets/create', { name: '  Tower crane  ' });
    expect(created.statusCode).toBe(201);
    const preset = created.json();
    expect(preset).toMatchObject({ name: 'Tower crane', position: { pan: 0, tilt: 0.5, zoom: 0.2 } });
    expect(preset.token).toMatch(/^preset_\d+$/);

    expect((await call('POST', 'home')).json()).toMatchObject({ pan: 0, tilt: 0, zoom: 0 });
    expect(await skyOrGround(exid)).toBe('sky');
    expect((await call('POST', `presets/go/${preset.token}`)).json()).toMatchObject({ pan: 0, tilt: 0.5, zoom: 0.2 });
    expect(await skyOrGround(exid)).toBe('ground');

    await call('POST', 'relative', { pan: 0.25, tilt: -0.5 });
    const overwritten = await call('POST', `presets/${preset.token}/set`);
    expect(overwritten.statusCode).toBe(200);
    expect(overwritten.json()).toMatchObject({ token: preset.token, name: 'Tower crane', position: { pan: 0.25, tilt: 0, zoom: 0.2 } });

    expect((await call('POST', 'home/set')).json()).toMatchObject({ pan: 0.25, tilt: 0 });
    await call('POST', 'relative', { pan: -0.5 });
    expect((await call('POST', 'home')).json()).toMatchObject({ pan: 0.25, tilt: 0, zoom: 0.2 });

    const list = (await call('GET', 'presets')).json();
    expect(list.presets).toEqual([{ token: preset.token, name: 'Tower crane', position: { pan: 0.25, tilt: 0, zoom: 0.2 } }]);
    expect((await call('DELETE', `presets/${preset.token}/remove`)).statusCode).toBe(204);
    expect((await call('GET', 'presets')).json()).toEqual({ presets: [] });
    expect((await call('POST', `presets/go/${preset.token}`)).statusCode).toBe(404);
    // A removed preset's token is never issued again.
    const again = (await call('POST', 'presets/create', { name: 'Again' })).json();
    expect(again.token).not.toBe(preset.token);
    await call('DELETE', `presets/${again.token}/remove`);
  });

  it('continuous moves run until stopped, and the camera reports moving meanwhile', async () => {
    await call('POST', 'home');
    const start = await call('POST', 'continuous/start/up_right?speed=1');
    expect(start.statusCode).toBe(200);
    expect(start.json().moving).toBe(true);
    await new Promise((r) => setTimeout(r, 120));
    const stopped = (await call('POST', 'continuous/stop')).json();
    expect(stopped.moving).toBe(false);
    expect(stopped.pan).toBeGreaterThan(0.25);
    expect(stopped.tilt).toBeGreaterThan(0);
    const row = await tp.t.db.kysely.selectFrom('cameras').select('sim_state').where('exid', '=', exid).executeTakeFirstOrThrow();
    expect(JSON.parse(row.sim_state).moving).toBeNull();

    const zooming = (await call('POST', 'continuous/zoom/in')).json();
    expect(zooming.moving).toBe(true);
    const z = (await call('POST', 'continuous/zoom/stop')).json();
    expect(z.moving).toBe(false);
    expect(z.zoom).toBeGreaterThanOrEqual(0.2);
  });

  it('integrates speed over time and clamps to the ranges', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const state: SimState = { pan: 0, tilt: 0, zoom: 1, presets: [] };
    let saved: SimState | null = null;
    const sim = new SimulatedPtz(
      state,
      async (s) => {
        saved = structuredClone(s);
      },
      () => now,
    );
    await sim.continuousMove('left', 0.5);
    now = new Date(now.getTime() + 2000);
    expect(await sim.status()).toMatchObject({ pan: -0.2, tilt: 0, moving: true });
    now = new Date(now.getTime() + 60_000);
    expect(await sim.status()).toMatchObject({ pan: -1, moving: true });
    await sim.stop();
    expect(await sim.status()).toMatchObject({ pan: -1, moving: false });
    expect(saved).toMatchObject({ pan: -180, moving: null });
    await sim.continuousZoom('out', 1);
    now = new Date(now.getTime() + 1000);
    expect((await sim.status()).zoom).toBe(0);
  });

  it('answers bad input with 4xx, never 5xx', async () => {
    const bad: [string, string, object | undefined, number][] = [
      ['POST', 'continuous/start/sideways', undefined, 400],
      ['POST', 'continuous/start/UP', undefined, 400],
      ['POST', 'continuous/start/up?speed=0', undefined, 400],
      ['POST', 'continuous/start/up?speed=2', undefined, 400],
      ['POST', 'continuous/start/up?speed=fast', undefined, 400],
      ['POST', 'continuous/zoom/wide', undefined, 400],
      ['POST', 'presets/go/bad%20token!', undefined, 400],
      ['POST', `presets/go/${'x'.repeat(65)}`, undefined, 400],
      ['POST', 'presets/go/preset_999', undefined, 404],
      ['POST', 'presets/preset_999/set', undefined, 404],
      ['DELETE', 'presets/preset_999/remove', undefined, 404],
      ['DELETE', 'presets/%3Cx%3E/remove', undefined, 400],
      ['POST', 'relative', {}, 400],
      ['POST', 'relative', { pan: 2 }, 400],
      ['POST', 'relative', { pan: 'left' }, 400],
      ['POST', 'relative', { pan: 0.1, roll: 1 }, 400],
      ['POST', 'presets/create', {}, 400],
      ['POST', 'presets/create', { name: '' }, 400],
      ['POST', 'presets/create', { name: '   ' }, 400],
      ['POST', 'presets/create', { name: 'x'.repeat(65) }, 400],
      ['POST', 'presets/create', { name: 7 }, 400],
    ];
    for (const [method, path, payload, status] of bad) {
      const res = await call(method as 'POST', path, payload);
      expect(res.statusCode, `${method} ${path} ${JSON.stringify(payload)}: ${res.body}`).toBe(status);
      expect(res.json().code).toBeTruthy();
    }
    const raw = await tp.app.inject({
      method: 'POST',
      url: `/v2/cameras/${exid}/ptz/relative`,
      headers: { ...owner.auth, 'content-type': 'application/json' },
      payload: '{"pan":',
    });
    expect(raw.statusCode).toBe(400);
    expect((await tp.app.inject({ method: 'GET', url: '/v2/cameras/no-such-camera/ptz/status', headers: owner.auth })).statusCode).toBe(404);
  });
});

describe('an ONVIF camera', () => {
  let owner: Person;
  let projectExid: string;
  let exid: string;
  const call = (method: 'GET' | 'POST' | 'DELETE', path: string, payload?: object, cam = exid) =>
    tp.app.inject({ method, url: `/v2/cameras/${cam}/ptz/${path}`, headers: owner.auth, ...(payload ? { payload } : {}) });
  const addCamera = async (body: object) => {
    const res = await tp.app.inject({
      method: 'POST',
      url: '/v2/cameras',
      headers: owner.auth,
      payload: { name: 'ONVIF cam', project_exid: projectExid, ...body },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { exid: string; ptz: boolean };
  };

  beforeAll(async () => {
    owner = await tp.person('onvif-owner');
    projectExid = (await tp.project(owner, 'ONVIF site')).exid;
    const cam = await addCamera({ onvif_url: fake.onvifUrl, snapshot_url: fake.snapshotUrl, username: 'admin', password: 's3cret' });
    expect(cam.ptz).toBe(true);
    exid = cam.exid;
  });

  it('reads status, nodes and configurations from the camera', async () => {
    expect((await call('GET', 'status')).json()).toMatchObject({ pan: 0, tilt: 0, zoom: 0, moving: false });
    expect((await call('GET', 'nodes')).json()).toEqual({ nodes: [{ token: 'ptz_node_1', name: 'Head', max_presets: 32, home_supported: true }] });
    expect((await call('GET', 'configurations')).json()).toEqual({
      configurations: [{ token: 'ptz_config_1', name: 'PTZ', node_token: 'ptz_node_1', default_timeout: 'PT5S' }],
    });
    expect(fake.state.authFailures).toBe(0);
  });

  it('moves reach the camera', async () => {
    const moved = await call('POST', 'relative', { pan: 0.4, tilt: -0.3, zoom: 0.5 });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(fake.state.position).toEqual({ x: 0.4, y: -0.3, zoom: 0.5 });
    expect(moved.json()).toMatchObject({ pan: 0.4, tilt: -0.3, zoom: 0.5 });

    const created = await call('POST', 'presets/create', { name: 'Gate & road' });
    expect(created.statusCode, created.body).toBe(201);
    const token = created.json().token;
    expect(created.json()).toMatchObject({ name: 'Gate & road', position: { pan: 0.4, tilt: -0.3, zoom: 0.5 } });
    expect(fake.state.presets).toEqual([{ token, name: 'Gate & road', position: { x: 0.4, y: -0.3, zoom: 0.5 } }]);

    await call('POST', 'home');
    expect(fake.state.position).toEqual({ x: 0, y: 0, zoom: 0 });
    expect((await call('POST', `presets/go/${token}`)).json()).toMatchObject({ pan: 0.4, tilt: -0.3 });
    expect(fake.state.position).toEqual({ x: 0.4, y: -0.3, zoom: 0.5 });

    await call('POST', 'relative', { pan: 0.1 });
    expect((await call('POST', `presets/${token}/set`)).json()).toMatchObject({ token, position: { pan: 0.5, tilt: -0.3, zoom: 0.5 } });
    expect(fake.state.presets[0]!.position.x).toBe(0.5);
    await call('POST', 'home/set');
    expect(fake.state.home).toEqual({ x: 0.5, y: -0.3, zoom: 0.5 });

    expect((await call('POST', 'continuous/start/down_left?speed=0.8')).json().moving).toBe(true);
    expect(fake.state.velocity).toEqual({ x: -0.8, y: -0.8, zoom: 0 });
    await call('POST', 'continuous/zoom/out');
    expect(fake.state.velocity).toEqual({ x: -0.8, y: -0.8, zoom: -0.5 });
    await call('POST', 'continuous/zoom/stop');
    expect(fake.state.velocity).toEqual({ x: -0.8, y: -0.8, zoom: 0 });
    expect((await call('POST', 'continuous/stop')).json().moving).toBe(false);
    expect(fake.state.velocity).toBeNull();

    expect((await call('GET', 'presets')).json().presets.map((p: { token: string }) => p.token)).toEqual([token]);
    expect((await call('DELETE', `presets/${token}/remove`)).statusCode).toBe(204);
    expect(fake.state.presets).toEqual([]);
    const before = fake.state.operations.length;
    expect((await call('POST', `presets/go/${token}`)).statusCode).toBe(404);
    expect(fake.state.operations.slice(before)).not.toContain('GotoPreset');
    expect(fake.state.reboots).toBe(0);
  });

  it('a camera without PTZ answers 409; bad credentials 502; nothing listening 502; silence 504', async () => {
    const flat = await startFakeCamera({ username: 'u', password: 'p', ptz: false });
    const sockets: Socket[] = [];
    const silent: Server = createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const noOnvif = await addCamera({ snapshot_url: fake.snapshotUrl, username: 'admin', password: 's3cret' });
      expect(noOnvif.ptz).toBe(false);
      const a = await call('GET', 'status', undefined, noOnvif.exid);
      expect(a.statusCode).toBe(409);
      expect(a.json().code).toBe('PTZ_NOT_SUPPORTED');

      const noPtz = await addCamera({ onvif_url: flat.onvifUrl, username: 'u', password: 'p' });
      const b = await call('POST', 'home', undefined, noPtz.exid);
      expect(b.statusCode).toBe(409);
      expect(b.json().code).toBe('PTZ_NOT_SUPPORTED');

      const wrong = await addCamera({ onvif_url: fake.onvifUrl, username: 'admin', password: 'wrong' });
      const c = await call('GET', 'status', undefined, wrong.exid);
      expect(c.statusCode).toBe(502);
      expect(c.json()).toMatchObject({ code: 'BAD_GATEWAY', message: expect.stringContaining('not authorized') });

      const closed = createServer();
      await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((r) => closed.close(() => r()));
      const dead = await addCamera({ onvif_url: `http://127.0.0.1:${port}/onvif/device_service` });
      expect((await call('POST', 'relative', { pan: 0.1 }, dead.exid)).json().code).toBe('BAD_GATEWAY');

      // Devices answering nonsense: HTML, or SOAP envelopes with nothing in them.
      for (const answer of ['<html>Login</html>', '<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Body/></s:Envelope>']) {
        const odd = createHttpServer((_req, res) => res.writeHead(200, { 'content-type': 'application/soap+xml' }).end(answer));
        await new Promise<void>((r) => odd.listen(0, '127.0.0.1', r));
        try {
          const cam = await addCamera({
            onvif_url: `http://127.0.0.1:${(odd.address() as AddressInfo).port}/onvif/device_service`,
            username: 'a',
            password: 'b',
          });
          for (const path of ['status', 'presets', 'nodes']) expect((await call('GET', path, undefined, cam.exid)).statusCode).toBe(502);
        } finally {
          odd.closeAllConnections();
          await new Promise<void>((r) => odd.close(() => r()));
        }
      }

      const mute = await addCamera({ onvif_url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/onvif/device_service` });
      const d = await call('GET', 'presets', undefined, mute.exid);
      expect(d.statusCode).toBe(504);
      expect(d.json().code).toBe('GATEWAY_TIMEOUT');
    } finally {
      await flat.close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });
});
