// The picture checks and the activity timeline (docs/analysis.md): analyses each stored frame off the
// storing path, keeps each camera's check states and activity, and answers the health, threshold,
// reference and activity endpoints.
import type { FastifyBaseLogger } from 'fastify';
import type { CacheRegistry } from '../../lib/cache/index.js';
import { inTransaction } from '../../lib/db/transaction.js';
import { ApiError } from '../../lib/errors.js';
import type { PlatformDb } from '../database.js';
import { cameraRefByExid, cameraRefsByIds, camerasOfProject } from '../cameras/index.js';
import type { NotificationsService } from '../notifications/index.js';
import type { Outbox } from '../outbox/index.js';
import { projectRowById } from '../projects/index.js';
import type { StoredFrame } from '../recordings/index.js';
import type { ObjectStore } from '../storage/index.js';
import { type ActivityQuery, spanOf } from './activity-range.js';
import { PictureFaultEvents } from './fault-events.js';
import { analyse, emptyMemory, resetReference } from './frame-analysis.js';
import { frameFeatures } from './frame-features.js';
import { FrameQueue } from './frame-queue.js';
import * as repo from './picture-checks-repository.js';
import { CHECKS, type CheckName, type CheckState } from './picture-checks-tables.js';
import { DEFAULT_THRESHOLDS, type Thresholds, type ThresholdsPatch, thresholdsOf } from './thresholds.js';

export interface PictureCheck {
  check: CheckName;
  state: CheckState;
  since: string;
}

interface Quarter {
  start: string;
  score: number;
  frames: number;
  peak_at: string;
}

interface BusyMoment {
  camera_exid: string;
  start: string;
  end: string;
  score: number;
  frames: number;
  peak_at: string;
}

/** A frame waiting for analysis: its bytes while the waiting bytes stay under the budget, else only its key. */
interface Waiting {
  cameraId: string;
  takenAt: Date;
  objectKey: string;
  jpeg: Buffer | null;
}

/** JPEG bytes held by waiting frames; past this, a waiting frame is read back from the object store. */
const HELD_BYTES = 32 * 1024 * 1024;

const iso = (bucket: number) => new Date(bucket * repo.QUARTER_MS).toISOString();
const round2 = (n: number) => Math.round(n * 100) / 100;
const toQuarter = (r: { bucket: number; score: number; frames: number; peak_at: string }): Quarter => ({
  start: iso(r.bucket),
  score: round2(r.score),
  frames: r.frames,
  peak_at: r.peak_at,
});

export class PictureChecksService {
  private readonly queue: FrameQueue<Waiting>;
  private readonly faults: PictureFaultEvents;
  private heldBytes = 0;

  constructor(
    private readonly db: PlatformDb,
    private readonly storage: ObjectStore,
    deps: { notifications: NotificationsService; outbox: Outbox; caches: CacheRegistry },
    private readonly log: FastifyBaseLogger,
    concurrency = 2,
  ) {
    this.faults = new PictureFaultEvents({ db, log, ...deps });
    this.queue = new FrameQueue((frame) => this.analyseFrame(frame), concurrency);
  }

  /** Queues a stored frame for analysis; returns at once. */
  frameStored(frame: StoredFrame): void {
    const keep = this.heldBytes + frame.jpeg.length <= HELD_BYTES;
    if (keep) this.heldBytes += frame.jpeg.length;
    this.queue.push(frame.cameraId, { cameraId: frame.cameraId, takenAt: frame.takenAt, objectKey: frame.objectKey, jpeg: keep ? frame.jpeg : null });
  }

  /** Retention removed the camera's frames taken before `cutoff`: their activity goes with them. */
  framesExpired(cameraId: string, cutoff: Date): Promise<void> {
    return repo.deleteActivityBefore(this.db, cameraId, cutoff);
  }

  /** Resolves when every queued frame has been analysed (tests, shutdown). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  close(): Promise<void> {
    return this.queue.close();
  }

  private async analyseFrame(frame: Waiting): Promise<void> {
    if (frame.jpeg) this.heldBytes -= frame.jpeg.length;
    try {
      const jpeg = frame.jpeg ?? (await this.storage.getBytes(frame.objectKey));
      // Removed while it waited (retention, the camera deleted): nothing to analyse.
      if (!jpeg) return;
      const stored = await repo.memoryOf(this.db, frame.cameraId);
      const features = await frameFeatures(jpeg);
      const takenAt = frame.takenAt.toISOString();
      const verdict = analyse(stored?.memory ?? emptyMemory(), features, takenAt, thresholdsOf(stored?.thresholds ?? null));
      // A camera's first frame sets every check to ok: not news.
      const news = stored?.memory.previousAt ? verdict.changes : verdict.changes.filter((c) => c.state === 'fault');
      await inTransaction(this.db, async (tx) => {
        await repo.saveFrame(tx, { cameraId: frame.cameraId, takenAt, memory: verdict.memory, changes: verdict.changes, activity: verdict.activity });
        if (verdict.changes.length > 0) await this.faults.record(tx, frame.cameraId, news);
      });
      if (verdict.changes.length > 0) await this.faults.announce(frame.cameraId, news);
    } catch (err) {
      // A camera deleted while its frame waited has no row to analyse for; anything else is worth a log line.
      this.log.warn({ err, camera_id: frame.cameraId }, 'picture checks could not analyse a frame');
    }
  }

  private async cameraId(exid: string): Promise<string> {
    const camera = await cameraRefByExid(this.db, exid);
    if (!camera) throw new ApiError('NOT_FOUND', 'Camera not found');
    return camera.id;
  }

  /** Each check's state, in the order of `CHECKS`; empty until the camera's first frame is analysed. */
  async checksOf(exid: string): Promise<PictureCheck[]> {
    const states = await repo.statesOf(this.db, await this.cameraId(exid));
    const byName = new Map(states.map((s) => [s.check_name, s]));
    return CHECKS.flatMap((check) => {
      const s = byName.get(check);
      return s ? [{ check, state: s.state, since: s.since }] : [];
    });
  }

