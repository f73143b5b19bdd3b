// Takes one JPEG from a camera and stores it as a cloud recording: the bytes into the object store
// under `snapshotKey`, then the index row. Shared by the recorder loop (source `schedule`) and
// `POST /v2/cameras/{camera_exid}/snapshots` (source `manual`).
//
// Order and crashes: the object is written first, the row second, so a row never points at bytes
// that were never written. If the row cannot be added the object is deleted again; a crash between
// the two leaves one unindexed object (invisible to every read, a few tens of kB) and nothing else.
import { type CameraConnection, type Snapshot, upstreamError } from '../cameras/index.js';
import { ApiError } from '../../lib/errors.js';
import type { ObjectStore } from '../storage/index.js';
import { snapshotKey } from './snapshot-index.js';
import type { SnapshotIndex } from './snapshot-index-repository.js';
import type { SnapshotSource } from './recordings-tables.js';
import type { StoredFrames } from './stored-frames.js';

export interface StoredSnapshot {
  cameraId: string;
  takenAt: Date;
  objectKey: string;
  size: number;
  source: SnapshotSource;
  note: string | null;
}

const JPEG_SOI = 0xffd8;

export class SnapshotWriter {
  /** Last taken time per camera, so two captures in one process never share a millisecond (and a key). */
  private readonly lastTaken = new Map<string, number>();

  constructor(
    private readonly storage: ObjectStore,
    private readonly index: SnapshotIndex,
    /** Told of every frame once stored (the picture checks analyse it off this path). */
    private readonly frames?: StoredFrames,
  ) {}

  /** Fetches from the camera; errors are 502/504 as docs/cameras.md says. */
  async fetch(conn: CameraConnection): Promise<Snapshot> {
    let shot: Snapshot;
    try {
      shot = await conn.snapshot();
    } catch (err) {
      throw upstreamError(err, 'give a snapshot');
    }
    if (shot.jpeg.length < 4 || shot.jpeg.readUInt16BE(0) !== JPEG_SOI) throw new ApiError('BAD_GATEWAY', 'The camera answered, but not with a JPEG image');
    return shot;
  }

  /** Stores a fetched JPEG and indexes it. */
  async store(cameraId: string, shot: Snapshot, meta: { source: SnapshotSource; note?: string | null; createdBy?: string | null }): Promise<StoredSnapshot> {
    let at = this.uniqueTime(cameraId, shot.takenAt.getTime());
    for (let attempt = 0; ; attempt++) {
      const takenAt = new Date(at);
      const objectKey = snapshotKey(cameraId, takenAt);
      await this.storage.put(objectKey, shot.jpeg, 'image/jpeg');
      try {
        await this.index.add({
          cameraId,
          takenAt,
          objectKey,
          size: shot.jpeg.length,
          source: meta.source,
          note: meta.note ?? null,
          createdBy: meta.createdBy ?? null,
        });
        this.frames?.stored({ cameraId, takenAt, objectKey, jpeg: shot.jpeg });
        return { cameraId, takenAt, objectKey, size: shot.jpeg.length, source: meta.source, note: meta.note ?? null };
      } catch (err) {
        // Another process stored a frame in the same millisecond: the key is that row's, so the object
        // stays (it now holds an equally fresh frame); try the next millisecond.
        if (err instanceof ApiError && err.code === 'CONFLICT' && attempt < 3) {
          at = this.uniqueTime(cameraId, at + 1);
          continue;
        }
        await this.storage.delete([objectKey]).catch(() => {});
        throw err;
      }
    }
  }

  /**
   * Stores a frame taken elsewhere (a linked recorder's) at its own time, once per camera and millisecond:
   * a frame sent again is found stored and not written twice. Resolves once the row is committed.
   */
  async storeOnce(cameraId: string, jpeg: Buffer, takenAt: Date, source: SnapshotSource): Promise<'stored' | 'duplicate'> {
    if (jpeg.length < 4 || jpeg.readUInt16BE(0) !== JPEG_SOI) throw new ApiError('VALIDATION_ERROR', 'frame: not a JPEG image');
    if (await this.index.has(cameraId, takenAt)) return 'duplicate';
    const objectKey = snapshotKey(cameraId, takenAt);
    await this.storage.put(objectKey, jpeg, 'image/jpeg');
    try {
      await this.index.add({ cameraId, takenAt, objectKey, size: jpeg.length, source, note: null, createdBy: null });
      return 'stored';
    } catch (err) {
      // Stored meanwhile by a concurrent send of the same frame: its row names these same bytes.
      if (err instanceof ApiError && err.code === 'CONFLICT') return 'duplicate';
      await this.storage.delete([objectKey]).catch(() => {});
      throw err;
    }
  }

  /** When the camera's latest stored frame was taken (ms since the epoch), whoever stored it; null when none. */
  async lastTakenAt(cameraId: string): Promise<number | null> {
    const last = await this.index.latest(cameraId);
    return last ? Date.parse(last.takenAt) : null;
  }

  private uniqueTime(cameraId: string, ms: number): number {
    const last = this.lastTaken.get(cameraId);
    const at = last !== undefined && ms <= last ? last + 1 : ms;
    this.lastTaken.set(cameraId, at);
    if (this.lastTaken.size > 100_000) this.lastTaken.clear();
    return at;
  }
}
