// Small stored frames are read from the object store once and then served from memory; larger ones are
// streamed each time; a different frame under the same key (another size) is read anew.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CacheRegistry } from '../../../src/lib/cache/index.js';
import { HOT_FRAME_MAX_BYTES, SnapshotReader } from '../../../src/platform/recordings/snapshot-reader.js';
import type { SnapshotEntry } from '../../../src/platform/recordings/snapshot-index.js';
import type { ObjectStore } from '../../../src/platform/storage/object-store.js';

function setup() {
  const calls = { get: 0, getBytes: 0 };
  const objects = new Map<string, Buffer>();
  const storage: ObjectStore = {
    kind: 'fake',
    put: async (key, bytes) => void objects.set(key, bytes),
    get: async (key) => {
      calls.get++;
      const b = objects.get(key);
      return b ? { body: Readable.from(b), size: b.length, contentType: 'image/jpeg' } : null;
    },
    getBytes: async (key) => {
      calls.getBytes++;
      return objects.get(key) ?? null;
    },
    delete: async (keys) => {
      for (const k of keys) objects.delete(k);
    },
  };
  const reader = new SnapshotReader({ cameras: {} as never, snapshotIndex: {} as never, storage }, new CacheRegistry());
  return { reader, storage, calls };
}

const entry = (objectKey: string, size: number): SnapshotEntry => ({
  takenAt: '2026-11-25T10:00:00.000Z',
  objectKey,
  size,
  source: 'schedule',
  note: null,
  createdBy: null,
});

describe('stored frames in memory', () => {
  it('reads a small frame once and serves the same bytes after', async () => {
    const { reader, storage, calls } = setup();
    const jpeg = Buffer.alloc(10_000, 7);
    await storage.put('cam/a.jpg', jpeg, 'image/jpeg');
    for (let i = 0; i < 3; i++) expect(await reader.jpeg(entry('cam/a.jpg', jpeg.length))).toEqual(jpeg);
    expect(await reader.bytes(entry('cam/a.jpg', jpeg.length))).toEqual(jpeg);
    expect(calls).toEqual({ get: 0, getBytes: 1 });
  });

  it('streams a frame larger than the limit, every time', async () => {
    const { reader, storage, calls } = setup();
    const big = Buffer.alloc(HOT_FRAME_MAX_BYTES + 1, 1);
    await storage.put('cam/b.jpg', big, 'image/jpeg');
    for (let i = 0; i < 2; i++) {
      const got = await reader.jpeg(entry('cam/b.jpg', big.length));
      expect(Buffer.isBuffer(got)).toBe(false);
    }
    expect(calls.get).toBe(2);
  });

  it('reads again when the index names another size under the same key, and keeps no missing frame', async () => {
    const { reader, storage, calls } = setup();
    await storage.put('cam/c.jpg', Buffer.alloc(100, 1), 'image/jpeg');
    await reader.jpeg(entry('cam/c.jpg', 100));
    await storage.put('cam/c.jpg', Buffer.alloc(200, 2), 'image/jpeg');
    expect(await reader.jpeg(entry('cam/c.jpg', 200))).toEqual(Buffer.alloc(200, 2));
    await expect(reader.jpeg(entry('cam/missing.jpg', 100))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await storage.put('cam/missing.jpg', Buffer.alloc(100, 3), 'image/jpeg');
    expect(await reader.jpeg(entry('cam/missing.jpg', 100))).toEqual(Buffer.alloc(100, 3));
    expect(calls.getBytes).toBe(4);
  });
});
