// After a crash (kill -9, power loss) the recorder starts by putting its storage back in order:
// orphaned ffmpeg processes of the last life are stopped, every segment left in a staging folder is
// probed: complete or partial but readable, it is moved into place and indexed after the last indexed
// segment of its run; unreadable, it is deleted. Runs left active are closed.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SegmentIndex } from '../recordings/index.js';
import { probeDuration } from './ffprobe.js';
import { segmentRelPath, stagingRoot } from './segment-layout.js';

export interface RecoveryReport {
  indexed: number;
  removed: number;
  orphansStopped: number;
}

function stopOrphan(pid: number, stagingPath: string): boolean {
  try {
    // Only if that pid is still an ffmpeg writing into this very folder (pids get reused).
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (!cmdline.includes(stagingPath)) return false;
    process.kill(pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}

async function waitGone(pid: number): Promise<void> {
  for (let i = 0; i < 50; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function recoverStorage(opts: {
  storageRoot: string;
  index: SegmentIndex;
  ffprobe: string;
  deviceIds: string[];
  streams: readonly string[];
}): Promise<RecoveryReport> {
  const report: RecoveryReport = { indexed: 0, removed: 0, orphansStopped: 0 };
  for (const deviceId of opts.deviceIds) {
    for (const stream of opts.streams) {
      const root = stagingRoot(opts.storageRoot, deviceId, stream);
      if (!existsSync(root)) continue;
      for (const runId of readdirSync(root)) {
        const dir = join(root, runId);
        let meta: { pid?: number; started_at?: string; names?: string } = {};
        try {
          meta = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
        } catch {
          /* no metadata: segments are placed from the run's last indexed segment, or dropped */
        }
        // A live-only ffmpeg writes no segments here: its command line names its live folder instead.
        const names = typeof meta.names === 'string' && meta.names.startsWith(join(opts.storageRoot, deviceId)) ? meta.names : dir;
        if (meta.pid && stopOrphan(meta.pid, names)) {
          report.orphansStopped++;
          await waitGone(meta.pid);
        }
        const files = readdirSync(dir)
          .filter((f) => f.endsWith('.ts'))
          .sort();
        let last = await opts.index.lastOfRun(runId);
        let cursor = last ? Date.parse(last.end_date) : meta.started_at ? Date.parse(meta.started_at) : NaN;
        for (const f of files) {
          const staged = join(dir, f);
          const duration = await probeDuration({ ffprobe: opts.ffprobe }, staged);
          if (duration === null || duration < 0.1 || Number.isNaN(cursor)) {
            rmSync(staged, { force: true });
            report.removed++;
            continue;
          }
          const start = new Date(cursor);
          const end = new Date(cursor + Math.round(duration * 1000));
          const rel = segmentRelPath(deviceId, stream, start);
          mkdirSync(dirname(join(opts.storageRoot, rel)), { recursive: true });
          renameSync(staged, join(opts.storageRoot, rel));
          last = await opts.index.add({
            device_id: deviceId,
            stream,
            run_id: runId,
            start_date: start.toISOString(),
            end_date: end.toISOString(),
            duration_ms: Math.round(duration * 1000),
            path: rel,
            size: statSync(join(opts.storageRoot, rel)).size,
          });
          cursor = end.getTime();
          report.indexed++;
        }
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  await opts.index.closeAllRuns();
  return report;
}