  async thresholds(exid: string): Promise<{ thresholds: Thresholds; defaults: Thresholds }> {
    const stored = await repo.thresholdsOfCamera(this.db, await this.cameraId(exid));
    return { thresholds: thresholdsOf(stored), defaults: DEFAULT_THRESHOLDS };
  }

  async updateThresholds(exid: string, patch: ThresholdsPatch): Promise<{ thresholds: Thresholds; defaults: Thresholds }> {
    const id = await this.cameraId(exid);
    const next = { ...thresholdsOf(await repo.thresholdsOfCamera(this.db, id)), ...patch };
    const changed = Object.fromEntries(Object.entries(next).filter(([k, v]) => DEFAULT_THRESHOLDS[k as keyof Thresholds] !== v));
    await repo.saveThresholds(this.db, id, Object.keys(changed).length > 0 ? JSON.stringify(changed) : null);
    return { thresholds: next, defaults: DEFAULT_THRESHOLDS };
  }

  /** The latest analysed frame becomes the reference view; a moved fault ends. */
  async resetReference(exid: string): Promise<{ reference_at: string | null; moved: PictureCheck | null }> {
    const id = await this.cameraId(exid);
    const stored = await repo.memoryOf(this.db, id);
    if (!stored?.memory.previous) throw new ApiError('CONFLICT', 'No frame of this camera has been analysed yet: there is nothing to take as the reference');
    const now = new Date().toISOString();
    const wasMoved = stored.memory.checks.moved?.state === 'fault';
    const memory = resetReference(stored.memory, now);
    const news = wasMoved ? [{ check: 'moved' as const, state: 'ok' as const, since: now }] : [];
    await inTransaction(this.db, async (tx) => {
      await repo.saveReset(tx, id, memory);
      if (wasMoved) await this.faults.record(tx, id, news);
    });
    if (wasMoved) await this.faults.announce(id, news);
    const moved = memory.checks.moved;
    return { reference_at: memory.referenceAt, moved: moved ? { check: 'moved', ...moved } : null };
  }

  async cameraActivity(exid: string, q: ActivityQuery) {
    const camera = await cameraRefByExid(this.db, exid);
    if (!camera) throw new ApiError('NOT_FOUND', 'Camera not found');
    const tz = (await cameraRefsByIds(this.db, [camera.id])).get(camera.id)?.timezone ?? 'UTC';
    const span = spanOf(q, tz);
    const rows = await repo.quartersOf(this.db, [camera.id], span.lo, span.hi);
    return { camera_exid: camera.exid, timezone: tz, from: span.from, to: span.to, quarters: rows.map(toQuarter) };
  }

  async projectActivity(projectId: string, q: ActivityQuery) {
    const { project, cameras, span } = await this.projectScope(projectId, q);
    const rows = await repo.quartersOf(
      this.db,
      cameras.map((c) => c.id),
      span.lo,
      span.hi,
    );
    const exidOf = new Map(cameras.map((c) => [c.id, c.exid]));
    const total = new Map<number, Quarter>();
    const perCamera = new Map<string, Quarter[]>(cameras.map((c) => [c.exid, []]));
    for (const r of rows) {
      perCamera.get(exidOf.get(r.camera_id)!)!.push(toQuarter(r));
      const t = total.get(r.bucket);
      if (!t) total.set(r.bucket, toQuarter(r));
      else {
        t.score = round2(t.score + r.score);
        t.frames += r.frames;
      }
    }
    return {
      project_exid: project.exid,
      timezone: project.timezone,
      from: span.from,
      to: span.to,
      quarters: [...total.values()],
      cameras: [...perCamera].map(([camera_exid, quarters]) => ({ camera_exid, quarters })),
    };
  }

  async busiest(projectId: string, q: ActivityQuery & { limit?: number; camera_exid?: string }) {
    const { project, cameras, span } = await this.projectScope(projectId, q);
    const chosen = q.camera_exid === undefined ? cameras : cameras.filter((c) => c.exid === q.camera_exid);
    if (q.camera_exid !== undefined && chosen.length === 0) throw new ApiError('NOT_FOUND', 'Camera not found');
    const rows = await repo.busiestOf(
      this.db,
      chosen.map((c) => c.id),
      span.lo,
      span.hi,
      q.limit ?? 5,
    );
    const exidOf = new Map(cameras.map((c) => [c.id, c.exid]));
    const moments: BusyMoment[] = rows.map((r) => ({
      camera_exid: exidOf.get(r.camera_id)!,
      start: iso(r.bucket),
      end: iso(r.bucket + 1),
      score: round2(r.score),
      frames: r.frames,
      peak_at: r.peak_at,
    }));
    return { project_exid: project.exid, from: span.from, to: span.to, moments };
  }

  private async projectScope(projectId: string, q: ActivityQuery) {
    const project = await projectRowById(this.db, projectId);
    if (!project) throw new ApiError('NOT_FOUND', 'Project not found');
    const span = spanOf(q, project.timezone);
    const cameras = await camerasOfProject(this.db, project.id);
    return { project, cameras, span };
  }
}
