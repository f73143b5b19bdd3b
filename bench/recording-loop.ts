// Cloud recorder benchmark: how many simulated cameras one API process records without falling behind,
// at 1 snapshot a second and at 1 a minute. A separate process (no network at all: the simulated camera
// renders its JPEG in process with sharp; storage is the filesystem store, the index SQLite, or
// PostgreSQL at BENCH_DATABASE_URL). It runs the app's own RecorderLoop on its real timer.
//
// Steps: at 1/s, cameras 10, 20, 40, 80… for BENCH_SECOND_WINDOW_S (15) each, until one falls behind;
// then at 1/min, 0.5, 0.8, 1 and 1.25 times that capacity × 60 cameras, BENCH_MINUTE_WINDOW_S
// (60) each (a minute window gives every camera exactly one slot). A step keeps up when no slot was
// missed or left pending (waiting beyond max(0.5 s, interval/10) when the window closed), no capture failed, and 99 % of captures were stored within their interval.
// Prints a table and one JSON line.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { platformConfig } from '../src/lib/config.js';
import { openDb } from '../src/lib/db/index.js';
import { migrateToLatest } from '../src/lib/db/migrate.js';
import type { PlatformDatabase } from '../src/platform/database.js';
import { PLATFORM_MIGRATIONS } from '../src/platform/db/platform-migrations.js';
import { newId } from '../src/lib/ids.js';
import { buildPlatformApp } from '../src/platform/app.js';
import { createUser } from '../src/platform/users/create-user.js';
import { insertProject } from '../src/platform/projects/projects-repository.js';
import { SnapshotWriter } from '../src/platform/recordings/capture.js';
import { RecorderLoop, type CaptureEvent } from '../src/platform/recordings/recorder-loop.js';
import { RetentionJob } from '../src/platform/recordings/retention.js';
import { FsObjectStore } from '../src/platform/storage/fs-object-store.js';
import { servicesOf } from '../src/platform/plugins/feature.js';

const SECOND_WINDOW_S = Number(process.env.BENCH_SECOND_WINDOW_S ?? 15);
const MINUTE_WINDOW_S = Number(process.env.BENCH_MINUTE_WINDOW_S ?? 60);
const MAX_CAMERAS = Number(process.env.BENCH_MAX_CAMERAS ?? 12_000);
const SECOND_STEPS = [10, 20, 40, 80, 120, 160, 240, 320, 480, 640];

