// Uploads to an S3-compatible storage (s3rver on 127.0.0.1, port 0): a file device records one-second
// segments and every segment and snapshot lands in the bucket under its key, with the recorded bytes;
// s3rver stopped mid-recording and started again, and a recorder restarted with its queue full, lose
// nothing and store nothing twice: every segment and every snapshot slot, in order, arrives exactly once.
import { createHash } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRecorderApp } from '../../../src/recorder/app.js';
import { openRecorderDb } from '../../../src/recorder/db/recorder-db.js';
import { buildTestRecorder, eventually, type TestRecorder } from '../../helpers/recorder.js';

const BUCKET = 'site-footage';
let r: TestRecorder;
let admin: { authorization: string };
let s3dir: string;
let port: number;
let server: S3rver | null = null;
let client: S3Client;
/** Every PutObject s3rver stored, by key, in order. */
const puts: string[] = [];

async function startS3(): Promise<void> {
  server = new S3rver({ address: '127.0.0.1', port, silent: true, directory: s3dir, configureBuckets: [{ name: BUCKET }] });
  (server as unknown as EventEmitter).on('event', (e: { Records: { eventName: string; s3: { object: { key: string } } }[] }) => {
    for (const rec of e.Records) if (rec.eventName.startsWith('ObjectCreated')) puts.push(decodeURIComponent(rec.s3.object.key));
  });
  port = (await server.run()).port;
}
async function stopS3(): Promise<void> {
  await server?.close();
  server = null;
}

async function bucket(): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, ContinuationToken: token }));
    for (const o of page.Contents ?? []) out.set(o.Key!, o.Size!);
    token = page.NextContinuationToken;
  } while (token);
  return out;
}
const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');
async function objectMd5(key: string): Promise<string> {
  const res = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return md5(await res.Body!.transformToByteArray());
}

const storageState = async (id: string) => (await r.app.inject({ method: 'GET', url: `/api/remote_storages/${id}`, headers: admin })).json();
const segmentsOf = (deviceId: string) => r.db.kysely.selectFrom('segments').selectAll().where('device_id', '=', deviceId).orderBy('start_date').execute();
const keyOf = (s: { device_id: string; start_date: string }) => {
  const start = new Date(s.start_date);
  const hour = start.toISOString().slice(0, 13).replace(/[-T]/g, '/');
  return `${s.device_id}/main/${hour}/${start.getTime() * 1000}.ts`;
};

/** Every indexed segment of the device is in the bucket, byte for byte, and no other segment of it. */
async function expectSegmentsStored(deviceId: string, root: string): Promise<string[]> {
  const segments = await segmentsOf(deviceId);
  const objects = await bucket();
  const keys = segments.map(keyOf);
  expect([...objects.keys()].filter((k) => k.startsWith(`${deviceId}/main/`)).sort()).toEqual([...keys].sort());
  for (const s of segments) expect(await objectMd5(keyOf(s)), s.path).toBe(md5(readFileSync(join(root, s.path))));
  return keys;
}

