// Footage export: an MP4 clip remuxed (stream copy, never transcoded) from the stored segments, from
// the keyframe at or before the requested start. Gaps in the recording are skipped, so the clip holds
// only what was recorded. ffmpeg writes a fragmented MP4 to its stdout, which goes straight into the
// response: the download starts at once, nothing is written to disk, so there is nothing to clean up.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
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
  /** The MP4, as ffmpeg writes it; it errors (never ends cleanly) if ffmpeg fails half-way. */
  body: Readable;
  /** The true start: the keyframe the clip begins on. */
  start: Date;
  /** Recorded seconds missing inside the range (gaps between segments). */
  gapSeconds: number;
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

/** The longest an export may run before ffmpeg is stopped. */
const EXPORT_TIMEOUT_MS = 10 * 60_000;

/**
 * Runs ffmpeg with the concat list on its stdin and returns its stdout once the first bytes are out,
 * so a failure before that is still an ordinary error (a 5xx), not a broken download.
 */
async function streamFfmpeg(ffmpeg: string, args: string[], stdin: string): Promise<Readable> {
  const child = spawn(ffmpeg, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    if (stderr.length < 8000) stderr += d;
  });
  child.stdin.on('error', () => {}); // ffmpeg may stop reading early; its exit code tells.
  child.stdin.end(stdin);
  const timer = setTimeout(() => child.kill('SIGKILL'), EXPORT_TIMEOUT_MS);
  // Ends only when ffmpeg exits cleanly; otherwise errors, so the response is cut, not falsely complete.
  const body = new PassThrough();
  child.stdout.pipe(body, { end: false });
  const exited = new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) {
        body.end();
        resolve();
      } else {
        const err = new Error(`ffmpeg failed (${signal ?? code}): ${stderr.slice(-500)}`);
        body.destroy(err);
        reject(err);
      }
    });
  });
  exited.catch(() => {});
  // A client that goes away stops the export.
  body.once('close', () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  await Promise.race([new Promise((r) => child.stdout.once('readable', r)), exited]);
  if (body.destroyed) await exited; // throws ffmpeg's error
  return body;
}

export class FootageExporter {
  constructor(
    private readonly index: SegmentIndex,
    private readonly storageRoot: string,
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

    const list = segments.map((s, i) => {
      // `file:` because the list itself comes through a pipe, and relative entries would resolve against it.
      const lines = [`file 'file:${join(this.storageRoot, s.path).replace(/'/g, "'\\''")}'`];
      if (i === 0 && inpoint > 0) lines.push(`inpoint ${(kfs.first + inpoint).toFixed(3)}`);
      return lines.join('\n');
    });
    const body = await streamFfmpeg(
      this.tools.ffmpeg,
      ['-hide_banner', '-loglevel', 'error', '-f', 'concat', '-safe', '0', '-protocol_whitelist', 'file,pipe', '-i', 'pipe:0', '-map', '0:v:0', '-c', 'copy', '-t', seconds.toFixed(3),
        '-movflags', 'frag_keyframe+empty_moov+default_base_moof', '-f', 'mp4', 'pipe:1'],
      list.join('\n') + '\n',
    );
    return { body, start: new Date(trueStart), gapSeconds: gapMs / 1000 };
  }
}
