// Runs the media hub's render jobs in the background, at most `concurrency` at once. The queue is the
// table itself (status pending, oldest first), so nothing is lost when the process stops: on start,
// jobs a previous process left "processing" go back to pending and run again. Stopping aborts the
// renders in flight (killing ffmpeg) without writing anything, exactly as a crash would leave them.
import type { FastifyBaseLogger } from 'fastify';
import type { MediaItemsRepository } from './media-items-repository.js';
import type { ItemRow } from './media-item-record.js';
import { render, type RenderDeps } from './renderers.js';
import { RenderError } from './ffmpeg-run.js';

/** How often the runner looks at the queue when nothing woke it (other processes may add jobs). */
const POLL_MS = 5000;

export class MediaJobRunner {
  private running = 0;
  private started = false;
  private readonly inFlight = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private timer: NodeJS.Timeout | null = null;
  constructor(
    private readonly repo: MediaItemsRepository,
    private readonly deps: RenderDeps,
    private readonly concurrency: number,
    private readonly log: FastifyBaseLogger,
    /** Told when a render ends, either way (the requester is notified). */
    private readonly onFinished?: (row: ItemRow) => Promise<void>,
  ) {}

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const requeued = await this.repo.requeueProcessing();
    if (requeued > 0) this.log.info({ requeued }, 'media hub: unfinished renders queued again');
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
    this.kick();
  }

  /** Aborts renders in flight and waits for them; their rows stay "processing" until the next start. */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const j of this.inFlight.values()) j.abort.abort();
    await Promise.allSettled([...this.inFlight.values()].map((j) => j.done));
  }

  /** Cancels the render of one item (edited or deleted while rendering). */
  cancel(id: string): void {
    this.inFlight.get(id)?.abort.abort();
  }

  /** Looks for work now (after a job was queued): fills every free slot. */
  kick(): void {
    while (this.started && this.running < this.concurrency) {
      this.running++;
      void this.next().then((tookOne) => {
        this.running--;
        // A finished job frees its slot for the next one; an empty queue waits for a kick or the poll.
        if (tookOne) this.kick();
      });
    }
  }

  /** Takes and renders one job; false when the queue was empty. */
  private async next(): Promise<boolean> {
    let row: ItemRow | null = null;
    try {
      row = await this.repo.claimNext();
    } catch (err) {
      if (this.started) this.log.error({ err }, 'media hub: could not read the job queue');
      return false;
    }
    if (!row) return false;
    // Stopped while claiming: leave it "processing", as a crash would; the next start queues it again.
    if (!this.started) return false;
    const abort = new AbortController();
    const done = this.runOne(row, abort.signal);
    this.inFlight.set(row.id, { abort, done });
    await done;
    this.inFlight.delete(row.id);
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
      const kept = await this.repo.finishIfProcessing(row.id, attempts, {
        status: 'completed',
        object_key: result.objectKey,
        gif_key: result.gifKey,
        thumbnail_key: result.thumbnailKey,
        file_size: result.fileSize,
        content_type: result.contentType,
        options: JSON.stringify(result.options),
        error: null,
        completed_at: now,
      });
      if (kept) await this.finished(row.id);
      // Deleted while rendering: what was just stored belongs to nothing.
      else if (!(await this.repo.get(row.id)))
        await this.deps.storage.delete([result.objectKey, result.gifKey, result.thumbnailKey].filter((k): k is string => !!k));
    } catch (err) {
      if (signal.aborted) return;
      const reason = err instanceof RenderError ? err.message : 'internal error while rendering';
      if (!(err instanceof RenderError)) this.log.error({ err, item: row.id }, 'media hub: render failed');
      const kept = await this.repo.finishIfProcessing(row.id, attempts, { status: 'failed', error: reason }).catch(() => false);
      if (kept) await this.finished(row.id);
    }
  }

  private async finished(id: string): Promise<void> {
    if (!this.onFinished) return;
    const row = await this.repo.get(id);
    if (row) await this.onFinished(row).catch((err) => this.log.warn({ err }, 'media hub: after-render hook failed'));
  }
}