beforeAll(async () => {
  s3dir = mkdtempSync(join(tmpdir(), 'overlook-s3-uploads-'));
  port = 0;
  await startS3();
  client = new S3Client({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  // Retries wait at most 2 s here, so the catch-up after an outage comes quickly.
  r = await buildTestRecorder({ OVERLOOK_RECORDER_UPLOAD_RETRY_MAX_SECONDS: '2' });
  admin = r.bearer(r.adminToken);
});
afterAll(async () => {
  await r?.close();
  client?.destroy();
  await stopS3();
  rmSync(s3dir, { recursive: true, force: true });
});

describe('uploads to an S3-compatible storage', () => {
  let storageId: string;
  let deviceId: string;

  it('every segment and a snapshot at each interval arrive, through an outage of the storage, each once', async () => {
    const storage = await r.app.inject({
      method: 'POST',
      url: '/api/remote_storages',
      headers: admin,
      payload: {
        name: 'Bucket',
        type: 's3',
        url: `http://127.0.0.1:${port}`,
        config: { bucket: BUCKET, region: 'us-east-1', access_key_id: 'S3RVER', secret_access_key: 'S3RVER', path_style: true, snapshot_interval_seconds: 2 },
      },
    });
    expect(storage.statusCode, storage.body).toBe(201);
    storageId = storage.json().id;
    expect(storage.json().uploads).toEqual({ pending: 0, last_success_at: null, last_error: null, last_error_at: null });
    const device = await r.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: admin,
      payload: { name: 'Gate', type: 'file', stream_config: { path: r.video } },
    });
    expect(device.statusCode, device.body).toBe(201);
    deviceId = device.json().id;

    const count = async (what: RegExp) => [...(await bucket()).keys()].filter((k) => what.test(k)).length;
    const segmentKeys = new RegExp(`^${deviceId}/main/`);
    const snapshotKeys = new RegExp(`^${deviceId}/snapshots/\\d{4}/\\d\\d/\\d\\d/\\d\\d/\\d+\\.jpg$`);
    await eventually(async () => (await count(segmentKeys)) >= 3 && (await count(snapshotKeys)) >= 1, 30_000, 'segments and a snapshot in the bucket');
    expect((await storageState(storageId)).uploads.last_success_at).not.toBeNull();

    // The storage goes away mid-recording: the queue grows and the storage shows the error.
    await stopS3();
    const outageStart = Date.now();
    await eventually(
      async () => {
        const { uploads } = await storageState(storageId);
        const snapshotsQueued = await r.db.kysely.selectFrom('uploads').select('id').where('kind', '=', 'snapshot').execute();
        return uploads.pending >= 4 && snapshotsQueued.length >= 3 && uploads.last_error !== null && Date.parse(uploads.last_error_at) > outageStart;
      },
      30_000,
      'a queue of segments and snapshot slots while the storage is down',
    );
    const during = (await storageState(storageId)).uploads;
    expect(during.last_error).toMatch(/S3|ECONNREFUSED|socket/i);
    const outageEnd = Date.now();

    // Back: the queue drains. The device stops first, so the set of segments is final.
    await startS3();
    const stopped = await r.app.inject({
      method: 'PUT',
      url: `/api/devices/${deviceId}`,
      headers: admin,
      payload: { storage_config: { recording_mode: 'never' } },
    });
    expect(stopped.statusCode, stopped.body).toBe(200);
    await eventually(async () => (await storageState(storageId)).uploads.pending === 0, 60_000, 'the queue drained');

    const keys = await expectSegmentsStored(deviceId, r.config.storageRoot);
    // No hole in the recording: each segment starts where the one before it ended.
    const segments = await segmentsOf(deviceId);
    for (let i = 1; i < segments.length; i++)
      expect(Date.parse(segments[i]!.start_date) - Date.parse(segments[i - 1]!.end_date), segments[i]!.path).toBeLessThanOrEqual(100);
    const snapshots = [...(await bucket()).keys()].filter((k) => snapshotKeys.test(k));
    const slots = snapshots.map((k) => Number(/\/(\d+)\.jpg$/.exec(k)![1]) / 1000).sort((a, b) => a - b);
    // One object per two-second slot (µs in the key), every slot from the first to the last, through
    // the outage, whose slots arrived afterwards.
    for (const slot of slots) expect(slot % 2000).toBe(0);
    expect(slots.map((t) => (t - slots[0]!) / 2000)).toEqual(slots.map((_t, i) => i));
    expect(slots.filter((t) => t > outageStart && t < outageEnd).length).toBeGreaterThanOrEqual(Math.floor((outageEnd - outageStart) / 2000) - 1);
    for (const k of snapshots) {
      const res = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: k }));
      expect(res.ContentType).toBe('image/jpeg');
      expect(Buffer.from(await res.Body!.transformToByteArray()).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    }
    // Stored exactly once each, and nothing stored that is not a recorded segment or a slot.
    const sentOf = new Map<string, number>();
    for (const k of puts) sentOf.set(k, (sentOf.get(k) ?? 0) + 1);
    expect([...sentOf].filter(([, n]) => n !== 1)).toEqual([]);
    expect([...sentOf.keys()].sort()).toEqual([...keys, ...snapshots].sort());
    const seg = await r.db.kysely.selectFrom('segments').selectAll().where('device_id', '=', deviceId).executeTakeFirstOrThrow();
    const head = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: keyOf(seg) }));
    expect(head.ContentType).toBe('video/mp2t');
    expect(head.Metadata).toMatchObject({ 'device-id': deviceId, kind: 'segment', 'start-date': seg.start_date, 'end-date': seg.end_date });
  });

  it('a recorder restarted with its queue full sends each object once', async () => {
    await stopS3();
    const before = new Set((await segmentsOf(deviceId)).map(keyOf));
    const resumed = await r.app.inject({
      method: 'PUT',
      url: `/api/devices/${deviceId}`,
      headers: admin,
      payload: { storage_config: { recording_mode: 'always' } },
    });
    expect(resumed.statusCode).toBe(200);
    await eventually(async () => (await storageState(storageId)).uploads.pending >= 3, 30_000, 'segments queued while the storage is down');
    // The recorder stops (its last segment indexed and queued) and starts again on the same database.
    await r.app.close();
    await r.db.close();
    const db = await openRecorderDb(r.config.dataDir);
    const app = await buildRecorderApp({ config: r.config, db, logger: false });
    await app.ready();
    const dir = r.dir;
    r = {
      ...r,
      app,
      db,
      async close() {
        await app.close();
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
    const queued = await r.db.kysely.selectFrom('uploads').select('object_key').where('storage_id', '=', storageId).execute();
    expect(queued.length).toBeGreaterThanOrEqual(3);

    const putsBefore = puts.length;
    await startS3();
    await eventually(async () => (await storageState(storageId)).uploads.pending === 0, 60_000, 'the queue drained after the restart');
    const keys = await expectSegmentsStored(deviceId, r.config.storageRoot);
    const fresh = keys.filter((k) => !before.has(k));
    expect(fresh.length).toBeGreaterThanOrEqual(3);
    // s3rver was down the whole time they were queued: each was stored exactly once.
    const sent = puts.slice(putsBefore);
    for (const { object_key } of queued)
      expect(
        sent.filter((k) => k === object_key),
        object_key,
      ).toHaveLength(1);
  });
});
