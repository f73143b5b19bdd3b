// The cloud recorder: one scheduler in the API process that takes a JPEG from every recording camera
// at its frequency and stores it (object store + snapshot index), and runs retention periodically.
//
// Architecture
// - One timer ticks every `tickMs` (250 ms), or sooner when a slot falls due earlier. A tick reloads the recording cameras from the database
//   when the list is older than `refreshMs` or settings changed (`invalidate()`, called by the settings
//   service), then starts the captures that are due, most overdue first.
// - Per camera it keeps: the next slot (`nextDueAt`), whether a fetch is in flight, and a failure
//   count. Slots are `60 s / frequency` apart and anchored to the first slot, so captures do not drift;
//   a new camera's first slot is spread over one interval (hash of its id) so cameras added together
//   do not all fetch in the same instant.
// - A camera never has two fetches at once: while one is in flight its slots are not started, and a
//   capture that starts late skips the slots it can no longer make (counted as `missedSlots`) rather
//   than bursting to catch up.
// - Outside its schedule (camera's time zone) or when paused/off, a camera is not fetched; slots
//   outside the schedule are skipped silently.
// - A failing camera (unreachable, HTTP error, not a JPEG) is retried after interval × 2^(failures-1),
//   capped at `maxBackoffMs` (10 min, never below its interval); one success resets it. Other cameras
//   are unaffected: each fetch has the camera client's own timeout (5 s) and at most `concurrency`
//   fetches run at once.
// - Retention (`RetentionJob`) runs at the first tick and then every `retentionEveryMs` (1 h), never
//   two runs at once.
//
// Several nodes (with `leases`, as the app builds it; docs/deploy.md, Background work)
// - A node records a camera only while it holds the lease `camera:<id>` (src/platform/work/leases.ts),
//   and runs retention only while it holds `retention`. Without `leases` (tests, benchmarks) the loop
//   records every camera.
// - Every node running the loop holds `recorder-node:<node id>`; the live ones are the nodes sharing the
//   cameras. At each reload a node takes free cameras up to its fair share, ceil(cameras / live nodes),
//   and gives back (not while fetching) what it holds beyond it, so a joining node gets its share at the
//   next reloads. A dead node's leases expire (30 s) and the others take its cameras at their next reload.
// - A camera taken from another node continues its cadence: its first slot is not before the last
//   stored frame plus one interval, so a handover records no slot twice.
// - Before each capture the loop checks it still surely holds the camera's lease (`holds`): after a pause
//   longer than the renewal margin it captures nothing until the next reload has taken the lease again.
//
// Limits
// - Throughput is bounded by fetching and encoding on this process (see bench/recording-loop.ts):
//   simulated cameras cost CPU (rendering a JPEG), real cameras mostly wait on the network.
// - State is in memory: after a restart cameras start afresh (no back-off carried over), and slots
//   that passed while the process was down are not captured.
import type { FastifyBaseLogger } from 'fastify';
import type { PlatformDb } from '../database.js';
import type { CameraConnections } from '../cameras/index.js';
import type { SnapshotWriter } from './capture.js';
import type { RetentionJob, RetentionResult } from './retention.js';
import type { WorkLeases } from '../work/index.js';
import { isInSchedule, parseSchedule, type ParsedSchedule, type WeeklySchedule } from './recording-schedule.js';
import { recordingCameras, type RecordingCameraRow } from './recording-settings-repository.js';

export interface RecorderLoopOptions {
  tickMs?: number;
  /** Most fetches in flight at once, over all cameras. */
  concurrency?: number;
  /** Longest back-off of a failing camera. */
  maxBackoffMs?: number;
  /** Reload the camera list at least this often (settings changes reload at once through `invalidate`). */
  refreshMs?: number;
  retentionEveryMs?: number;
  /** Spread new cameras' first slot over their interval (default); off, a new camera is due at once. */
  spreadStart?: boolean;
  /** Called after every capture attempt (benchmarks measure lateness with it). */
  onCapture?: (e: CaptureEvent) => void;
}

export interface CaptureEvent {
  cameraId: string;
  /** The slot the capture was for, and when it really started (ms since the epoch, loop clock). */
  dueAt: number;
  startedAt: number;
  /** When it was stored or failed (wall clock). */
  finishedAt: number;
  ok: boolean;
  error?: string;
}

