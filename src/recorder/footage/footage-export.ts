// Footage export: an MP4 clip remuxed (stream copy, never transcoded) from the stored segments, from
// the keyframe at or before the requested start. Gaps in the recording are skipped, so the clip holds
// only what was recorded. The clip is built in a private temporary folder that is always removed.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError, validation } from '../../lib/errors.js';
import type { Segment, SegmentIndex } from '../recordings/segment-index.js';
import { keyframes } from '../recording/ffprobe.js';

export const MIN_CLIP_S = 5;
export const MAX_CLIP_S = 2 * 60 * 60;

export interface ClipRequest {
  start: Date;
  end: Date;
}

export interface Clip {
  file: string;
  /** The true start: the keyframe the clip begins on. */
  start: Date;
  /** Recorded seconds missing inside the range (gaps between segments). */
  gapSeconds: number;
  cleanup(): Promise<void>;
}

/** Reads `start_date` with `end_date` or `duration` (seconds) into a range, or a 400 naming the field. */
export function clipRange(q: { start_date?: string; end_date?: string; duration?: number }): ClipRequest {
  if (!q.start_date) throw validation('start_date', 'is required');
  const start = new Date(q.start_date);
  if (Number.isNaN(start.getTime())) throw validation('start_date', 'must be an ISO 8601 date-time');
  if ((q.end_date === undefined) === (q.duration === undefined)) throw validation('end_date', 'give either end_date or duration, not both or neither');
  let end: Date;
  if (q.end_date !== undefined) {
    end = new Date(q.end_date);
    if (Number.isNaN(end.getTime())) throw validation('end_date', 'must be an ISO 8601 date-time');
  } else {
    end = new Date(start.getTime() + q.duration! * 1000);
  }
  const seconds = (end.getTime() - start.getTime()) / 1000;
  const field = q.end_date !== undefined ? 'end_date' : 'duration';
  if (seconds < MIN_CLIP_S || seconds > MAX_CLIP_S) throw validation(field, `a clip is ${MIN_CLIP_S} s to ${MAX_CLIP_S / 3600} h long; this one is ${seconds} s`);
  return { start, end };
}

function runFfmpeg(ffmpeg: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(ffmpeg, args, { timeout: 10 * 60_000, maxBuffer: 4 * 1024 * 1024 }, (err, _out, stderr) => (err ? reject(new Error(`ffmpeg failed: ${String(stderr).slice(-500)}`)) : resolve()));
  });
}

export class FootageExporter {
  constructor(
    private readonly index: SegmentIndex,
    private readonly storageRoot: string,
    private readonly tmpRoot: string,
    private readonly tools: { ffmpeg: string; ffprobe: string },
  ) {}

  async export(deviceId: string, stream: string, req: ClipRequest): Promise<Clip> {
    const segments = await this.index.overlapping(deviceId, stream, req.start.toISOString(), req.end.toISOString());
    if (segments.length === 0) throw new ApiError('NOT_FOUND', 'Nothing was recorded in that range');
    const first = segments[0]!;
    const last = segments[segments.length - 1]!;
    const startOf = (s: Segment) => Date.parse(s.start_date);
    // Where in the first segment the clip begins: the keyframe at or before the requested start.
    const wanted = Math.max(0, (req.start.getTime() - startOf(first)) / 1000);
    const kfs = await keyframes({ ffprobe: this.tools.ffprobe }, join(this.storageRoot, first.path));
    const inpoint = kfs.relative.filter((k) => k <= wanted + 0.0005).pop() ?? 0;
    const trueStart = startOf(first) + Math.round(inpoint * 1000);
    let gapMs = 0;
    for (let i = 1; i < segments.length; i++) gapMs += Math.max(0, startOf(segments[i]!) - Date.parse(segments[i - 1]!.end_date));
    // What the clip can hold: from the true start to the requested end, less the gaps it skips.
    const seconds = Math.max(0.1, (Math.min(req.end.getTime(), Date.parse(last.end_date)) - trueStart - gapMs) / 1000);

    const dir = await mkdtemp(join(this.tmpRoot, 'footage-'));
    const cleanup = () => rm(dir, { recursive: true, force: true });
    try {
      const list = segments.map((s, i) => {
        const lines = [`file '${join(this.storageRoot, s.path).replace(/'/g, "'\\''")}'`];
        if (i === 0 && inpoint > 0) lines.push(`inpoint ${(kfs.first + inpoint).toFixed(3)}`);
        return lines.join('\n');
      });
      await writeFile(join(dir, 'list.txt'), list.join('\n') + '\n');
      const out = join(dir, 'clip.mp4');
      await runFfmpeg(this.tools.ffmpeg, ['-hide_banner', '-loglevel', 'error', '-f', 'concat', '-safe', '0', '-i', join(dir, 'list.txt'), '-map', '0:v:0', '-c', 'copy', '-t', seconds.toFixed(3), '-movflags', '+faststart', '-f', 'mp4', out]);
      return { file: out, start: new Date(trueStart), gapSeconds: gapMs / 1000, cleanup };
    } catch (err) {
      await cleanup();
      throw err;
    }
  }
}
