// The index rows of frames read by exact time are kept in memory (`recordings.index-rows`,
// docs/architecture.md, Caches), and every removal forgets them: a frame removed by retention, with its
// camera or with its project is never served again, and a frame stored in a span asked for before shows.
// Read as a client does: an API key, Accept: image/jpeg.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import { RetentionJob } from '../../../src/platform/recordings/retention.js';
import { snapshotKey } from '../../../src/platform/recordings/snapshot-index.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';

let tp: TestPlatform;
let owner: Person;

/** A tiny "JPEG": the endpoint serves the stored bytes as they are. */
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 0xff, 0xd9]);

interface Site {
  projectExid: string;
  exid: string;
  id: string;
  key: { 'x-access-key': string };
}

async function site(): Promise<Site> {
  const projectExid = (await tp.project(owner, 'Cached site')).exid;
  const exid = (await tp.camera(owner, projectExid, 'Cached camera')).exid;
  const { id } = await servicesOf(tp.app).cameras.row(exid);
  const key = (await tp.key(owner, { projects: [projectExid], scopes: ['camera:recordings'] })).headers;
  return { projectExid, exid, id, key };
}

/** Stores a frame for real: the bytes in the object store, the row in the index. */
async function store(cameraId: string, takenAt: string): Promise<void> {
  const at = new Date(takenAt);
  const objectKey = snapshotKey(cameraId, at);
  await servicesOf(tp.app).storage.put(objectKey, JPEG, 'image/jpeg');
  await servicesOf(tp.app).snapshotIndex.add({ cameraId, takenAt: at, objectKey, size: JPEG.length, source: 'schedule' });
}

/** The frame the endpoint serves for `timestamp`: its time, or the status when it serves none. */
async function frameAt(s: Site, timestamp: string): Promise<string | number> {
  const res = await tp.app.inject({
    method: 'GET',
    url: `/v2/cameras/${s.exid}/recordings/snapshots/${timestamp}`,
    headers: { ...s.key, accept: 'image/jpeg' },
  });
  if (res.statusCode !== 200) return res.statusCode;
  expect(res.rawPayload.equals(JPEG)).toBe(true);
  return res.headers['x-snapshot-date'] as string;
}

/** Removes a row behind the index's back (nothing forgotten), as another node's write looks before its forget arrives. */
const dropRowQuietly = (cameraId: string, takenAt: string) =>
  tp.t.db.kysely.deleteFrom('snapshots').where('camera_id', '=', cameraId).where('taken_at', '=', takenAt).execute();

beforeAll(async () => {
  tp = await buildTestPlatform();
  owner = await tp.person('owner');
});
afterAll(async () => tp.close());

