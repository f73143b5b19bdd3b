// `overlook backup` and `overlook restore` throughput: a data dir holding N stored frames (random bytes
// of a 1080p JPEG's size, so nothing compresses), backed up and restored by the built CLI, each timed
// from its start to its exit. Then the same with the frames in an S3 bucket (s3rver, in this process):
// the backup streams them out of one bucket, the restore puts them into another. A command's start
// (`backup --help`, before and after) is printed beside them: it is in every time.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { S3ObjectStore } from '../src/platform/storage/index.js';

const ROOT = join(import.meta.dirname, '..');
const CLI = process.env.BENCH_CLI ?? join(ROOT, 'dist', 'cli.js');
const FRAMES = Number(process.env.BENCH_BACKUP_FRAMES ?? 4000);
const S3_FRAMES = Number(process.env.BENCH_BACKUP_S3_FRAMES ?? 400);
const FRAME_BYTES = Number(process.env.BENCH_BACKUP_FRAME_KB ?? 250) * 1024;
const MB = 1024 * 1024;

function overlook(args: string[], env: Record<string, string>): Promise<{ ms: number; stdout: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, OVERLOOK_LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('exit', (code) =>
      code === 0 ? resolve({ ms: performance.now() - started, stdout }) : reject(new Error(`overlook ${args[0]} exited ${code}: ${stderr}`)),
    );
  });
}

const frameKey = (i: number) =>
  `cameras/bench${i % 4}/snapshots/2026/11/28/${String(Math.floor(i / 3600) % 24).padStart(2, '0')}/${String(Math.floor(i / 60) % 60).padStart(2, '0')}_${String(i % 60).padStart(2, '0')}_000.jpg`;

interface Run {
  store: 'fs' | 's3';
  frames: number;
  bytes: number;
  backupMs: number;
  restoreMs: number;
}

async function once(store: 'fs' | 's3', frames: number, s3?: { endpoint: string }): Promise<Run> {
  const work = mkdtempSync(join(tmpdir(), 'overlook-bench-backup-'));
  try {
    const dataDir = join(work, 'data');
    const bucketEnv = (bucket: string): Record<string, string> =>
      s3
        ? {
            OVERLOOK_STORAGE: 's3',
            OVERLOOK_S3_BUCKET: bucket,
            OVERLOOK_S3_ENDPOINT: s3.endpoint,
            OVERLOOK_S3_ACCESS_KEY_ID: 'S3RVER',
            OVERLOOK_S3_SECRET_ACCESS_KEY: 'S3RVER',
          }
        : {};
    await overlook(['users', 'create', '--email', 'bench@example.com', '--password', 'bench-password-1', '--data-dir', dataDir], {});
    const frame = randomBytes(FRAME_BYTES);
    if (s3) {
      const bucket = new S3ObjectStore({ endpoint: s3.endpoint, bucket: 'site', region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });
      for (let i = 0; i < frames; i += 8) {
        await Promise.all(Array.from({ length: Math.min(8, frames - i) }, (_, j) => bucket.put(frameKey(i + j), frame, 'image/jpeg')));
      }
      bucket.close();
    } else {
      for (let i = 0; i < frames; i++) {
        const file = join(dataDir, 'objects', frameKey(i));
        mkdirSync(join(file, '..'), { recursive: true });
        writeFileSync(file, frame);
      }
    }
    const archive = join(work, 'site.backup');
    const backup = await overlook(['backup', '--to', archive, '--data-dir', dataDir], bucketEnv('site'));
    const summary = JSON.parse(backup.stdout) as { objects: number };
    if (summary.objects !== frames) throw new Error(`the backup holds ${summary.objects} objects, not ${frames}`);
    const bytes = statSync(archive).size;
    const restore = await overlook(['restore', '--from', archive, '--data-dir', join(work, 'restored')], bucketEnv('restored'));
    const restored = JSON.parse(restore.stdout) as { objects: number };
    if (restored.objects !== frames) throw new Error(`the restore wrote ${restored.objects} objects, not ${frames}`);
    return { store, frames, bytes, backupMs: backup.ms, restoreMs: restore.ms };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** What a command costs before it does anything (Node's start and the CLI's imports): the median of three `--help`. */
async function cliStart(): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) times.push((await overlook(['backup', '--help'], {})).ms);
  return Math.round(times.sort((a, b) => a - b)[1]!) / 1000;
}

const startBefore = await cliStart();
const runs: Run[] = [await once('fs', FRAMES)];
if (S3_FRAMES > 0) {
  const dir = mkdtempSync(join(tmpdir(), 'overlook-bench-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: 'site' }, { name: 'restored' }] });
  const { port } = await server.run();
  try {
    runs.push(await once('s3', S3_FRAMES, { endpoint: `http://127.0.0.1:${port}` }));
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const start = (startBefore + (await cliStart())) / 2;
const round = (n: number) => Math.round(n * 10) / 10;
/** MB/s over the command's whole time, and over its time less a command's start (the copy itself). */
const rows = runs.map((r) => {
  const mb = r.bytes / MB;
  const rate = (ms: number) => [round(mb / (ms / 1000)), round(mb / Math.max(ms / 1000 - start, 0.001))];
  const [backupRate, backupNet] = rate(r.backupMs);
  const [restoreRate, restoreNet] = rate(r.restoreMs);
  return {
    store: r.store,
    frames: r.frames,
    archive_mb: round(mb),
    backup_s: round(r.backupMs / 1000),
    backup_mb_s: backupRate,
    backup_mb_s_net: backupNet,
    restore_s: round(r.restoreMs / 1000),
    restore_mb_s: restoreRate,
    restore_mb_s_net: restoreNet,
  };
});
const cli_start_s = round(start);
const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}`;
console.log(`backup and restore, frames of ${FRAME_BYTES / 1024} KiB, SQLite; ${machine}; a command's start (in each time below): ${cli_start_s} s`);
console.table(rows);
console.log(JSON.stringify({ bench: 'backup', frame_kib: FRAME_BYTES / 1024, machine, cli_start_s, runs: rows }));
