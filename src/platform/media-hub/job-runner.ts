// Runs the media hub's render jobs in the background, at most `concurrency` at once. The queue is the
// table itself (status pending, oldest first), so nothing is lost when the process stops. Stopping
// aborts the renders in flight (killing ffmpeg) without writing anything, exactly as a crash would
// leave them.
//
// Several nodes (docs/deploy.md, Background work): claiming a job first takes its lease `media:<id>`
// (src/platform/work/leases.ts), then moves it from pending to processing; the node's heartbeat renews
// the lease while it renders and the lease is released when the render ends. On start and at every poll,
// a job left "processing" whose lease is no longer live (its node stopped or died) goes back to pending;
// one a live node holds is never touched. The processing jobs are read before the live leases, and a
// job is re-queued only if its claim (`attempts`) is unchanged, so a job claimed meanwhile stays put.
// A render whose lease another node took (this node paused too long) is aborted.
import type { FastifyBaseLogger } from 'fastify';
import type { WorkLeases } from '../work/index.js';
import type { Outbox } from '../outbox/index.js';
import type { PlatformDb } from '../database.js';
import type { MediaItemsRepository } from './media-items-repository.js';
import type { ItemRow } from './media-item-record.js';
import { render, type RenderDeps } from './renderers.js';
import { RenderError } from './ffmpeg-run.js';

const MEDIA_PREFIX = 'media:';
/** The lease of a job's render. */
const mediaLease = (id: string) => `${MEDIA_PREFIX}${id}`;

export class MediaJobRunner {
  private running = 0;
  private started = false;
  private readonly inFlight = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private timer: NodeJS.Timeout | null = null;
  private unlisten: (() => void) | null = null;
  constructor(
    private readonly repo: MediaItemsRepository,
    private readonly deps: RenderDeps,
    /** Renders at once, and how often the queue is looked at when nothing woke the runner (other processes may add jobs or die). */
    private readonly pace: { concurrency: number; pollMs: number },
    private readonly log: FastifyBaseLogger,
    private readonly leases: WorkLeases,
    /** Told when a render ends, either way (the requester is notified). */
    private readonly onFinished?: (row: ItemRow) => Promise<void>,
    /** `media_item.ready` and `media_item.failed` are recorded with the outcome (docs/notifications.md). */
    private readonly outbox?: Pick<Outbox, 'record'>,
  ) {}