describe('frames read by exact time', () => {
  it('are answered from memory once found (so the forgets below are what keeps removed frames away)', async () => {
    const s = await site();
    const t = '2026-03-02T08:00:00.250Z';
    await store(s.id, t);
    expect(await frameAt(s, t)).toBe(t);
    await dropRowQuietly(s.id, t);
    expect(await frameAt(s, t)).toBe(t);
    // Not what was never found: a miss is asked of the database every time.
    expect(await frameAt(s, '2026-03-02T08:00:00.251Z')).toBe(404);
  });

  it('a frame removed by retention is not served afterwards', async () => {
    const s = await site();
    const [old, kept] = ['2026-03-02T08:00:00.250Z', '2026-03-09T08:00:00.000Z'];
    await store(s.id, old);
    await store(s.id, kept);
    expect(await frameAt(s, old)).toBe(old);
    expect(await frameAt(s, kept)).toBe(kept);
    const p = servicesOf(tp.app);
    expect(await new RetentionJob(p.db, p.storage, p.snapshotIndex).runCamera(s.id, new Date('2026-03-05T00:00:00Z'))).toBe(1);
    expect(await frameAt(s, old)).toBe(404);
    expect(await frameAt(s, '2026-03-02T08:00:00Z')).toBe(404);
    expect(await frameAt(s, kept)).toBe(kept);
  });

  it('a frame removed from the index is not served afterwards, whichever span found it', async () => {
    const s = await site();
    const t = '2026-03-02T08:00:07.000Z';
    await store(s.id, t);
    expect(await frameAt(s, '2026-03-02T08:00:07Z')).toBe(t); // found at the start of its second: kept
    expect(await frameAt(s, t)).toBe(t);
    await servicesOf(tp.app).snapshotIndex.remove(s.id, [t]);
    expect(await frameAt(s, '2026-03-02T08:00:07Z')).toBe(404);
    expect(await frameAt(s, t)).toBe(404);
  });

  it('a frame stored in a span asked for before is found there', async () => {
    const s = await site();
    await store(s.id, '2026-03-02T08:00:05.500Z');
    expect(await frameAt(s, '2026-03-02T08:00:05Z')).toBe('2026-03-02T08:00:05.500Z');
    expect(await frameAt(s, '2026-03-02T08:00:05.500Z')).toBe('2026-03-02T08:00:05.500Z');
    // An earlier frame of the same second is now the first of it.
    await store(s.id, '2026-03-02T08:00:05.200Z');
    expect(await frameAt(s, '2026-03-02T08:00:05Z')).toBe('2026-03-02T08:00:05.200Z');
    expect(await frameAt(s, '2026-03-02T08:00:05.500Z')).toBe('2026-03-02T08:00:05.500Z');
    // A frame at the very millisecond that was not found before.
    expect(await frameAt(s, '2026-03-02T08:00:05.000Z')).toBe(404);
    await store(s.id, '2026-03-02T08:00:05.000Z');
    expect(await frameAt(s, '2026-03-02T08:00:05.000Z')).toBe('2026-03-02T08:00:05.000Z');
    expect(await frameAt(s, '2026-03-02T08:00:05Z')).toBe('2026-03-02T08:00:05.000Z');
  });

  it('a frame captured now is served at the time the capture answered with', async () => {
    const s = await site();
    const shot = await tp.app.inject({ method: 'POST', url: `/v2/cameras/${s.exid}/snapshots`, headers: owner.auth, payload: {} });
    expect(shot.statusCode, shot.body).toBe(201);
    const { created_at } = shot.json();
    const res = await tp.app.inject({
      method: 'GET',
      url: `/v2/cameras/${s.exid}/recordings/snapshots/${created_at}`,
      headers: { ...s.key, accept: 'image/jpeg' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-snapshot-date']).toBe(created_at);
  });
});

describe('frames whose rows go by cascade', () => {
  // A capture that lands after the recordings' deletion hook has removed the camera's frames (the
  // recorder may still be at work), read once, so its row is in memory when the cascade removes it.
  let lateFor: string | null = null;
  const late = '2026-03-02T09:00:00.000Z';
  beforeAll(() => {
    servicesOf(tp.app).deletionHooks.onCameraDelete('a late capture (test)', async (camera) => {
      if (camera.id !== lateFor) return;
      await store(camera.id, late);
      expect((await servicesOf(tp.app).snapshotIndex.firstIn(camera.id, late, '2026-03-02T09:00:01.000Z'))?.takenAt).toBe(late);
    });
  });

  const firstOfSecond = (cameraId: string, t: string) => servicesOf(tp.app).snapshotIndex.firstIn(cameraId, t, new Date(Date.parse(t) + 1000).toISOString());

  it.each([
    ['camera', (s: Site) => `/v2/cameras/${s.exid}`],
    ['project', (s: Site) => `/v2/projects/${s.projectExid}`],
  ])('a deleted %s’s frames are not found, those stored after its deletion hooks ran neither', async (_what, deleteUrl) => {
    const s = await site();
    const t = '2026-03-02T08:00:00.000Z';
    await store(s.id, t);
    expect(await frameAt(s, t)).toBe(t);
    lateFor = s.id;
    const del = await tp.app.inject({ method: 'DELETE', url: deleteUrl(s), headers: owner.auth });
    expect(del.statusCode, del.body).toBe(204);
    expect(await frameAt(s, t)).toBeTypeOf('number'); // refused: the key reaches no such camera
    expect(await firstOfSecond(s.id, t)).toBeNull();
    expect(await firstOfSecond(s.id, late)).toBeNull();
  });
});