export interface RecorderStats {
  captures: number;
  failures: number;
  /** Slots skipped because the previous capture or the queue made them impossible. */
  missedSlots: number;
}

export interface CameraLoopState {
  nextDueAt: number;
  inFlight: boolean;
  failures: number;
  lastError: string | null;
}

interface CameraState extends CameraLoopState {
  row: RecordingCameraRow;
  schedule: ParsedSchedule | null;
  intervalMs: number;
}

export interface RecorderDeps {
  db: PlatformDb;
  connections: CameraConnections;
  writer: SnapshotWriter;
  retention: RetentionJob;
  log?: FastifyBaseLogger;
  /** Share the cameras and retention with the other nodes through leases; without, record every camera. */
  leases?: WorkLeases;
}

/** The lease names the loop uses. */
const cameraLease = (cameraId: string) => `camera:${cameraId}`;
const CAMERA_PREFIX = 'camera:';
const NODE_PREFIX = 'recorder-node:';
export const RETENTION_LEASE = 'retention';

const hashOf = (s: string) => {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
};

export class RecorderLoop {
  readonly stats: RecorderStats = { captures: 0, failures: 0, missedSlots: 0 };
  private readonly cameras = new Map<string, CameraState>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly opts: Required<Omit<RecorderLoopOptions, 'onCapture'>> & Pick<RecorderLoopOptions, 'onCapture'>;
  private loadedAt = -Infinity;
  private stale = true;
  private nextRetentionAt = -Infinity;
  private retentionRun: Promise<RetentionResult | null> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private ticking: Promise<void> | null = null;

  constructor(
    private readonly deps: RecorderDeps,
    opts: RecorderLoopOptions = {},
  ) {
    this.opts = {
      tickMs: opts.tickMs ?? 250,
      concurrency: Math.max(1, Math.floor(opts.concurrency ?? 16)),
      maxBackoffMs: opts.maxBackoffMs ?? 10 * 60_000,
      refreshMs: opts.refreshMs ?? 5_000,
      retentionEveryMs: opts.retentionEveryMs ?? 60 * 60_000,
      spreadStart: opts.spreadStart ?? true,
      onCapture: opts.onCapture,
    };
  }

  /** Starts ticking on a timer (the app does this on ready unless OVERLOOK_RECORDING_LOOP=0). */
  start(): void {
    if (this.running) return;
    this.running = true;
    const loop = async () => {
      this.ticking = this.tick().catch((err) => this.deps.log?.error({ err }, 'recorder loop tick failed'));
      await this.ticking;
      this.ticking = null;
      // Wake for the soonest slot rather than a whole tick later (at least 5 ms apart).
      if (this.running) this.timer = setTimeout(loop, Math.max(5, Math.min(this.opts.tickMs, this.soonestDue() - Date.now())));
    };
    this.timer = setTimeout(loop, 0);
  }

  /** Stops the timer and waits for fetches and retention in progress. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.ticking;
    await this.idle();
    const leases = this.deps.leases;
    if (leases) {
      await leases
        .release(...leases.heldWith(CAMERA_PREFIX), NODE_PREFIX + leases.nodeId, RETENTION_LEASE)
        .catch((err) => this.deps.log?.warn({ err }, 'recorder leases not released; they expire'));
    }
  }

  /** Settings changed: reload the camera list on the next tick. */
  invalidate(): void {
    this.stale = true;
  }

  /** The loop's view of one camera, or undefined when it is not recording. */
  stateOf(cameraId: string): CameraLoopState | undefined {
    const s = this.cameras.get(cameraId);
    return s && { nextDueAt: s.nextDueAt, inFlight: s.inFlight, failures: s.failures, lastError: s.lastError };
  }

