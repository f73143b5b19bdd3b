// Camera addresses and the platform's own network (docs/security.md, Outbound connections): a URL
// pointing at loopback, private, link-local and other non-public addresses is refused when saved and
// never fetched when it points there later; refusals say only "refused by policy"; an opted-in network
// is reachable but the platform's own port is not; only a real JPEG is passed on as a snapshot, and a
// redirect is not followed.
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Server as NetServer } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import { updateCamera } from '../../../src/platform/cameras/cameras-repository.js';

/** A server on 127.0.0.1 (or another loopback address) that counts every request it gets. */
async function countingServer(host: string, jpeg: Buffer, redirectTo?: () => string) {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    if (req.url === '/snap.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
    // An internal page that claims to be an image: must never be passed on.
    else if (req.url === '/internal') res.writeHead(200, { 'content-type': 'image/jpeg' }).end('<html>secret-internal-page</html>');
    // A service that names itself in its content type: its name must not come back to the caller.
    else if (req.url === '/service') res.writeHead(200, { 'content-type': 'application/x-internal-admin-console' }).end('{}');
    else if (req.url === '/redirect' && redirectTo) res.writeHead(302, { location: redirectTo() }).end();
    else res.writeHead(200, { 'content-type': 'application/soap+xml' }).end('<x/>');
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const port = (server.address() as AddressInfo).port;
  return { hits, port, url: `http://${host}:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A TCP listener standing in for an RTSP port: counts the connections it gets. */
const rtsp = { port: 0, connections: 0, server: null as NetServer | null };

let jpeg: Buffer;
let cam: Awaited<ReturnType<typeof countingServer>>;
let other: Awaited<ReturnType<typeof countingServer>>;
beforeAll(async () => {
  jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } })
    .jpeg()
    .toBuffer();
  other = await countingServer('127.0.0.2', jpeg);
  cam = await countingServer('127.0.0.1', jpeg, () => `${other.url}/snap.jpg`);
  rtsp.server = createNetServer((socket) => {
    rtsp.connections++;
    socket.destroy();
  });
  await new Promise<void>((r) => rtsp.server!.listen(0, '127.0.0.1', r));
  rtsp.port = (rtsp.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((r) => rtsp.server!.close(() => r()));
  await cam.close();
  await other.close();
});

interface World {
  tp: TestPlatform;
  owner: Person;
  projectExid: string;
}
async function world(env: Record<string, string> = {}): Promise<World> {
  const tp = await buildTestPlatform(env);
  const owner = await tp.person('net-owner');
  const projectExid = (await tp.project(owner, 'Network policy')).exid;
  return { tp, owner, projectExid };
}
const createCamera = (w: World, body: object) =>
  w.tp.app.inject({ method: 'POST', url: '/v2/cameras', headers: w.owner.auth, payload: { name: 'Cam', project_exid: w.projectExid, ...body } });

describe('by default (no network opted in)', () => {
  let w: World;
  beforeAll(async () => {
    w = await world();
  });
  afterAll(() => w.tp.close());

  it.each([
    ['snapshot_url', 'loopback', () => `${cam.url}/snap.jpg`],
    ['snapshot_url', 'localhost', () => `http://localhost:${cam.port}/snap.jpg`],
    ['snapshot_url', 'IPv6 loopback', () => `http://[::1]:${cam.port}/snap.jpg`],
    ['snapshot_url', 'IPv4-mapped loopback', () => `http://[::ffff:127.0.0.1]:${cam.port}/snap.jpg`],
    ['snapshot_url', 'cloud metadata', () => 'http://169.254.169.254/latest/meta-data/'],
    ['snapshot_url', 'private 10/8', () => 'http://10.0.0.1/snap.jpg'],
    ['snapshot_url', 'unspecified', () => `http://0.0.0.0:${cam.port}/snap.jpg`],
    ['rtsp_url', 'private 192.168/16', () => 'rtsp://192.168.1.64:554/stream1'],
    ['rtsp_url', 'unique-local IPv6', () => 'rtsp://[fc00::10]/stream1'],
    ['rtsp_url', 'multicast', () => 'rtsp://224.0.0.1/stream1'],
    ['onvif_url', 'private 172.16/12', () => 'http://172.16.5.4/onvif/device_service'],
    ['onvif_url', 'loopback', () => `${cam.url}/onvif/device_service`],
  ])('saving a %s pointing at %s: 400 naming the field, nothing more', async (field, _what, url) => {
    const before = cam.hits.length;
    const res = await createCamera(w, { [field]: url() });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_ERROR',
      message: `${field}: refused by policy`,
      details: [{ field, message: 'refused by policy' }],
      request_id: expect.any(String),
    });
    expect(cam.hits.length).toBe(before);
  });

  it('the connection settings and the connection check refuse them the same way', async () => {
    const exid = (await w.tp.camera(w.owner, w.projectExid)).exid;
    const put = await w.tp.app.inject({
      method: 'PUT',
      url: `/v2/cameras/${exid}/settings/connection`,
      headers: w.owner.auth,
      payload: { onvif_url: `${cam.url}/onvif/device_service` },
    });
    expect(put.statusCode).toBe(400);
    expect(put.json().message).toBe('onvif_url: refused by policy');
    const check = await w.tp.app.inject({
      method: 'POST',
      url: `/v2/cameras/${exid}/settings/connection/check`,
      headers: w.owner.auth,
      payload: { snapshot_url: `http://127.0.0.1:1/snap.jpg` },
    });
    expect(check.statusCode).toBe(400);
    expect(check.json().message).toBe('snapshot_url: refused by policy');
  });

  describe('a stored address that now points at a refused one', () => {
    let exid: string;
    beforeAll(async () => {
      // As if the camera's name had been re-pointed at an internal address after it was saved.
      exid = (await w.tp.camera(w.owner, w.projectExid)).exid;
      const { db, caches, cameras } = servicesOf(w.tp.app);
      const row = await cameras.row(exid);
      const connection = { snapshot_url: `${cam.url}/snap.jpg`, onvif_url: `${cam.url}/onvif/device_service`, username: 'u', password: 'p' };
      await updateCamera(db, row.id, { kind: 'ip', connection: JSON.stringify(connection) });
      caches.forget([{ kind: 'camera', id: exid }]);
    });

    it('the connection check says only "refused by policy"', async () => {
      const res = await w.tp.app.inject({ method: 'POST', url: `/v2/cameras/${exid}/settings/connection/check`, headers: w.owner.auth, payload: {} });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: 'offline', reason: 'refused by policy', tested: 'stored' });
      expect(cam.hits).toEqual([]);
    });

    it('the live snapshot is never fetched', async () => {
      const res = await w.tp.app.inject({ method: 'GET', url: `/v2/cameras/${exid}/live/snapshot`, headers: w.owner.auth });
      expect(res.statusCode).toBe(502);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json().message).toMatch(/refused by policy$/);
      expect(cam.hits).toEqual([]);
    });

    it('an RTSP address is never probed, streamed from or connected to', async () => {
      const rtspOnly = (await w.tp.camera(w.owner, w.projectExid, 'Stream only')).exid;
      const { db, caches, cameras } = servicesOf(w.tp.app);
      await updateCamera(db, (await cameras.row(rtspOnly)).id, { kind: 'ip', connection: JSON.stringify({ rtsp_url: `rtsp://127.0.0.1:${rtsp.port}/live` }) });
      caches.forget([{ kind: 'camera', id: rtspOnly }]);
      const get = (url: string, method: 'GET' | 'POST' = 'GET') => w.tp.app.inject({ method, url: `/v2/cameras/${rtspOnly}${url}`, headers: w.owner.auth });
      const snap = await get('/live/snapshot');
      expect(snap.statusCode).toBe(502);
      expect(snap.json().message).toBe('The camera’s stream could not be read: refused by policy');
      expect((await get('/settings/connection/check', 'POST')).json()).toMatchObject({ status: 'offline', reason: 'refused by policy' });
      expect(rtsp.connections).toBe(0);
    });

    it('ONVIF is never POSTed there', async () => {
      const res = await w.tp.app.inject({
        method: 'GET',
        url: `/v2/onvif/v20/device/GetDeviceInformation?camera_exid=${exid}`,
        headers: w.owner.auth,
      });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(600);
      expect(res.body).not.toContain('secret');
      expect(cam.hits).toEqual([]);
    });
  });
});

