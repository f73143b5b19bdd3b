// Picture checks and activity benchmark (docs/analysis.md).
// (a) Picture checks per second on one core: sharp held to one thread (sharp.concurrency(1)), frames
//     analysed one after another exactly as the queue does (decode and measure, then the checks and the
//     activity score), for 640×480 and 1920×1080 JPEGs of a textured scene with people moving.
// (b) Activity queries over a year of one camera's frames (one a minute: 525 600 frame scores and 35 040
//     quarter hours) on SQLite, and on PostgreSQL when BENCH_PG_URL (or the local default) answers: p99 of
//     a day, of the whole year, and of the year's busiest quarter hours, at the service.
// Env: BENCH_PC_FRAMES (200 per size), BENCH_SAMPLES (2000), BENCH_PG_URL, BENCH_PC_DBS (sqlite,postgres).
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { platformConfig } from '../src/lib/config.js';
import { openDb } from '../src/lib/db/index.js';
import { migrateToLatest } from '../src/lib/db/migrate.js';
import { newId } from '../src/lib/ids.js';
import { buildPlatformApp } from '../src/platform/app.js';
import type { PlatformDatabase, PlatformDb } from '../src/platform/database.js';
import { PLATFORM_MIGRATIONS } from '../src/platform/db/platform-migrations.js';
import { analyse, emptyMemory } from '../src/platform/picture-checks/frame-analysis.js';
import { frameFeatures } from '../src/platform/picture-checks/frame-features.js';
import { servicesOf } from '../src/platform/plugins/feature.js';
import { insertProject } from '../src/platform/projects/projects-repository.js';
import { DEFAULT_THRESHOLDS } from '../src/platform/picture-checks/thresholds.js';
import { createUser } from '../src/platform/users/create-user.js';
import { pgReachable } from './pg-reachable.js';

const FRAMES = Number(process.env.BENCH_PC_FRAMES ?? 200);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 2000);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const YEAR_START = Date.UTC(2025, 0, 1);
const MINUTES = 365 * 24 * 60;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const ms = (n: number) => Number(n.toFixed(2));

/** A textured scene with `people` dark figures placed by `seed`, as a JPEG of the given size. */
async function scene(width: number, height: number, seed: number, people: number): Promise<Buffer> {
  let s = 12345;
  const rnd = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const px = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) px[y * width + x] = 70 + Math.round((80 * (x + y)) / (width + height));
  for (let k = 0; k < 200; k++) {
    const bw = Math.floor((0.01 + rnd() * 0.1) * width);
    const bh = Math.floor((0.01 + rnd() * 0.1) * height);
    const x0 = Math.floor(rnd() * (width - bw));
    const y0 = Math.floor(rnd() * (height - bh));
    const v = 40 + Math.floor(rnd() * 180);
    for (let y = y0; y < y0 + bh; y++) px.fill(v, y * width + x0, y * width + x0 + bw);
  }
  s = seed + 1;
  for (let k = 0; k < people; k++) {
    const w = Math.floor(width / 20);
    const h = Math.floor(height / 8);
    const x0 = Math.floor(rnd() * (width - w));
    const y0 = Math.floor(rnd() * (height - h));
    for (let y = y0; y < y0 + h; y++) px.fill(20, y * width + x0, y * width + x0 + w);
  }
  return sharp(px, { raw: { width, height, channels: 1 } })
    .toColourspace('srgb')
    .jpeg({ quality: 80 })
    .toBuffer();
}

async function checksPerSecond(width: number, height: number) {
  const jpegs: Buffer[] = [];
  for (let i = 0; i < 20; i++) jpegs.push(await scene(width, height, i, 4));
  const previous = sharp.concurrency();
  sharp.concurrency(1);
  let memory = emptyMemory();
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < FRAMES; i++) {
    const t = performance.now();
    const f = await frameFeatures(jpegs[i % jpegs.length]!);
    memory = analyse(memory, f, new Date(YEAR_START + i * 60_000).toISOString(), DEFAULT_THRESHOLDS).memory;
    times.push(performance.now() - t);
  }
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  sharp.concurrency(previous);
  return {
    size: `${width}x${height}`,
    jpeg_kb: Math.round(jpegs[0]!.length / 1024),
    frames: FRAMES,
    per_second: Math.round(FRAMES / wall),
    cpu_ms_per_frame: ms((cpu.user + cpu.system) / 1000 / FRAMES),
    p50_ms: ms(pct(times, 50)),
    p99_ms: ms(pct(times, 99)),
  };
}