  /** Resolves when no fetch and no retention run is in progress. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0 || this.retentionRun) {
      await Promise.all([...this.inFlight, this.retentionRun]);
    }
  }

  /** One scheduling round at `now` (ms): reload if needed, start due captures, start retention when due. */
  async tick(now = Date.now()): Promise<void> {
    if (this.stale || now - this.loadedAt >= this.opts.refreshMs) await this.reload(now);
    this.dispatch(now);
    const leases = this.deps.leases;
    if (now >= this.nextRetentionAt && !this.retentionRun && (!leases || leases.holds(RETENTION_LEASE))) {
      this.nextRetentionAt = now + this.opts.retentionEveryMs;
      void this.runRetention(new Date(now));
    }
  }

  /** Runs retention now (unless a run is in progress, which is then awaited). */
  runRetention(now = new Date()): Promise<RetentionResult | null> {
    if (this.retentionRun) return this.retentionRun;
    this.retentionRun = this.deps.retention
      .run(now)
      .then((r) => {
        if (r.removed > 0) this.deps.log?.info({ removed: r.removed, cameras: r.cameras }, 'retention removed expired recordings');
        return r;
      })
      .catch((err) => {
        this.deps.log?.error({ err }, 'retention run failed');
        return null;
      })
      .finally(() => {
        this.retentionRun = null;
      });
    return this.retentionRun;
  }

  /** The earliest slot of a camera not being fetched (Infinity when none). */
  private soonestDue(): number {
    let soonest = Infinity;
    for (const s of this.cameras.values()) if (!s.inFlight && s.nextDueAt < soonest) soonest = s.nextDueAt;
    return soonest;
  }

  private async reload(now: number): Promise<void> {
    this.stale = false;
    this.loadedAt = now;
    let rows = await recordingCameras(this.deps.db);
    let taken = new Set<string>();
    if (this.deps.leases) ({ rows, taken } = await this.share(rows, this.deps.leases));
    const seen = new Set<string>();
    for (const row of rows) {
      seen.add(row.id);
      const intervalMs = 60_000 / Math.min(60, Math.max(1, row.frequency));
      const existing = this.cameras.get(row.id);
      const schedule =
        existing && existing.row.schedule === row.schedule
          ? existing.schedule
          : row.schedule
            ? parseSchedule(JSON.parse(row.schedule) as WeeklySchedule)
            : null;
      if (existing) {
        if (existing.intervalMs !== intervalMs) existing.nextDueAt = Math.min(existing.nextDueAt, now + intervalMs);
        // New connection details (a fixed URL or password): forget the back-off and try at once.
        if (existing.row.connection !== row.connection && existing.failures > 0) {
          existing.failures = 0;
          existing.nextDueAt = Math.min(existing.nextDueAt, now);
        }
        Object.assign(existing, { row, schedule, intervalMs });
      } else {
        const offset = this.opts.spreadStart ? hashOf(row.id) % intervalMs : 0;
        let nextDueAt = now + offset;
        // Taken from another node: go on from its last frame rather than record a slot twice.
        if (taken.has(row.id)) {
          const last = await this.deps.writer.lastTakenAt(row.id);
          if (last !== null) nextDueAt = Math.max(nextDueAt, last + intervalMs);
        }
        this.cameras.set(row.id, { row, schedule, intervalMs, nextDueAt, inFlight: false, failures: 0, lastError: null });
      }
    }
    for (const id of this.cameras.keys()) if (!seen.has(id)) this.cameras.delete(id);
  }

