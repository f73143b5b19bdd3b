// "Capture now" (POST /v2/cameras/{camera_exid}/snapshots): access, a real JPEG from the
// simulated camera stored in the object store and the index, notes, and 502/504 from failing cameras.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { checkEndpointAccess } from '../../helpers/access.js';
import { snapshotKey } from '../../../src/platform/recordings/snapshot-index.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

/** The fake cameras listen on 127.0.0.1: opted in as a site's LAN would be (docs/security.md, Outbound connections). */
const LOCAL_CAMERAS = { OVERLOOK_ALLOWED_NETWORKS: '127.0.0.1/32' };

let tp: TestPlatform;
let owner: Person;
let projectExid: string;
let cameraExid: string;
let cam: Server;
let camUrl: string;
beforeAll(async () => {
  tp = await buildTestPlatform(LOCAL_CAMERAS);
  owner = await tp.person('owner');
  projectExid = (await tp.project(owner)).exid;
  cameraExid = (await tp.camera(owner, projectExid)).exid;
  // A real HTTP "camera": /ok.jpg answers a JPEG, /broken 500, /text HTML, /slow never answers in time.
  const jpeg = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#884422' } })
    .jpeg()
    .toBuffer();
  cam = createServer((req, res) => {
    if (req.url === '/ok.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
    else if (req.url === '/text') res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
    else if (req.url === '/fake.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end('not a jpeg');
    else if (req.url === '/slow') setTimeout(() => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg), 1500);
    else res.writeHead(500).end();
  });
  await new Promise<void>((r) => cam.listen(0, '127.0.0.1', r));
  camUrl = `http://127.0.0.1:${(cam.address() as AddressInfo).port}`;
});
afterAll(async () => {
  cam.closeAllConnections();
  cam.close();
  await tp.close();
});

const capture = (exid: string, payload?: unknown, headers = owner.auth) =>
  tp.app.inject({ method: 'POST', url: `/v2/cameras/${exid}/snapshots`, headers, ...(payload !== undefined ? { payload: payload as object } : {}) });

async function ipCamera(path: string): Promise<string> {
  const res = await tp.app.inject({
    method: 'POST',
    url: '/v2/cameras',
    headers: owner.auth,
    payload: { name: `IP ${path}`, project_exid: projectExid, snapshot_url: `${camUrl}${path}` },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().exid;
}

describe('access', () => {
  it('POST snapshots: camera:recordings, editor', async () => {
    await checkEndpointAccess(tp, {
      method: 'POST',
      url: (w) => `/v2/cameras/${w.cameraExid}/snapshots`,
      otherUrl: (w) => `/v2/cameras/${w.otherCameraExid}/snapshots`,
      payload: () => ({}),
      scopes: ['camera:recordings'],
      role: 'editor',
      okStatus: 201,
    });
  });
});

describe('behaviour', () => {
  it('stores a real JPEG from the simulated camera with its note, and indexes it', async () => {
    const before = Date.now();
    const res = await capture(cameraExid, { note: '  Crane delivered  ' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ camera_exid: cameraExid, note: 'Crane delivered', source: 'manual' });
    const takenAt = new Date(body.created_at);
    expect(takenAt.getTime()).toBeGreaterThanOrEqual(before - 5);
    expect(body.url).toMatch(new RegExp(`/v2/cameras/${cameraExid}/recordings/snapshots/${body.created_at.replace(/[.]/g, '\\.')}$`));

    const camera = await tp.t.db.kysely.selectFrom('cameras').select('id').where('exid', '=', cameraExid).executeTakeFirstOrThrow();
    const row = await tp.t.db.kysely
      .selectFrom('snapshots')
      .selectAll()
      .where('camera_id', '=', camera.id)
      .where('taken_at', '=', body.created_at)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      source: 'manual',
      note: 'Crane delivered',
      created_by: owner.id,
      object_key: snapshotKey(camera.id, takenAt),
      size: body.size,
    });
    const bytes = await servicesOf(tp.app).storage.getBytes(row.object_key);
    expect(bytes?.length).toBe(body.size);
    const meta = await sharp(bytes!).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 640, height: 360 });

    // The URL it hands out really serves this frame (the recordings read endpoint).
    const served = await tp.app.inject({ method: 'GET', url: new URL(body.url).pathname, headers: owner.auth });
    expect(served.statusCode, served.body.slice(0, 200)).toBe(200);
  });

  it('takes no body, an empty body, or a null-free note; two quick captures get distinct times', async () => {
    const a = await capture(cameraExid);
    expect(a.statusCode, a.body).toBe(201);
    expect(a.json().note).toBeNull();
    const b = await capture(cameraExid, {});
    expect(b.statusCode, b.body).toBe(201);
    expect(b.json().created_at).not.toBe(a.json().created_at);
  });

  it('stores frames from a real HTTP camera', async () => {
    const exid = await ipCamera('/ok.jpg');
    const res = await capture(exid, { note: 'from the mast' });
    expect(res.statusCode, res.body).toBe(201);
    const meta = await sharp(
      (await servicesOf(tp.app).storage.getBytes(snapshotKey((await servicesOf(tp.app).cameras.row(exid)).id, new Date(res.json().created_at))))!,
    ).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 16, height: 16 });
  });

  it.each([
    ['/broken', 502],
    ['/text', 502],
    ['/fake.jpg', 502],
  ])('answers %s from the camera with %i and stores nothing', async (path, status) => {
    const exid = await ipCamera(path);
    const res = await capture(exid);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().code).toBe('BAD_GATEWAY');
    const id = (await servicesOf(tp.app).cameras.row(exid)).id;
    expect(await tp.t.db.kysely.selectFrom('snapshots').select('taken_at').where('camera_id', '=', id).execute()).toEqual([]);
  });

  it('answers 502 when nothing listens at the camera address', async () => {
    const res = await tp.app.inject({
      method: 'POST',
      url: '/v2/cameras',
      headers: owner.auth,
      payload: { name: 'Gone', project_exid: projectExid, snapshot_url: 'http://127.0.0.1:1/snap.jpg' },
    });
    const out = await capture(res.json().exid);
    expect(out.statusCode).toBe(502);
    expect(out.json().message).toMatch(/camera/i);
  });

  it('answers 504 when the camera does not answer in time', async () => {
    const slow = await buildTestPlatform({ ...LOCAL_CAMERAS, OVERLOOK_CAMERA_TIMEOUT_MS: '300' });
    try {
      const boss = await slow.person('boss');
      const p = await slow.project(boss);
      const created = await slow.app.inject({
        method: 'POST',
        url: '/v2/cameras',
        headers: boss.auth,
        payload: { name: 'Slow', project_exid: p.exid, snapshot_url: `${camUrl}/slow` },
      });
      const res = await slow.app.inject({ method: 'POST', url: `/v2/cameras/${created.json().exid}/snapshots`, headers: boss.auth, payload: {} });
      expect(res.statusCode, res.body).toBe(504);
      expect(res.json().code).toBe('GATEWAY_TIMEOUT');
    } finally {
      await slow.close();
    }
  });

  it('refuses bad bodies and unknown cameras', async () => {
    expect((await capture(cameraExid, { note: 'x'.repeat(1001) })).statusCode).toBe(400);
    expect((await capture(cameraExid, { note: 5 })).statusCode).toBe(400);
    expect((await capture(cameraExid, { notes: 'typo' })).statusCode).toBe(400);
    expect((await capture('nope-nopee', {})).statusCode).toBe(404);
  });
});
