// `overlook backup` and `overlook restore` throughput: a data dir holding N stored frames (random bytes
// of a 1080p JPEG's size, so nothing compresses), backed up and restored by the built CLI, each timed
// from its start to its exit. Then the same with the frames in an S3 bucket (s3rver, in this process):
// the backup streams them out of one bucket, the restore puts them into another.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { S3ObjectStore } from '../src/platform/storage/index.js';

const ROOT = join(import.meta.dirname, '..');
const CLI = process.env.BENCH_CLI ?? join(ROOT, 'dist', 'cli.js');
const FRAMES = Number(process.env.BENCH_BACKUP_FRAMES ?? 1000);
const S3_FRAMES = Number(process.env.BENCH_BACKUP_S3_FRAMES ?? 200);
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
  archive_mb: number;
  backup_s: number;
  backup_mb_s: number;
  restore_s: number;
  restore_mb_s: number;
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
    const round = (n: number) => Math.round(n * 10) / 10;
    return {
      store,
      frames,
      archive_mb: round(bytes / MB),
      backup_s: round(backup.ms / 1000),
      backup_mb_s: round(bytes / MB / (backup.ms / 1000)),
      restore_s: round(restore.ms / 1000),
      restore_mb_s: round(bytes / MB / (restore.ms / 1000)),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

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

const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}`;
console.log(`backup and restore, frames of ${FRAME_BYTES / 1024} KiB, SQLite; ${machine}`);
console.table(runs);
console.log(JSON.stringify({ bench: 'backup', frame_kib: FRAME_BYTES / 1024, machine, runs }));