  /** Records the render's outcome in the transaction that stores it. */
  private outcome(row: ItemRow, failed: string | null) {
    return async (tx: PlatformDb) => {
      await this.outbox?.record(tx, {
        type: failed === null ? 'media_item.ready' : 'media_item.failed',
        projectExid: row.project_exid,
        cameraExid: row.camera_exid,
        data: { media_item_id: row.id, kind: row.kind, title: row.title, camera_exid: row.camera_exid, ...(failed === null ? {} : { error: failed }) },
      });
    };
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.unlisten = this.leases.onLost((name) => {
      if (name.startsWith(MEDIA_PREFIX)) this.cancel(name.slice(MEDIA_PREFIX.length));
    });
    await this.requeueOrphans();
    this.timer = setInterval(() => void this.poll(), this.pace.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Aborts renders in flight and waits for them; their rows stay "processing" until a runner re-queues them. */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.unlisten?.();
    this.unlisten = null;
    for (const j of this.inFlight.values()) j.abort.abort();
    await Promise.allSettled([...this.inFlight.values()].map((j) => j.done));
  }

  /** Renders this node runs now (docs/deploy.md, Metrics). */
  get rendering(): number {
    return this.inFlight.size;
  }

  /** Jobs waiting in the queue, across the nodes, counted up to `cap` (docs/deploy.md, Metrics). */
  queued(cap: number): Promise<number> {
    return this.repo.pendingCount(cap);
  }

  /** Cancels the render of one item (edited or deleted while rendering). */
  cancel(id: string): void {
    this.inFlight.get(id)?.abort.abort();
  }

  /** Looks for work now (after a job was queued): fills every free slot. */
  kick(): void {
    while (this.started && this.running < this.pace.concurrency) {
      this.running++;
      void this.next().then((tookOne) => {
        this.running--;
        // A finished job frees its slot for the next one; an empty queue waits for a kick or the poll.
        if (tookOne) this.kick();
      });
    }
  }

  private async poll(): Promise<void> {
    await this.requeueOrphans();
    this.kick();
  }

  /** Jobs left "processing" by a node that stopped or died (no live lease) go back to pending. */
  private async requeueOrphans(): Promise<void> {
    try {
      // In this order: a job claimed after the first read is not in it; one claimed before has its lease already.
      const processing = await this.repo.processing();
      if (processing.length === 0) return;
      const live = await this.leases.live(MEDIA_PREFIX);
      let requeued = 0;
      for (const job of processing) if (!live.has(mediaLease(job.id)) && (await this.repo.requeue(job.id, job.attempts))) requeued++;
      if (requeued > 0) this.log.info({ requeued }, 'media hub: unfinished renders queued again');
    } catch (err) {
      if (this.started) this.log.error({ err }, 'media hub: could not look for unfinished renders');
    }
  }

  /** Takes the oldest pending job whose lease this node gets: the lease first, then the claim. */
  private async claim(): Promise<ItemRow | null> {
    const skip: string[] = [];
    for (let i = 0; i < 5; i++) {
      const id = await this.repo.nextPending(skip);
      if (!id) return null;
      skip.push(id);
      // Held by another node (claiming it now, or still rendering it before an edit re-queued it).
      if (!(await this.leases.acquire(mediaLease(id)))) continue;
      const row = await this.repo.claim(id);
      if (row) return row;
      await this.leases.release(mediaLease(id));
    }
    return null;
  }

  /** Takes and renders one job; false when the queue was empty. */
  private async next(): Promise<boolean> {
    let row: ItemRow | null = null;
    try {
      row = await this.claim();
    } catch (err) {
      if (this.started) this.log.error({ err }, 'media hub: could not read the job queue');
      return false;
    }
    if (!row) return false;
    // Stopped while claiming: leave it "processing", as a crash would; it is queued again once its lease is gone.
    if (!this.started) return false;
    const abort = new AbortController();
    const done = this.runOne(row, abort.signal);
    this.inFlight.set(row.id, { abort, done });
    await done;
    this.inFlight.delete(row.id);
    await this.leases.release(mediaLease(row.id)).catch((err) => this.log.warn({ err }, 'media hub: render lease not released; it expires'));
    return true;
  }

  private async runOne(row: ItemRow, signal: AbortSignal): Promise<void> {
    const attempts = Number(row.attempts);
    try {
      const camera = row.camera_id ? await this.repo.camera(row.camera_id) : null;
      if (!camera) throw new RenderError('the camera no longer exists');
      const result = await render(
        this.deps,
        {
          id: row.id,
          projectId: row.project_id,
          kind: row.kind as 'clip' | 'timelapse' | 'compare',
          camera,
          from: row.from_date,
          to: row.to_date,
          options: JSON.parse(row.options),
          logoKey: row.logo_key,
        },
        signal,
      );
      if (signal.aborted) {
        // Deleted while rendering: what was just stored belongs to nothing.
        if (!(await this.repo.get(row.id)))
          await this.deps.storage.delete([result.objectKey, result.gifKey, result.thumbnailKey].filter((k): k is string => !!k));
        return;
      }
      const now = new Date().toISOString();
      const kept = await this.repo.finishIfProcessing(
        row.id,
        attempts,
        {
          status: 'completed',
          object_key: result.objectKey,
          gif_key: result.gifKey,
          thumbnail_key: result.thumbnailKey,
          file_size: result.fileSize,
          content_type: result.contentType,
          options: JSON.stringify(result.options),
          error: null,
          completed_at: now,
        },
        this.outcome(row, null),
      );
      if (kept) await this.finished(row.id);
      // Deleted while rendering: what was just stored belongs to nothing.
      else if (!(await this.repo.get(row.id)))
        await this.deps.storage.delete([result.objectKey, result.gifKey, result.thumbnailKey].filter((k): k is string => !!k));
    } catch (err) {
      if (signal.aborted) return;
      const reason = err instanceof RenderError ? err.message : 'internal error while rendering';
      if (!(err instanceof RenderError)) this.log.error({ err, item: row.id }, 'media hub: render failed');
      const kept = await this.repo.finishIfProcessing(row.id, attempts, { status: 'failed', error: reason }, this.outcome(row, reason)).catch(() => false);
      if (kept) await this.finished(row.id);
    }
  }

  private async finished(id: string): Promise<void> {
    if (!this.onFinished) return;
    const row = await this.repo.get(id);
    if (row) await this.onFinished(row).catch((err) => this.log.warn({ err }, 'media hub: after-render hook failed'));
  }
}
