// Sends the upload queue to the remote storages: one worker per storage, each sending its oldest due
// object, one at a time, so a slow or unreachable storage holds up no other. A failed attempt waits
// 2 s, doubling up to the configured most (OVERLOOK_RECORDER_UPLOAD_RETRY_MAX_SECONDS) for that object,
// and the storage rests as long before its next attempt; a success resets the storage's wait. A segment
// deleted (full-drive retention) before its turn is dropped from the queue with a log line.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RemoteStorages, StorageTarget } from '../remote-storages/index.js';
import type { SegmentIndex } from '../recordings/index.js';
import type { QueuedUpload, UploadQueue } from './upload-queue.js';
import { type UploadObject, type UploadTarget, uploadTarget } from './targets.js';

export interface UploaderDeps {
  queue: UploadQueue;
  storages: Pick<RemoteStorages, 'targets'>;
  index: Pick<SegmentIndex, 'get'>;
  storageRoot: string;
  /** The longest wait between two attempts, in ms. */
  maxBackoffMs: number;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

const FIRST_BACKOFF_MS = 2000;
/** A worker with nothing due looks at its queue again after this long even if nobody woke it. */
const IDLE_CHECK_MS = 30_000;

/** The wait after the `failures`-th failure in a row: 2 s, 4 s, 8 s… up to `maxMs`. */
const backoffMs = (failures: number, maxMs: number): number => Math.min(FIRST_BACKOFF_MS * 2 ** Math.max(0, Math.min(failures - 1, 30)), maxMs);

class StorageWorker {
  private target: UploadTarget;
  private failures = 0;
  private wakeUp: (() => void) | null = null;
  private woken = false;
  private restUntil = 0;
  /** The storage's settings changed since the target was built. */
  private changed = false;
  private readonly abort = new AbortController();
  readonly done: Promise<void>;

  constructor(
    private storage: StorageTarget,
    private readonly deps: UploaderDeps,
  ) {
    this.target = uploadTarget(storage);
    this.done = this.loop();
  }

  /** The storage changed: the next attempt uses its new settings, at once (one in flight finishes with the old). */
  update(storage: StorageTarget): void {
    if (storage.updated_at === this.storage.updated_at) return;
    this.storage = storage;
    this.changed = true;
    this.failures = 0;
    this.restUntil = 0;
    this.wake();
  }

  wake(): void {
    if (this.wakeUp) this.wakeUp();
    // Not asleep: the next sleep is skipped, so what was queued meanwhile is not left waiting.
    else this.woken = true;
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.wake();
    await this.done;
    this.target.close();
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken || this.abort.signal.aborted) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(finish, Math.max(0, ms));
      this.wakeUp = finish;
    });
  }

  private async loop(): Promise<void> {
    const { queue, log } = this.deps;
    while (!this.abort.signal.aborted) {
      // Resting after a failure: newly queued objects wake the worker, but do not cut the rest short.
      const resting = this.restUntil - Date.now();
      if (resting > 0) {
        await this.sleep(resting);
        continue;
      }
      try {
        const item = await queue.next(this.storage.id);
        if (!item) {
          const due = await queue.nextDue(this.storage.id);
          await this.sleep(due ? Math.min(due.getTime() - Date.now(), IDLE_CHECK_MS) : IDLE_CHECK_MS);
          continue;
        }
        if (this.changed) {
          this.changed = false;
          this.target.close();
          this.target = uploadTarget(this.storage);
        }
        const object = await this.objectOf(item);
        if (!object) {
          log.info({ storage: this.storage.name, key: item.object_key }, 'segment deleted before its upload (retention); skipped');
          await queue.drop(item);
          continue;
        }
        try {
          await this.target.put(object, this.abort.signal);
        } catch (err) {
          if (this.abort.signal.aborted) break;
          this.failures++;
          const message = (err as Error).message;
          const retryAt = new Date(Date.now() + backoffMs(item.attempts + 1, this.deps.maxBackoffMs));
          await queue.failed(item, message, retryAt);
          const rest = backoffMs(this.failures, this.deps.maxBackoffMs);
          log.warn({ storage: this.storage.name, key: item.object_key, error: message, retryInMs: rest }, 'upload failed; retrying');
          this.restUntil = Date.now() + rest;
          continue;
        }
        this.failures = 0;
        await queue.succeeded(item);
      } catch (err) {
        // The queue itself failed (the storage deleted meanwhile, a busy database): look again shortly.
        if (this.abort.signal.aborted) break;
        log.warn({ err, storage: this.storage.name }, 'upload queue error');
        this.restUntil = Date.now() + FIRST_BACKOFF_MS;
      }
    }
  }

  /** What to send for a queued row; null when a segment's file is gone. */
  private async objectOf(item: QueuedUpload): Promise<UploadObject | null> {
    const common = { key: item.object_key, deviceId: item.device_id, startDate: item.start_date, endDate: item.end_date };
    if (item.kind === 'snapshot') {
      const jpeg = item.body ?? Buffer.alloc(0);
      return { ...common, kind: 'snapshot', contentType: 'image/jpeg', size: jpeg.length, body: () => jpeg };
    }
    const segment = item.segment_id ? await this.deps.index.get(item.device_id, item.segment_id) : undefined;
    if (!segment) return null;
    const file = join(this.deps.storageRoot, segment.path);
    const size = await stat(file).then(
      (s) => s.size,
      () => null,
    );
    if (size === null) return null;
    return { ...common, kind: 'segment', contentType: 'video/mp2t', size, body: () => createReadStream(file) };
  }
}

export class Uploader {
  private readonly workers = new Map<string, StorageWorker>();
  private syncing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;

  constructor(private readonly deps: UploaderDeps) {}

  start(): void {
    this.stopped = false;
    this.storagesChanged();
    // Storages changed by another process on the same database (an admin command) are picked up too.
    this.timer = setInterval(() => this.storagesChanged(), IDLE_CHECK_MS);
    this.timer.unref();
  }

  /** Starts, updates and stops workers to match the storages. */
  storagesChanged(): void {
    if (this.stopped) return;
    this.syncing = this.syncing.then(() => this.sync()).catch((err) => this.deps.log.warn({ err }, 'reading the remote storages failed'));
  }

  /** Something was queued: idle workers look at their queues now. */
  wake(): void {
    for (const w of this.workers.values()) w.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.syncing;
    await Promise.all([...this.workers.values()].map((w) => w.stop()));
    this.workers.clear();
  }

  private async sync(): Promise<void> {
    const storages = await this.deps.storages.targets();
    if (this.stopped) return;
    for (const s of storages) {
      const worker = this.workers.get(s.id);
      if (worker) worker.update(s);
      else this.workers.set(s.id, new StorageWorker(s, this.deps));
    }
    for (const [id, worker] of this.workers) {
      if (storages.some((s) => s.id === id)) continue;
      this.workers.delete(id);
      await worker.stop();
    }
  }
}