  /**
   * The cameras this node records, by lease: keeps the ones it holds up to its fair share, gives back
   * the rest (not while fetching) and the ones no longer recording, takes free ones up to the share.
   * `taken`: cameras newly taken that the loop was not recording. Also takes retention when free.
   */
  private async share(rows: RecordingCameraRow[], leases: WorkLeases): Promise<{ rows: RecordingCameraRow[]; taken: Set<string> }> {
    const me = leases.nodeId;
    const member = NODE_PREFIX + me;
    if (!leases.holds(member)) await leases.acquire(member);
    if (!leases.holds(RETENTION_LEASE)) await leases.acquire(RETENTION_LEASE);
    const [nodes, cameraLeases] = await Promise.all([leases.live(NODE_PREFIX), leases.live(CAMERA_PREFIX)]);
    nodes.set(member, me);
    const share = Math.ceil(rows.length / nodes.size);
    const order = (id: string) => hashOf(me + id);
    const wanted = new Set(rows.map((r) => r.id));
    const gone = leases.heldWith(CAMERA_PREFIX).filter((n) => !wanted.has(n.slice(CAMERA_PREFIX.length)));
    if (gone.length > 0) await leases.release(...gone);
    const mine = rows.filter((r) => leases.holds(cameraLease(r.id))).sort((a, b) => order(a.id) - order(b.id));
    const kept = new Set(mine.map((r) => r.id));
    if (mine.length > share) {
      const extra = mine.filter((r) => !this.cameras.get(r.id)?.inFlight).slice(share - mine.length);
      for (const r of extra) kept.delete(r.id);
      if (extra.length > 0) {
        await leases.release(...extra.map((r) => cameraLease(r.id)));
        this.deps.log?.info({ cameras: extra.length, share }, 'recorder: cameras handed to other nodes');
      }
    }
    const taken = new Set<string>();
    const free = rows.filter((r) => !kept.has(r.id) && (cameraLeases.get(cameraLease(r.id)) ?? me) === me).sort((a, b) => order(a.id) - order(b.id));
    for (const r of free) {
      if (kept.size >= share) break;
      if (await leases.acquire(cameraLease(r.id))) {
        kept.add(r.id);
        if (!this.cameras.has(r.id)) taken.add(r.id);
      }
    }
    return { rows: rows.filter((r) => kept.has(r.id)), taken };
  }

  private dispatch(now: number): void {
    if (this.inFlight.size >= this.opts.concurrency) return;
    const due = [...this.cameras.values()].filter((s) => !s.inFlight && s.nextDueAt <= now).sort((a, b) => a.nextDueAt - b.nextDueAt);
    for (const s of due) {
      if (this.inFlight.size >= this.opts.concurrency) break;
      const dueAt = s.nextDueAt;
      // The next slot after now; slots in between could not be made.
      let next = dueAt + s.intervalMs;
      let skipped = 0;
      while (next <= now) {
        next += s.intervalMs;
        skipped++;
      }
      s.nextDueAt = next;
      if (!isInSchedule(s.schedule, s.row.timezone, new Date(now))) continue;
      // No longer surely ours (a pause, a lost lease): the next reload takes it again or lets it go.
      if (this.deps.leases && !this.deps.leases.holds(cameraLease(s.row.id))) continue;
      this.stats.missedSlots += skipped;
      this.capture(s, dueAt, now);
    }
  }

  private capture(s: CameraState, dueAt: number, startedAt: number): void {
    s.inFlight = true;
    const { writer, connections, log } = this.deps;
    const job = (async () => {
      try {
        const shot = await writer.fetch(connections.connect(s.row));
        await writer.store(s.row.id, shot, { source: 'schedule' });
        this.stats.captures++;
        if (s.failures > 0) log?.info({ camera: s.row.exid, after: s.failures }, 'camera recording again');
        s.failures = 0;
        s.lastError = null;
        this.opts.onCapture?.({ cameraId: s.row.id, dueAt, startedAt, finishedAt: Date.now(), ok: true });
      } catch (err) {
        this.stats.failures++;
        s.failures++;
        s.lastError = (err as Error).message;
        // Back off: interval × 2^(failures-1), capped (never below the normal interval).
        const cap = Math.max(this.opts.maxBackoffMs, s.intervalMs);
        const delay = Math.min(s.intervalMs * 2 ** Math.min(s.failures - 1, 30), cap);
        s.nextDueAt = Math.max(s.nextDueAt, startedAt + delay);
        if (s.failures === 1) log?.warn({ camera: s.row.exid, err: s.lastError }, 'camera snapshot failed; backing off');
        else log?.debug({ camera: s.row.exid, failures: s.failures, retryInMs: delay }, 'camera snapshot failed again');
        this.opts.onCapture?.({ cameraId: s.row.id, dueAt, startedAt, finishedAt: Date.now(), ok: false, error: s.lastError });
      } finally {
        s.inFlight = false;
      }
    })();
    this.inFlight.add(job);
    void job.finally(() => {
      this.inFlight.delete(job);
      // Cameras waiting for a free slot need not wait for the next tick.
      if (this.running) this.dispatch(Date.now());
    });
  }
}