interface StepResult {
  per_minute: number;
  cameras: number;
  window_s: number;
  captures: number;
  missed: number;
  pending: number;
  failures: number;
  captures_per_s: number;
  start_lateness_p95_ms: number;
  stored_p50_ms: number;
  stored_p99_ms: number;
  stored_max_ms: number;
  event_loop_p99_ms: number;
  keeps_up: boolean;
}

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'overlook-bench-rec-'));
  const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
  const env = { OVERLOOK_RECORDING_LOOP: '0', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  const config = platformConfig({ dataDir }, env);
  const db = openDb<PlatformDatabase>(databaseUrl ? { databaseUrl, pgSchema: `bench_${process.pid}` } : { sqliteFile: join(dataDir, 'overlook.sqlite') });
  await migrateToLatest(db, PLATFORM_MIGRATIONS);
  const app = await buildPlatformApp({ config, db, logger: false });
  await app.ready();
  const p = servicesOf(app);
  const cameraIds: string[] = [];
  try {
    const user = await createUser(db, { email: 'bench@example.com', password: 'bench-password-1', firstname: 'Bench', lastname: 'Mark' });
    const projectId = newId();
    await insertProject(db, {
      id: projectId,
      exid: 'bench-site',
      name: 'Bench site',
      status: 'In Progress',
      timezone: 'UTC',
      ownerId: user.id,
      now: new Date().toISOString(),
    });

    const ensureCameras = async (n: number) => {
      const now = new Date().toISOString();
      while (cameraIds.length < n) {
        const batch = Array.from({ length: Math.min(500, n - cameraIds.length) }, (_, i) => {
          const k = cameraIds.length + i;
          return {
            id: newId(),
            exid: `bench-${String(k).padStart(5, '0')}`,
            project_id: projectId,
            name: `Bench camera ${k}`,
            kind: 'simulated' as const,
            status: 'online' as const,
            timezone: 'UTC',
            lat: null,
            lng: null,
            is_public: 0,
            connection: '{}',
            sim_state: '{}',
            last_online_at: null,
            last_checked_at: null,
            created_at: now,
            updated_at: now,
          };
        });
        await db.kysely.insertInto('cameras').values(batch).execute();
        cameraIds.push(...batch.map((b) => b.id));
      }
    };

    const runStep = async (perMinute: number, n: number, windowS: number): Promise<StepResult> => {
      await ensureCameras(n);
      // A clean slate: no stored frames, only the first n cameras recording.
      await db.kysely.deleteFrom('snapshots').execute();
      await db.kysely.deleteFrom('snapshot_buckets').execute();
      rmSync(join(dataDir, 'objects'), { recursive: true, force: true });
      await db.kysely.deleteFrom('camera_recording_settings').execute();
      const now = new Date().toISOString();
      for (let i = 0; i < n; i += 500) {
        await db.kysely
          .insertInto('camera_recording_settings')
          .values(
            cameraIds
              .slice(i, Math.min(n, i + 500))
              .map((id) => ({ camera_id: id, status: 'on', frequency: perMinute, storage_duration: -1, schedule: null, updated_by: null, updated_at: now })),
          )
          .execute();
      }
      const events: CaptureEvent[] = [];
      const storage = new FsObjectStore(join(dataDir, 'objects'));
      const writer = new SnapshotWriter(storage, p.snapshotIndex);
      const loop = new RecorderLoop(
        { db, connections: p.connections, writer, retention: new RetentionJob(db, storage, p.snapshotIndex) },
        { concurrency: config.recordingConcurrency, onCapture: (e) => events.push(e) },
      );
      const intervalMs = 60_000 / perMinute;
      const eld = monitorEventLoopDelay({ resolution: 10 });
      const start = Date.now();
      eld.enable();
      loop.start();
      await sleep(windowS * 1000);
      await loop.stop();
      eld.disable();
      // Slots due at the very end may legitimately still be waiting when the loop stops: half a second,
      // or a tenth of the interval (6 s at 1/min), is the grace before a waiting slot counts as pending.
      const end = start + windowS * 1000 - Math.max(500, intervalMs / 10);
      const inWindow = events.filter((e) => e.dueAt < end);
      const ok = inWindow.filter((e) => e.ok);
      const pending = cameraIds.slice(0, n).filter((id) => (loop.stateOf(id)?.nextDueAt ?? Infinity) < end).length;
      const stored = ok.map((e) => e.finishedAt - e.dueAt);
      const r: StepResult = {
        per_minute: perMinute,
        cameras: n,
        window_s: windowS,
        captures: ok.length,
        missed: loop.stats.missedSlots,
        pending,
        failures: inWindow.length - ok.length,
        captures_per_s: Number((ok.length / windowS).toFixed(1)),
        start_lateness_p95_ms: pct(
          inWindow.map((e) => e.startedAt - e.dueAt),
          95,
        ),
        stored_p50_ms: pct(stored, 50),
        stored_p99_ms: pct(stored, 99),
        stored_max_ms: pct(stored, 100),
        event_loop_p99_ms: Number((eld.percentile(99) / 1e6).toFixed(1)),
        keeps_up: false,
      };
      r.keeps_up = r.missed === 0 && r.pending === 0 && r.failures === 0 && r.captures > 0 && r.stored_p99_ms < intervalMs;
      console.log(
        [
          r.per_minute === 60 ? '1/s' : `${r.per_minute}/min`,
          r.cameras,
          r.window_s,
          r.captures,
          r.captures_per_s,
          r.missed,
          r.pending,
          r.failures,
          r.start_lateness_p95_ms,
          r.stored_p50_ms,
          r.stored_p99_ms,
          r.stored_max_ms,
          r.event_loop_p99_ms,
          r.keeps_up ? 'yes' : 'NO',
        ]
          .map(String)
          .map((s, i) => (i === 0 ? s.padEnd(8) : s.padStart(i === 13 ? 9 : 8)))
          .join(' '),
      );
      return r;
    };

    console.log(
      `Cloud recorder: simulated cameras (640×360 JPEG rendered per capture), ${databaseUrl ? 'PostgreSQL' : 'SQLite'}, filesystem store, concurrency ${config.recordingConcurrency}`,
    );
    console.log(`${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}`);
    console.log(
      ['rate', 'cameras', 'window', 'stored', 'per s', 'missed', 'pending', 'failed', 'late p95', 'store p50', 'p99', 'max', 'loop p99', 'keeps up']
        .map((s, i) => (i === 0 ? s.padEnd(8) : s.padStart(i === 13 ? 9 : 8)))
        .join(' '),
    );

    const results: StepResult[] = [];
    let perSecond = 0;
    for (const n of SECOND_STEPS) {
      const r = await runStep(60, n, SECOND_WINDOW_S);
      results.push(r);
      if (!r.keeps_up) break;
      perSecond = n;
    }
    let perMinute = 0;
    const base = Math.max(60, perSecond * 60);
    for (const f of [0.5, 0.8, 1, 1.25]) {
      const n = Math.min(MAX_CAMERAS, Math.round((base * f) / 10) * 10);
      const r = await runStep(1, n, MINUTE_WINDOW_S);
      results.push(r);
      if (!r.keeps_up) break;
      perMinute = n;
      if (n >= MAX_CAMERAS) break;
    }
    console.log(
      `\nKeeps up with: ${perSecond} cameras at 1 snapshot a second; ${perMinute}${perMinute >= MAX_CAMERAS ? '+' : ''} cameras at 1 a minute (largest step that kept up).`,
    );
    console.log(
      JSON.stringify({
        bench: 'recording-loop',
        cpus: cpus().length,
        cpu: cpus()[0]?.model,
        database: databaseUrl ? 'postgres' : 'sqlite',
        concurrency: config.recordingConcurrency,
        cameras_at_1_per_second: perSecond,
        cameras_at_1_per_minute: perMinute,
        steps: results,
      }),
    );
  } finally {
    await app.close();
    if (databaseUrl && db.pgSchema)
      await import('kysely').then(({ sql }) => sql`DROP SCHEMA IF EXISTS ${sql.id(db.pgSchema!)} CASCADE`.execute(db.kysely)).catch(() => {});
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
