// The S3-compatible object store against a real local S3 server (s3rver on 127.0.0.1, port 0, a temp
// dir): put/get/getBytes/delete/keys, missing keys, bad keys; and the recorder loop recording into S3.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import sharp from 'sharp';
import type { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { S3ObjectStore } from '../../../src/platform/storage/s3-object-store.js';
import { buildTestPlatform } from '../../helpers/platform.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

const BUCKET = 'overlook-test';
let server: S3rver;
let dir: string;
let endpoint: string;
let store: S3ObjectStore;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'overlook-s3-'));
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: BUCKET }] });
  const addr = await server.run();
  endpoint = `http://127.0.0.1:${addr.port}`;
  store = new S3ObjectStore({ endpoint, bucket: BUCKET, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });
});
afterAll(async () => {
  store.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const text = async (body: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks).toString();
};

describe('S3ObjectStore', () => {
  it('puts, gets (stream and bytes) and deletes objects', async () => {
    const jpeg = await sharp({ create: { width: 10, height: 6, channels: 3, background: '#123456' } })
      .jpeg()
      .toBuffer();
    await store.put('cameras/c1/snapshots/2026/11/23/05/00_00_000.jpg', jpeg, 'image/jpeg');
    await store.put('notes/a.json', Buffer.from('{"a":1}'), 'application/json');

    const got = await store.get('notes/a.json');
    expect(got).toMatchObject({ size: 7, contentType: 'application/json' });
    expect(await text(got!.body)).toBe('{"a":1}');

    const bytes = await store.getBytes('cameras/c1/snapshots/2026/11/23/05/00_00_000.jpg');
    expect(bytes!.equals(jpeg)).toBe(true);
    expect(await sharp(bytes!).metadata()).toMatchObject({ format: 'jpeg', width: 10, height: 6 });

    await store.put('notes/a.json', Buffer.from('{"a":2}'), 'application/json');
    expect((await store.getBytes('notes/a.json'))!.toString()).toBe('{"a":2}');

    await store.delete(['notes/a.json', 'cameras/c1/snapshots/2026/11/23/05/00_00_000.jpg', 'never/was.jpg']);
    expect(await store.get('notes/a.json')).toBeNull();
    expect(await store.getBytes('cameras/c1/snapshots/2026/11/23/05/00_00_000.jpg')).toBeNull();
  });

  it('answers null for missing keys and ignores deleting them', async () => {
    expect(await store.get('missing/key.jpg')).toBeNull();
    expect(await store.getBytes('missing/key.jpg')).toBeNull();
    await expect(store.delete(['missing/key.jpg'])).resolves.toBeUndefined();
    await expect(store.delete([])).resolves.toBeUndefined();
  });

  it('deletes more than one batch of keys', async () => {
    const keys = Array.from({ length: 1005 }, (_, i) => `many/${i}.bin`);
    for (const k of keys.slice(0, 3).concat(keys.slice(-3))) await store.put(k, Buffer.from(k), 'application/octet-stream');
    await store.delete(keys);
    for (const k of keys.slice(0, 3).concat(keys.slice(-3))) expect(await store.getBytes(k)).toBeNull();
  });

  it('lists every key', async () => {
    const keys = ['list/a.jpg', 'list/b/c.jpg', 'list/d.json'];
    for (const k of keys) await store.put(k, Buffer.from(k), 'application/octet-stream');
    const listed: string[] = [];
    for await (const k of store.keys()) if (k.startsWith('list/')) listed.push(k);
    expect(listed.sort()).toEqual(keys);
    await store.delete(keys);
  });

  // s3rver fails every request with a continuation token on Node 24 (its token cipher is gone from
  // OpenSSL 3), so the pages are S3's answers played back.
  it('lists page after page, each asked with the token of the one before', async () => {
    const paged = new S3ObjectStore({ endpoint, bucket: BUCKET, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });
    const pages = [
      { Contents: [{ Key: 'a/1.jpg' }, { Key: 'a/2.jpg' }], IsTruncated: true, NextContinuationToken: 't1' },
      { Contents: [{ Key: 'b/3.jpg' }], IsTruncated: true, NextContinuationToken: 't2' },
      { Contents: [{ Key: 'c/4.jpg' }], IsTruncated: false },
    ];
    const tokens: (string | undefined)[] = [];
    const send = vi.spyOn(paged.client, 'send').mockImplementation((async (cmd: ListObjectsV2Command) => {
      tokens.push(cmd.input.ContinuationToken);
      return pages[tokens.length - 1];
    }) as never);
    try {
      const listed: string[] = [];
      for await (const k of paged.keys(2)) listed.push(k);
      expect(listed).toEqual(['a/1.jpg', 'a/2.jpg', 'b/3.jpg', 'c/4.jpg']);
      expect(tokens).toEqual([undefined, 't1', 't2']);
      expect(send).toHaveBeenCalledTimes(3);
    } finally {
      paged.close();
    }
  });

  it('refuses keys that could escape (same rule as the filesystem store)', async () => {
    await expect(store.put('../etc/passwd', Buffer.from('x'), 'text/plain')).rejects.toThrow(/bad object key/);
    await expect(store.get('/abs')).rejects.toThrow(/bad object key/);
  });

  it('fails loudly for a bucket that does not exist', async () => {
    const wrong = new S3ObjectStore({ endpoint, bucket: 'no-such-bucket', region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });
    try {
      await expect(wrong.put('a/b.jpg', Buffer.from('x'), 'image/jpeg')).rejects.toThrow();
    } finally {
      wrong.close();
    }
  });
});

describe('recording into S3', () => {
  it('the recorder loop stores the simulated camera’s JPEGs in the bucket, chosen by config', async () => {
    const tp = await buildTestPlatform({
      OVERLOOK_STORAGE: 's3',
      OVERLOOK_S3_ENDPOINT: endpoint,
      OVERLOOK_S3_BUCKET: BUCKET,
      OVERLOOK_S3_REGION: 'us-east-1',
      OVERLOOK_S3_ACCESS_KEY_ID: 'S3RVER',
      OVERLOOK_S3_SECRET_ACCESS_KEY: 'S3RVER',
    });
    try {
      expect(servicesOf(tp.app).storage.kind).toBe('s3');
      const owner = await tp.person('owner');
      const p = await tp.project(owner);
      const c = await tp.camera(owner, p.exid);
      const res = await tp.app.inject({
        method: 'PUT',
        url: `/v2/cameras/${c.exid}/cloud-recordings`,
        headers: owner.auth,
        payload: { status: 'on', frequency: 60 },
      });
      expect(res.statusCode).toBe(200);
      const loop = servicesOf(tp.app).recorder;
      const t = Date.now();
      for (const at of [t, t + 1000, t + 2000]) {
        await loop.tick(at);
        await loop.idle();
      }
      const id = (await servicesOf(tp.app).cameras.row(c.exid)).id;
      const rows = await tp.t.db.kysely.selectFrom('snapshots').selectAll().where('camera_id', '=', id).execute();
      expect(rows.length).toBeGreaterThanOrEqual(2);
      for (const r of rows) {
        // Read back through an independent client, straight from the bucket.
        const bytes = await store.getBytes(r.object_key);
        expect(bytes!.length).toBe(r.size);
        expect(await sharp(bytes!).metadata()).toMatchObject({ format: 'jpeg', width: 640, height: 360 });
      }
      // Capture now goes to the bucket too.
      const shot = await tp.app.inject({ method: 'POST', url: `/v2/cameras/${c.exid}/snapshots`, headers: owner.auth, payload: { note: 's3' } });
      expect(shot.statusCode, shot.body).toBe(201);
      const row = await tp.t.db.kysely
        .selectFrom('snapshots')
        .select('object_key')
        .where('camera_id', '=', id)
        .where('taken_at', '=', shot.json().created_at)
        .executeTakeFirstOrThrow();
      expect((await store.getBytes(row.object_key))!.length).toBe(shot.json().size);
    } finally {
      await tp.close();
    }
  });
});