describe('with 127.0.0.1 opted in', () => {
  let w: World;
  let ownPort: number;
  beforeAll(async () => {
    w = await world({ OVERLOOK_ALLOWED_NETWORKS: '127.0.0.1/32' });
    await w.tp.app.listen({ host: '127.0.0.1', port: 0 });
    ownPort = (w.tp.app.server.address() as AddressInfo).port;
  });
  afterAll(() => w.tp.close());

  it('a camera in the opted-in network is reached; a neighbour outside it is not', async () => {
    const ok = await createCamera(w, { snapshot_url: `${cam.url}/snap.jpg` });
    expect(ok.statusCode, ok.body).toBe(201);
    const shot = await w.tp.app.inject({ method: 'GET', url: `/v2/cameras/${ok.json().exid}/live/snapshot.jpg`, headers: w.owner.auth });
    expect(shot.statusCode).toBe(200);
    expect([...shot.rawPayload.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(cam.hits).toContain('GET /snap.jpg');
    const outside = await createCamera(w, { snapshot_url: `${other.url}/snap.jpg` });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().message).toBe('snapshot_url: refused by policy');
  });

  it("the platform's own port stays refused", async () => {
    for (const url of [`http://127.0.0.1:${ownPort}/v2/cameras`, `http://localhost:${ownPort}/v2/cameras`]) {
      const res = await createCamera(w, { snapshot_url: url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message).toBe('snapshot_url: refused by policy');
    }
    const onvif = await createCamera(w, { onvif_url: `http://127.0.0.1:${ownPort}/onvif/device_service` });
    expect(onvif.json().message).toBe('onvif_url: refused by policy');
  });

  it('an answer that is not a JPEG is a camera error, never passed on', async () => {
    const exid = (await createCamera(w, { snapshot_url: `${cam.url}/internal` })).json().exid;
    const res = await w.tp.app.inject({ method: 'GET', url: `/v2/cameras/${exid}/live/snapshot.jpg`, headers: w.owner.auth });
    expect(res.statusCode).toBe(502);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json().message).toBe('The camera gave no snapshot: snapshot URL answered something that is not a JPEG');
    expect(res.body).not.toContain('secret-internal-page');
    const service = (await createCamera(w, { snapshot_url: `${cam.url}/service` })).json().exid;
    const other = await w.tp.app.inject({ method: 'GET', url: `/v2/cameras/${service}/live/snapshot.jpg`, headers: w.owner.auth });
    expect(other.statusCode).toBe(502);
    expect(other.json().message).toBe('The camera gave no snapshot: snapshot URL answered something that is not a JPEG');
  });

  it('a redirect into a refused address is not followed', async () => {
    const exid = (await createCamera(w, { snapshot_url: `${cam.url}/redirect` })).json().exid;
    const res = await w.tp.app.inject({ method: 'GET', url: `/v2/cameras/${exid}/live/snapshot`, headers: w.owner.auth });
    expect(res.statusCode).toBe(502);
    expect(other.hits).toEqual([]);
  });
});