async function activityQueries(kind: 'sqlite' | 'postgres') {
  const dataDir = mkdtempSync(join(tmpdir(), 'overlook-bench-pc-'));
  const pgSchema = kind === 'postgres' ? `bench_pc_${process.pid}` : undefined;
  const db: PlatformDb = openDb<PlatformDatabase>(pgSchema ? { databaseUrl: PG_URL, pgSchema, poolSize: 4 } : { sqliteFile: join(dataDir, 'overlook.sqlite') });
  await migrateToLatest(db, PLATFORM_MIGRATIONS);
  const config = { ...platformConfig({ dataDir }, { OVERLOOK_RECORDING_LOOP: '0', DATABASE_URL: '' }), databaseUrl: pgSchema ? PG_URL : undefined };
  const app = await buildPlatformApp({ config, db, logger: false });
  await app.ready();
  try {
    const user = await createUser(db, { email: 'bench@example.com', password: 'bench-password-1', firstname: 'Bench', lastname: 'Mark' });
    const projectId = newId();
    const now = new Date().toISOString();
    await insertProject(db, { id: projectId, exid: 'bench-site', name: 'Bench site', status: 'In Progress', timezone: 'UTC', ownerId: user.id, now });
    const cameraId = newId();
    await db.kysely
      .insertInto('cameras')
      .values({
        id: cameraId,
        exid: 'bench-cam',
        project_id: projectId,
        name: 'Bench camera',
        kind: 'simulated',
        status: 'online',
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
      })
      .execute();
    // A year of one frame a minute: busy working hours, quiet nights.
    const scoreAt = (minute: number) => {
      const hour = Math.floor(minute / 60) % 24;
      return hour >= 7 && hour < 18 ? 2 + ((minute * 7919) % 97) / 10 : ((minute * 31) % 7) / 10;
    };
    const CHUNK = 2000;
    for (let m = 0; m < MINUTES; m += CHUNK) {
      const rows = [];
      for (let k = m; k < Math.min(MINUTES, m + CHUNK); k++)
        rows.push({ camera_id: cameraId, taken_at: new Date(YEAR_START + k * 60_000).toISOString(), score: scoreAt(k) });
      await db.kysely.insertInto('picture_frame_activity').values(rows).execute();
    }
    for (let q = 0; q < MINUTES / 15; q += CHUNK) {
      const rows = [];
      for (let k = q; k < Math.min(MINUTES / 15, q + CHUNK); k++) {
        let score = 0;
        let peak = 0;
        let peakAt = 0;
        for (let i = 0; i < 15; i++) {
          const v = scoreAt(k * 15 + i);
          score += v;
          if (v > peak) [peak, peakAt] = [v, k * 15 + i];
        }
        rows.push({
          camera_id: cameraId,
          bucket: Math.floor(YEAR_START / 900_000) + k,
          score,
          frames: 15,
          peak_at: new Date(YEAR_START + peakAt * 60_000).toISOString(),
          peak_score: peak,
        });
      }
      await db.kysely.insertInto('picture_activity_quarters').values(rows).execute();
    }
    console.log(`${kind}: a year of activity stored`);
    const service = servicesOf(app).pictureChecks;
    const measure = async (fn: (i: number) => Promise<unknown>) => {
      for (let i = 0; i < Math.min(200, SAMPLES); i++) await fn(i);
      const times: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const t = performance.now();
        await fn(i);
        times.push(performance.now() - t);
      }
      return ms(pct(times, 99));
    };
    const day = (i: number) => new Date(YEAR_START + ((i * 37) % 365) * 86_400_000).toISOString().slice(0, 10);
    const year = { from: new Date(YEAR_START).toISOString(), to: new Date(YEAR_START + 365 * 86_400_000).toISOString() };
    const daySamples = await measure((i) => service.cameraActivity('bench-cam', { date: day(i) }));
    const yearSamples = await measure(() => service.cameraActivity('bench-cam', year));
    const busiest = await measure(() => service.busiest(projectId, { ...year, limit: 10 }));
    return { db: kind, frames: MINUTES, quarters: MINUTES / 15, day_p99_ms: daySamples, year_p99_ms: yearSamples, busiest_year_p99_ms: busiest };
  } finally {
    await app.close();
    if (pgSchema) {
      const admin = openDb<PlatformDatabase>({ databaseUrl: PG_URL });
      await admin.kysely.schema.dropSchema(pgSchema).ifExists().cascade().execute();
      await admin.close();
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  console.log(
    `cpus: ${cpus().length} × ${cpus()[0]?.model}; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const checks = [await checksPerSecond(640, 480), await checksPerSecond(1920, 1080)];
  console.table(checks);
  const wanted = (process.env.BENCH_PC_DBS ?? 'sqlite,postgres').split(',');
  const dbs: ('sqlite' | 'postgres')[] = wanted.includes('sqlite') ? ['sqlite'] : [];
  if (wanted.includes('postgres') && (await pgReachable(PG_URL))) dbs.push('postgres');
  const queries = [];
  for (const kind of dbs) queries.push(await activityQueries(kind));
  console.table(queries);
  console.log(JSON.stringify({ bench: 'picture-checks', checks, queries, loadavg: loadavg() }));
}

await main();
