// Retention: images older than a camera's storage duration go, objects and index rows together, with
// real files on disk and real rows; cameras kept forever are untouched; a crash between deleting the
// objects and the rows heals on the next run; the recorder loop runs it periodically.
import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { SnapshotWriter } from '../../../src/platform/recordings/capture.js';
import { RetentionJob } from '../../../src/platform/recordings/retention.js';
import { RecorderLoop } from '../../../src/platform/recordings/recorder-loop.js';
import { bucketOf } from '../../../src/platform/recordings/snapshot-index.js';
import type { SnapshotIndex } from '../../../src/platform/recordings/snapshot-index-repository.js';
import type { FsObjectStore } from '../../../src/platform/storage/fs-object-store.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

const DAY = 86_400_000;
let tp: TestPlatform;
let owner: Person;
let projectExid: string;
let jpeg: Buffer;
let writer: SnapshotWriter;

beforeAll(async () => {
  tp = await buildTestPlatform();
  owner = await tp.person('owner');
  projectExid = (await tp.project(owner)).exid;
  jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#aa3300' } })
    .jpeg()
    .toBuffer();
  writer = new SnapshotWriter(servicesOf(tp.app).storage, servicesOf(tp.app).snapshotIndex);
});
afterAll(async () => tp.close());

const fs = () => servicesOf(tp.app).storage as FsObjectStore;

async function camera(name: string, settings: Record<string, unknown>): Promise<string> {
  const c = await tp.camera(owner, projectExid, name);
  const res = await tp.app.inject({ method: 'PUT', url: `/v2/cameras/${c.exid}/cloud-recordings`, headers: owner.auth, payload: settings });
  expect(res.statusCode, res.body).toBe(200);
  return (await servicesOf(tp.app).cameras.row(c.exid)).id;
}

/** Stores frames taken `ago` ms before `now`; returns their object keys. */
async function frames(cameraId: string, now: number, agos: number[]): Promise<string[]> {
  const keys: string[] = [];
  for (const ago of agos) keys.push((await writer.store(cameraId, { jpeg, takenAt: new Date(now - ago) }, { source: 'schedule' })).objectKey);
  return keys;
}

const rowsOf = async (cameraId: string) =>
  (await tp.t.db.kysely.selectFrom('snapshots').select('taken_at').where('camera_id', '=', cameraId).orderBy('taken_at').execute()).map((r) => r.taken_at);
const bucketCount = async (cameraId: string, at: number) =>
  (await tp.t.db.kysely.selectFrom('snapshot_buckets').select('count').where('camera_id', '=', cameraId).where('bucket', '=', bucketOf(at)).executeTakeFirst())
    ?.count ?? 0;

describe('retention', () => {
  it('removes expired files and rows (and their counts), keeps the rest and cameras kept forever', async () => {
    const now = Date.now();
    const limited = await camera('Two days', { storage_duration: 2 }); // status off: retention still applies
    const forever = await camera('Forever', { status: 'on', storage_duration: -1 });
    const oldKeys = await frames(limited, now, [5 * DAY, 3 * DAY, 2 * DAY + 60_000]);
    const newKeys = await frames(limited, now, [2 * DAY - 60_000, DAY, 1000]);
    const keptKeys = await frames(forever, now, [400 * DAY, 3 * DAY]);
    for (const k of [...oldKeys, ...newKeys, ...keptKeys]) expect(existsSync(fs().pathOf(k))).toBe(true);
    expect(await bucketCount(limited, now - 5 * DAY)).toBe(1);

    const result = await new RetentionJob(tp.t.db, servicesOf(tp.app).storage, servicesOf(tp.app).snapshotIndex).run(new Date(now));
    expect(result.removed).toBe(3);

    for (const k of oldKeys) expect(existsSync(fs().pathOf(k)), k).toBe(false);
    for (const k of [...newKeys, ...keptKeys]) expect(existsSync(fs().pathOf(k)), k).toBe(true);
    expect(await rowsOf(limited)).toEqual([now - 2 * DAY + 60_000, now - DAY, now - 1000].map((t) => new Date(t).toISOString()));
    expect(await rowsOf(forever)).toHaveLength(2);
    expect(await bucketCount(limited, now - 5 * DAY)).toBe(0);
    // The read side agrees: the oldest frame is now the first one kept.
    expect((await servicesOf(tp.app).snapshotIndex.oldest(limited))!.takenAt).toBe(new Date(now - 2 * DAY + 60_000).toISOString());
  });

  it('works through more than one batch', async () => {
    const now = Date.now();
    const cam = await camera('Busy', { storage_duration: 1 });
    const keys = await frames(
      cam,
      now,
      Array.from({ length: 520 }, (_, i) => 2 * DAY + i * 1000),
    );
    await frames(cam, now, [5000]);
    const job = new RetentionJob(tp.t.db, servicesOf(tp.app).storage, servicesOf(tp.app).snapshotIndex);
    expect(await job.runCamera(cam, new Date(now - DAY))).toBe(520);
    expect(await rowsOf(cam)).toHaveLength(1);
    expect(keys.some((k) => existsSync(fs().pathOf(k)))).toBe(false);
  });

  it('a crash between deleting objects and rows leaves expired rows that the next run removes; nothing orphaned', async () => {
    const now = Date.now();
    const cam = await camera('Crashy', { storage_duration: 1 });
    const keys = await frames(cam, now, [3 * DAY, 2 * DAY]);
    const real = servicesOf(tp.app).snapshotIndex;
    const crashing = Object.create(real) as SnapshotIndex;
    crashing.remove = async () => {
      throw new Error('process died here');
    };
    const job = new RetentionJob(tp.t.db, servicesOf(tp.app).storage, crashing);
    await expect(job.runCamera(cam, new Date(now - DAY))).rejects.toThrow('process died here');
    // Objects gone, rows still there (and still expired).
    for (const k of keys) expect(existsSync(fs().pathOf(k))).toBe(false);
    expect(await rowsOf(cam)).toHaveLength(2);

    const healed = new RetentionJob(tp.t.db, servicesOf(tp.app).storage, real);
    expect(await healed.runCamera(cam, new Date(now - DAY))).toBe(2);
    expect(await rowsOf(cam)).toEqual([]);
  });

  it('runs from the recorder loop at start and then periodically', async () => {
    const now = Date.now();
    const cam = await camera('Looped', { storage_duration: 1 });
    await frames(cam, now, [3 * DAY]);
    const p = servicesOf(tp.app);
    const loop = new RecorderLoop(
      { db: p.db, connections: p.connections, writer, retention: new RetentionJob(p.db, p.storage, p.snapshotIndex) },
      { retentionEveryMs: 10_000 },
    );
    await loop.tick(now);
    await loop.idle();
    expect(await rowsOf(cam)).toEqual([]);
    await frames(cam, now, [4 * DAY]);
    await loop.tick(now + 5_000);
    await loop.idle();
    expect(await rowsOf(cam)).toHaveLength(1); // not due yet
    await loop.tick(now + 10_000);
    await loop.idle();
    expect(await rowsOf(cam)).toEqual([]);
  });
});
