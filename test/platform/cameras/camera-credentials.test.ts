// A camera's password is sealed in the database (never in clear in the row), opened for the connection
// to the camera, and passwords stored before sealing are sealed at start-up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { startFakeCamera, type FakeCamera } from '../../fakes/fake-camera.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import { cameraByExid } from '../../../src/platform/cameras/cameras-repository.js';
import { sealStoredCameraPasswords } from '../../../src/platform/cameras/seal-stored-camera-passwords.js';

const PASSWORD = 'dig3st-Secret-pw';

let tp: TestPlatform;
let cam: FakeCamera;
let owner: Person;
let projectExid: string;
beforeAll(async () => {
  tp = await buildTestPlatform({ OVERLOOK_ALLOWED_NETWORKS: '127.0.0.1/32', OVERLOOK_CAMERA_TIMEOUT_MS: '2000' });
  cam = await startFakeCamera({ username: 'admin', password: PASSWORD });
  owner = await tp.person('sealed-cam-owner');
  projectExid = (await tp.project(owner, 'Sealed cameras')).exid;
});
afterAll(async () => {
  await cam.close();
  await tp.close();
});

const storedConnection = async (exid: string) =>
  (await tp.t.db.kysely.selectFrom('cameras').select('connection').where('exid', '=', exid).executeTakeFirstOrThrow()).connection;
const allCamerasText = async () => JSON.stringify(await tp.t.db.kysely.selectFrom('cameras').selectAll().execute());
const snapshot = async (exid: string) =>
  servicesOf(tp.app)
    .connections.connect(await servicesOf(tp.app).cameras.row(exid))
    .snapshot();

async function addCamera(name: string): Promise<string> {
  const res = await tp.app.inject({
    method: 'POST',
    url: '/v2/cameras',
    headers: owner.auth,
    payload: { name, project_exid: projectExid, snapshot_url: cam.snapshotUrl, username: 'admin', password: PASSWORD },
  });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.body).not.toContain(PASSWORD);
  return res.json().exid;
}

describe('camera passwords at rest', () => {
  it('keeps the password sealed in the row and still connects with it; the API never shows it', async () => {
    const exid = await addCamera('Sealed cam');
    const stored = JSON.parse(await storedConnection(exid));
    expect(stored.password).toBeUndefined();
    expect(stored.password_sealed).toMatch(/^v1\./);
    expect(stored.username).toBe('admin');
    expect(await allCamerasText()).not.toContain(PASSWORD);

    const shot = await snapshot(exid);
    expect(shot.jpeg.equals(cam.jpeg)).toBe(true);
    expect(cam.state.authFailures).toBe(0);

    const settings = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${exid}/settings`, headers: owner.auth });
    expect(settings.statusCode).toBe(200);
    expect(settings.body).not.toContain(PASSWORD);
    expect(settings.body).not.toContain('password_sealed');
    expect(settings.json().connection).toMatchObject({ username: 'admin', password_set: true });
  });

  it('a sealed password copied to another camera’s row does not open', async () => {
    const a = await addCamera('Sealed A');
    const b = await addCamera('Sealed B');
    await tp.t.db.kysely
      .updateTable('cameras')
      .set({ connection: await storedConnection(a) })
      .where('exid', '=', b)
      .execute();
    await expect(cameraByExid(tp.t.db, b)).rejects.toThrow();
    expect((await cameraByExid(tp.t.db, a))?.connection).toContain(PASSWORD);
  });

  it('seals at start-up a password stored in clear before, idempotently', async () => {
    const exid = await addCamera('Legacy cam');
    const { password_sealed: _sealed, ...rest } = JSON.parse(await storedConnection(exid));
    await tp.t.db.kysely
      .updateTable('cameras')
      .set({ connection: JSON.stringify({ ...rest, password: PASSWORD }) })
      .where('exid', '=', exid)
      .execute();
    expect(await allCamerasText()).toContain(PASSWORD);

    expect(await sealStoredCameraPasswords(tp.t.db)).toBe(1);
    expect(await sealStoredCameraPasswords(tp.t.db)).toBe(0);
    expect(await allCamerasText()).not.toContain(PASSWORD);
    const shot = await snapshot(exid);
    expect(shot.jpeg.equals(cam.jpeg)).toBe(true);
  });
});
