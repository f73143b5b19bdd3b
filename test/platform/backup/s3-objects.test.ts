// Backup and restore of an S3 store, in process against s3rver: the bucket's objects are in the backup
// with their checksums and content types; a restore puts them into an empty bucket, or into the data
// dir without one; a restore whose put fails leaves neither objects in the bucket nor a data dir.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { platformConfig } from '../../../src/lib/config.js';
import { openDb } from '../../../src/lib/db/index.js';
import { migrateToLatest } from '../../../src/lib/db/migrate.js';
import { createBackup, restoreBackup } from '../../../src/platform/backup/index.js';
import type { PlatformDatabase } from '../../../src/platform/database.js';
import { PLATFORM_MIGRATIONS } from '../../../src/platform/db/platform-migrations.js';
import { S3ObjectStore } from '../../../src/platform/storage/index.js';

const KNOWN = Object.keys(PLATFORM_MIGRATIONS);
let dir: string;
let server: S3rver;
let endpoint: string;
const store = (bucket: string) => new S3ObjectStore({ endpoint, bucket, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });
const storage = (bucket: string) => ({ kind: 's3' as const, endpoint, bucket, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });
const objects = Array.from({ length: 12 }, (_, i) => ({
  key: i % 3 ? `cameras/c${i % 2}/snapshots/2026/11/28/10/00_${String(i).padStart(2, '0')}_000.jpg` : `media/${i}/drawing.png`,
  bytes: Buffer.from(`object ${i} `.repeat(100 + i)),
  type: i % 3 ? 'image/jpeg' : 'image/png',
}));
let file: string;

async function keysOf(bucket: string): Promise<string[]> {
  const s = store(bucket);
  try {
    const keys: string[] = [];
    for await (const k of s.keys()) keys.push(k);
    return keys.sort();
  } finally {
    s.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'overlook-backup-s3-'));
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(dir, 's3'), configureBuckets: [{ name: 'site' }, { name: 'restored' }] });
  endpoint = `http://127.0.0.1:${(await server.run()).port}`;
  const dataDir = join(dir, 'data');
  const config = platformConfig(
    { dataDir },
    {
      OVERLOOK_STORAGE: 's3',
      OVERLOOK_S3_BUCKET: 'site',
      OVERLOOK_S3_ENDPOINT: endpoint,
      OVERLOOK_S3_ACCESS_KEY_ID: 'S3RVER',
      OVERLOOK_S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
  );
  const db = openDb<PlatformDatabase>({ sqliteFile: join(dataDir, 'overlook.sqlite') });
  await migrateToLatest(db, PLATFORM_MIGRATIONS);
  await db.close();
  const site = store('site');
  for (const o of objects) await site.put(o.key, o.bytes, o.type);
  // Another tool's object, under a key the platform never makes.
  await site.client.send(new PutObjectCommand({ Bucket: 'site', Key: 'exports/report (1).csv', Body: 'x' }));
  site.close();
  file = join(dir, 'site.backup');
  const summary = await createBackup(config, file);
  expect(summary.objects).toBe(objects.length);
  expect(summary.notes).toContain('1 object(s) in the S3 bucket have keys Overlook never writes: they are not in this backup');
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('backup and restore of an S3 store', () => {
  it('a restore whose put fails leaves the bucket empty and no data dir; done again, every object is in the bucket as it was', async () => {
    const put = S3ObjectStore.prototype.put;
    let calls = 0;
    const spy = vi.spyOn(S3ObjectStore.prototype, 'put').mockImplementation(function (this: S3ObjectStore, key, bytes, type) {
      if (++calls === 5) return Promise.reject(new Error('the bucket went away'));
      return put.call(this, key, bytes, type);
    });
    const failed = join(dir, 'failed');
    try {
      await expect(restoreBackup({ from: file, dataDir: failed, knownMigrations: KNOWN, storage: storage('restored') })).rejects.toThrow(
        'the bucket went away',
      );
    } finally {
      spy.mockRestore();
    }
    expect(await keysOf('restored')).toEqual([]);
    expect(() => readFileSync(join(failed, 'overlook.sqlite'))).toThrow(/ENOENT/);

    const summary = await restoreBackup({ from: file, dataDir: join(dir, 'restored'), knownMigrations: KNOWN, storage: storage('restored') });
    expect(summary).toMatchObject({ objects: objects.length, store: 's3', notes: [] });
    expect(await keysOf('restored')).toEqual(objects.map((o) => o.key).sort());
    const restored = store('restored');
    try {
      for (const o of objects) {
        const got = await restored.get(o.key);
        expect(got?.contentType, o.key).toBe(o.type);
        expect((await restored.getBytes(o.key))?.equals(o.bytes), o.key).toBe(true);
      }
    } finally {
      restored.close();
    }
    // Now in use: a second restore into it is refused.
    await expect(restoreBackup({ from: file, dataDir: join(dir, 'again'), knownMigrations: KNOWN, storage: storage('restored') })).rejects.toThrow(
      /the S3 bucket restored is not empty/,
    );
  });

  it('without a bucket to restore into, the objects go into the data dir, and the restore says so', async () => {
    const dataDir = join(dir, 'as-files');
    const summary = await restoreBackup({ from: file, dataDir, knownMigrations: KNOWN, storage: { kind: 'fs' } });
    expect(summary).toMatchObject({ objects: objects.length, store: 'fs' });
    expect(summary.notes.join()).toContain('went into');
    for (const o of objects) expect(readFileSync(join(dataDir, 'objects', o.key)).equals(o.bytes)).toBe(true);
  });
});
