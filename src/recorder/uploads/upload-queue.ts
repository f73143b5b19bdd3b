// The upload queue, durable in recorder.sqlite: one row per object still to send to one storage. A
// segment's rows are written in the transaction that indexes it; a snapshot's row holds its JPEG. A
// row is deleted once its object is stored (or when there is nothing left to send); each storage's
// last success and last error are kept beside the queue (docs/recorder.md, Remote storages).
import type { Transaction } from 'kysely';
import type { RecorderDb } from '../db/recorder-db.js';
import type { RecorderDatabase, UploadsTable } from '../db/schema.js';
import type { Segment } from '../recordings/index.js';
import type { UploadStatus, UploadsView } from '../remote-storages/index.js';
import { newId } from '../../lib/ids.js';
import { segmentKey, snapshotKey } from './object-keys.js';

export type QueuedUpload = UploadsTable;

/** The longest error text kept: enough to act on, never a whole response body. */
const ERROR_CHARS = 500;

export class UploadQueue implements Pick<UploadsView, 'status'> {
  constructor(private readonly db: RecorderDb) {}

  /** Queues a segment for the given storages, inside the transaction that indexes it. */
  async addSegment(trx: Transaction<RecorderDatabase>, storageIds: string[], s: Segment, now = new Date()): Promise<void> {
    if (storageIds.length === 0) return;
    const at = now.toISOString();
    const key = segmentKey(s.device_id, s.stream, new Date(s.start_date));
    await trx
      .insertInto('uploads')
      .values(
        storageIds.map((storage_id) => ({
          id: newId(),
          storage_id,
          kind: 'segment',
          device_id: s.device_id,
          object_key: key,
          segment_id: s.id,
          start_date: s.start_date,
          end_date: s.end_date,
          body: null,
          attempts: 0,
          next_attempt_at: at,
          last_error: null,
          created_at: at,
        })),
      )
      .onConflict((oc) => oc.columns(['storage_id', 'object_key']).doNothing())
      .execute();
  }

  /** Queues a snapshot taken for the scheduled time `slot` (the object key's time); the frame's own time is `frameAt`. */
  async addSnapshot(storageId: string, deviceId: string, slot: Date, jpeg: Buffer, frameAt: Date, now = new Date()): Promise<void> {
    const at = now.toISOString();
    await this.db.kysely
      .insertInto('uploads')
      .values({
        id: newId(),
        storage_id: storageId,
        kind: 'snapshot',
        device_id: deviceId,
        object_key: snapshotKey(deviceId, slot),
        segment_id: null,
        start_date: frameAt.toISOString(),
        end_date: frameAt.toISOString(),
        body: jpeg,
        attempts: 0,
        next_attempt_at: at,
        last_error: null,
        created_at: at,
      })
      .onConflict((oc) => oc.columns(['storage_id', 'object_key']).doNothing())
      .execute();
  }

  /** The oldest object of a storage whose turn has come, or undefined. */
  next(storageId: string, now = new Date()): Promise<QueuedUpload | undefined> {
    return this.db.kysely
      .selectFrom('uploads')
      .selectAll()
      .where('storage_id', '=', storageId)
      .where('next_attempt_at', '<=', now.toISOString())
      .orderBy('next_attempt_at')
      .orderBy('start_date')
      .limit(1)
      .executeTakeFirst();
  }

  /** When a storage's next object is due, or null when its queue is empty. */
  async nextDue(storageId: string): Promise<Date | null> {
    const row = await this.db.kysely
      .selectFrom('uploads')
      .select((eb) => eb.fn.min('next_attempt_at').as('due'))
      .where('storage_id', '=', storageId)
      .executeTakeFirst();
    return row?.due ? new Date(row.due) : null;
  }

  /** The object is stored: off the queue, and the storage's last success moves on. */
  async succeeded(item: QueuedUpload, now = new Date()): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx.deleteFrom('uploads').where('id', '=', item.id).execute();
      await trx
        .insertInto('upload_status')
        .values({ storage_id: item.storage_id, last_success_at: now.toISOString(), last_error: null, last_error_at: null })
        .onConflict((oc) => oc.column('storage_id').doUpdateSet({ last_success_at: now.toISOString() }))
        .execute();
    });
  }

  /** The attempt failed: the object waits until `retryAt`, and the storage shows the error. */
  async failed(item: QueuedUpload, error: string, retryAt: Date, now = new Date()): Promise<void> {
    const message = error.slice(0, ERROR_CHARS);
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx
        .updateTable('uploads')
        .set({ attempts: item.attempts + 1, next_attempt_at: retryAt.toISOString(), last_error: message })
        .where('id', '=', item.id)
        .execute();
      await trx
        .insertInto('upload_status')
        .values({ storage_id: item.storage_id, last_success_at: null, last_error: message, last_error_at: now.toISOString() })
        .onConflict((oc) => oc.column('storage_id').doUpdateSet({ last_error: message, last_error_at: now.toISOString() }))
        .execute();
    });
  }

  /** Nothing left to send (the segment was deleted before its upload): off the queue. */
  async drop(item: QueuedUpload): Promise<void> {
    await this.db.kysely.deleteFrom('uploads').where('id', '=', item.id).execute();
  }

  /** Each storage's pending count, last success and last error. */
  async status(storageIds: string[]): Promise<Map<string, UploadStatus>> {
    const out = new Map<string, UploadStatus>();
    if (storageIds.length === 0) return out;
    const counts = await this.db.kysely
      .selectFrom('uploads')
      .select(['storage_id', (eb) => eb.fn.countAll<number>().as('pending')])
      .where('storage_id', 'in', storageIds)
      .groupBy('storage_id')
      .execute();
    const states = await this.db.kysely.selectFrom('upload_status').selectAll().where('storage_id', 'in', storageIds).execute();
    for (const id of storageIds) {
      const state = states.find((s) => s.storage_id === id);
      out.set(id, {
        pending: Number(counts.find((c) => c.storage_id === id)?.pending ?? 0),
        last_success_at: state?.last_success_at ?? null,
        last_error: state?.last_error ?? null,
        last_error_at: state?.last_error_at ?? null,
      });
    }
    return out;
  }
}
