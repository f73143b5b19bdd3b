// Real cameras through their protocols: JPEG snapshots behind digest and basic authentication, the
// snapshot URI found over ONVIF when no snapshot URL is configured, and health reflecting those checks.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { startFakeCamera, type FakeCamera } from '../../fakes/fake-camera.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

/** The fake cameras listen on 127.0.0.1: opted in as a site's LAN would be (docs/security.md, Outbound connections). */
const LOCAL_CAMERAS = { OVERLOOK_ALLOWED_NETWORKS: '127.0.0.1/32' };

let tp: TestPlatform;
let digestCam: FakeCamera;
let basicCam: FakeCamera;
let owner: Person;
let projectExid: string;
beforeAll(async () => {
  tp = await buildTestPlatform({ ...LOCAL_CAMERAS, OVERLOOK_CAMERA_TIMEOUT_MS: '2000' });
  digestCam = await startFakeCamera({ username: 'admin', password: 'dig3st' });
  basicCam = await startFakeCamera({ username: 'viewer', password: 'b4sic', snapshotAuth: 'basic' });
  owner = await tp.person('ipcam-owner');
  projectExid = (await tp.project(owner, 'IP cameras')).exid;
});
afterAll(async () => {
  await digestCam.close();
  await basicCam.close();
  await tp.close();
});

async function addCamera(body: object): Promise<string> {
  const res = await tp.app.inject({
    method: 'POST',
    url: '/v2/cameras',
    headers: owner.auth,
    payload: { name: 'Real cam', project_exid: projectExid, ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().exid;
}
const health = async (exid: string) => (await tp.app.inject({ method: 'GET', url: `/v2/cameras/${exid}/health`, headers: owner.auth })).json();
const snapshot = async (exid: string) =>
  servicesOf(tp.app)
    .connections.connect(await servicesOf(tp.app).cameras.row(exid))
    .snapshot();

describe('IP camera protocols', () => {
  it('fetches a JPEG behind digest authentication, and health says online', async () => {
    const exid = await addCamera({ snapshot_url: digestCam.snapshotUrl, username: 'admin', password: 'dig3st' });
    const before = digestCam.state.snapshots;
    const shot = await snapshot(exid);
    expect(shot.jpeg.equals(digestCam.jpeg)).toBe(true);
    expect((await sharp(shot.jpeg).metadata()).format).toBe('jpeg');
    expect(await health(exid)).toMatchObject({ status: 'online', reason: null });
    expect(digestCam.state.snapshots).toBe(before + 2);
    expect(digestCam.state.authFailures).toBe(0);
  });

  it('a wrong digest password or none is offline with the reason, and the snapshot fails', async () => {
    const wrong = await addCamera({ snapshot_url: digestCam.snapshotUrl, username: 'admin', password: 'nope' });
    const h = await health(wrong);
    expect(h.status).toBe('offline');
    expect(h.reason).toContain('401');
    expect(digestCam.state.authFailures).toBeGreaterThan(0);
    await expect(snapshot(wrong)).rejects.toThrow(/401/);
    const none = await addCamera({ snapshot_url: digestCam.snapshotUrl });
    expect((await health(none)).reason).toContain('username and password');
  });

  it('answers a Basic challenge with basic credentials (never sent unasked)', async () => {
    const exid = await addCamera({ snapshot_url: basicCam.snapshotUrl, username: 'viewer', password: 'b4sic' });
    expect((await snapshot(exid)).jpeg.equals(basicCam.jpeg)).toBe(true);
    expect(await health(exid)).toMatchObject({ status: 'online' });
    const wrong = await addCamera({ snapshot_url: basicCam.snapshotUrl, username: 'viewer', password: 'bad' });
    expect((await health(wrong)).status).toBe('offline');
  });

  it('without a snapshot URL, finds it over ONVIF (GetSnapshotUri) with WS-Security credentials', async () => {
    const exid = await addCamera({ onvif_url: digestCam.onvifUrl, username: 'admin', password: 'dig3st' });
    const before = digestCam.state.operations.length;
    expect(await health(exid)).toMatchObject({ status: 'online', reason: null });
    expect(digestCam.state.operations.slice(before)).toContain('GetSnapshotUri');
    expect((await sharp((await snapshot(exid)).jpeg).metadata()).width).toBe(64);

    const wrong = await addCamera({ onvif_url: digestCam.onvifUrl, username: 'admin', password: 'wrong' });
    const h = await health(wrong);
    expect(h.status).toBe('offline');
    expect(h.reason).toMatch(/not authorized/i);
  });

  it('with both URLs, health also checks the ONVIF service', async () => {
    const exid = await addCamera({
      snapshot_url: digestCam.snapshotUrl,
      onvif_url: `${digestCam.url}/onvif/device_service`,
      username: 'admin',
      password: 'dig3st',
    });
    expect((await health(exid)).status).toBe('online');
    const broken = await addCamera({
      snapshot_url: digestCam.snapshotUrl,
      onvif_url: `http://127.0.0.1:1/onvif/device_service`,
      username: 'admin',
      password: 'dig3st',
    });
    const h = await health(broken);
    expect(h.status).toBe('offline');
    expect(h.reason).toMatch(/^ONVIF: /);
  });

  it('rejects a real camera with no address at all', async () => {
    const res = await tp.app.inject({
      method: 'POST',
      url: '/v2/cameras',
      headers: owner.auth,
      payload: { name: 'Bare', project_exid: projectExid, username: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
  });
});
