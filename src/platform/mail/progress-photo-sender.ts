// Progress photos are sent on their schedule's days and time in the project's time zone (docs/email.md,
// Progress photos). Each minute one node (the holder of the `progress-photos` work lease) looks for
// schedules whose moment has come and records a `progress_photo.due` event for it in the same
// transaction as the moment it was sent for: each moment is sent once, by the outbox, even across a
// restart. A moment missed by more than an hour (every node down) is skipped, not sent late.
import type { FastifyBaseLogger } from 'fastify';
import { inTransaction } from '../../lib/db/transaction.js';
import type { PlatformDb } from '../database.js';
import { activeProgressPhotos, nextSendAt, type Weekday } from '../progress-photos/index.js';
import { projectRowById } from '../projects/index.js';
import type { WorkLeases } from '../work/index.js';
import * as repo from './mail-repository.js';
import type { Outbox } from '../outbox/index.js';

const LEASE = 'progress-photos';
const CATCH_UP_MS = 60 * 60_000;
const TICK_MS = 60_000;

export class ProgressPhotoSender {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly db: PlatformDb,
    private readonly outbox: Pick<Outbox, 'record'>,
    private readonly leases: Pick<WorkLeases, 'acquire'>,
    private readonly log?: FastifyBaseLogger,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tickOnce(new Date()), TICK_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private tickOnce(now: Date): Promise<number> {
    this.running ??= this.tick(now)
      .catch((err) => {
        this.log?.warn({ err }, 'progress photos: looking for due deliveries failed; tried again in a minute');
        return 0;
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  /** Records an event for every schedule due at `now` on this node's lease; returns how many. */
  async tick(now: Date): Promise<number> {
    if (!(await this.leases.acquire(LEASE))) return 0;
    const schedules = await activeProgressPhotos(this.db);
    const lastSlots = await repo.lastSlotsOf(
      this.db,
      schedules.map((s) => s.id),
    );
    const projects = new Map<string, { exid: string; timezone: string } | undefined>();
    let sent = 0;
    for (const s of schedules) {
      if (!projects.has(s.project_id)) projects.set(s.project_id, await projectRowById(this.db, s.project_id));
      const project = projects.get(s.project_id);
      if (!project) continue;
      // Looked for after the last moment sent, the last change and the catch-up window, whichever is latest.
      const from = Math.max(Date.parse(lastSlots.get(s.id) ?? '1970-01-01T00:00:00Z'), Date.parse(s.updated_at), now.getTime() - CATCH_UP_MS);
      const slot = nextSendAt(s.schedule, JSON.parse(s.days) as Weekday[], s.send_at, project.timezone, new Date(from));
      if (!slot || Date.parse(slot) > now.getTime()) continue;
      await inTransaction(this.db, async (tx) => {
        await repo.saveLastSlot(tx, s.id, slot);
        await this.outbox.record(tx, { type: 'progress_photo.due', projectExid: project.exid, data: { progress_photo_id: s.id, slot } });
      });
      sent++;
    }
    return sent;
  }
}
