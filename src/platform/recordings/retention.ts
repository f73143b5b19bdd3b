// Retention of cloud recordings: for every camera with a storage duration of N > 0 days, removes the
// images taken more than N days ago, objects and index rows together. Runs from the recorder loop
// (at start, then periodically) and can be called directly.
//
// Order and crashes: per batch, the objects are deleted FIRST and the index rows SECOND. A crash in
// between leaves rows whose objects are gone; they are still older than the cut-off, so the next run
// selects them again, deletes the (already missing) objects, which is a no-op in both stores, and
// removes the rows. Deleting rows first would instead leave objects no row points at, which nothing
// would ever find again. Between the two steps a read of such an expired frame answers not found.
import type { FastifyBaseLogger } from 'fastify';
import type { PlatformDb } from '../database.js';
import type { ObjectStore } from '../storage/index.js';
import type { SnapshotIndex } from './snapshot-index-repository.js';
import { camerasWithRetention } from './recording-settings-repository.js';
import type { StoredFrames } from './stored-frames.js';

const DAY_MS = 86_400_000;
const BATCH = 500;

export interface RetentionResult {
  cameras: number;
  removed: number;
}

export class RetentionJob {
  constructor(
    private readonly db: PlatformDb,
    private readonly storage: ObjectStore,
    private readonly index: SnapshotIndex,
    private readonly log?: FastifyBaseLogger,
    /** Told of each camera's cut-off, so what other features keep about the removed frames goes too. */
    private readonly frames?: StoredFrames,
  ) {}

  /** Removes every expired image as of `now`; a failing camera is logged and the others still run. */
  async run(now = new Date()): Promise<RetentionResult> {
    const result: RetentionResult = { cameras: 0, removed: 0 };
    for (const { camera_id, storage_duration } of await camerasWithRetention(this.db)) {
      try {
        const cutoff = new Date(now.getTime() - storage_duration * DAY_MS);
        const removed = await this.runCamera(camera_id, cutoff);
        result.cameras++;
        result.removed += removed;
      } catch (err) {
        this.log?.warn({ err, cameraId: camera_id }, 'retention failed for a camera; retried on the next run');
      }
    }
    return result;
  }

  /** Removes one camera's images taken before `cutoff`, and what other features keep about them; returns how many. */
  async runCamera(cameraId: string, cutoff: Date): Promise<number> {
    const removed = await this.removeImages(cameraId, cutoff);
    await this.frames?.expired(cameraId, cutoff);
    return removed;
  }

  private async removeImages(cameraId: string, cutoff: Date): Promise<number> {
    let removed = 0;
    for (;;) {
      const batch = await this.index.expiredBefore(cameraId, cutoff, BATCH);
      if (batch.length === 0) return removed;
      await this.storage.delete(batch.map((e) => e.objectKey));
      await this.index.remove(
        cameraId,
        batch.map((e) => e.takenAt),
      );
      removed += batch.length;
      if (batch.length < BATCH) return removed;
    }
  }
}
