// Footage export: an MP4 clip remuxed (stream copy, never transcoded) from the stored segments, from
// the keyframe at or before the requested start. Gaps in the recording are skipped, so the clip holds
// only what was recorded. This file decides what the clip is (segments, in-point, length); ffmpeg
// writes it as a fragmented MP4 straight to the client (`clip-senders.ts`): nothing is written to
// disk, so there is nothing to clean up.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { ApiError, validation } from '../../lib/errors.js';
import type { Segment, SegmentIndex } from '../recordings/index.js';
import { clipKeyframes } from './keyframes.js';
import { timeParam } from '../http/index.js';
import { pipeClip, sendClipOverSocket } from './clip-senders.js';
import type { Clip } from './clip.js';

const MIN_CLIP_S = 5;
const MAX_CLIP_S = 2 * 60 * 60;

export interface ClipRequest {
  start: Date;
  end: Date;
}

/** Reads `start_date` with `end_date` or `duration` (seconds) into a range, or a 400 naming the field. */
export function clipRange(q: { start_date?: string; end_date?: string; duration?: number }): ClipRequest {
  if (!q.start_date) throw validation('start_date', 'is required');
  const start = timeParam('start_date', q.start_date);
  if ((q.end_date === undefined) === (q.duration === undefined)) throw validation('end_date', 'give either end_date or duration, not both or neither');
  let end: Date;
  if (q.end_date !== undefined) {
    end = timeParam('end_date', q.end_date);
  } else {
    end = new Date(start.getTime() + q.duration! * 1000);
  }
  const seconds = (end.getTime() - start.getTime()) / 1000;
  const field = q.end_date !== undefined ? 'end_date' : 'duration';
  if (seconds < MIN_CLIP_S || seconds > MAX_CLIP_S)
    throw validation(field, `a clip is ${MIN_CLIP_S} s to ${MAX_CLIP_S / 3600} h long; this one is ${seconds} s`);
  return { start, end };
}

export class FootageExporter {
  constructor(
    private readonly index: SegmentIndex,
    private readonly storageRoot: string,
    private readonly tools: { ffmpeg: string; ffprobe: string },
  ) {}

  /** The clip as a readable body (ffmpeg's stdout), for replies ffmpeg cannot write into itself. */
  stream(clip: Clip): Promise<Readable> {
    return pipeClip(this.tools.ffmpeg, clip);
  }

  /** The clip written by ffmpeg straight into the client's socket (see `clip-senders.ts`). */
  sendOverSocket(clip: Clip, res: ServerResponse, socket: Socket, headers: Record<string, string>): Promise<void> {
    return sendClipOverSocket(this.tools.ffmpeg, clip, res, socket, headers);
  }

  /** Plans the clip: a 404 when nothing was recorded in the range. */
  async plan(deviceId: string, stream: string, req: ClipRequest): Promise<Clip> {
    const segments = await this.index.overlapping(deviceId, stream, req.start.toISOString(), req.end.toISOString());
    if (segments.length === 0) throw new ApiError('NOT_FOUND', 'Nothing was recorded in that range');
    const first = segments[0]!;
    const last = segments[segments.length - 1]!;
    const startOf = (s: Segment) => Date.parse(s.start_date);
    // Where in the first segment the clip begins: the keyframe at or before the requested start.
    const wanted = Math.max(0, (req.start.getTime() - startOf(first)) / 1000);
    // Segments are cut on keyframes, so a clip from a segment's first frame needs no probe (an export
    // from the hour or from a segment's start, the usual ask, starts streaming a tenth of a second sooner).
    const kfs = wanted < 0.0005 ? [] : await clipKeyframes(this.tools.ffprobe, join(this.storageRoot, first.path), wanted);
    // The first keyframe is the segment's start: starting there needs no in-point.
    const kf = kfs.filter((k) => k.offset <= wanted + 0.0005).pop();
    const inpoint = kf && kf.offset > 0 ? kf : null;
    const trueStart = startOf(first) + Math.round((inpoint?.offset ?? 0) * 1000);
    let gapMs = 0;
    for (let i = 1; i < segments.length; i++) gapMs += Math.max(0, startOf(segments[i]!) - Date.parse(segments[i - 1]!.end_date));
    // What the clip can hold: from the true start to the requested end, less the gaps it skips.
    const seconds = Math.max(0.1, (Math.min(req.end.getTime(), Date.parse(last.end_date)) - trueStart - gapMs) / 1000);

    const list = segments.map((s, i) => {
      // `file:` because the list itself comes through a pipe, and relative entries would resolve against it.
      const lines = [`file 'file:${join(this.storageRoot, s.path).replace(/'/g, "'\\''")}'`];
      if (i === 0 && inpoint) lines.push(`inpoint ${inpoint.dts.toFixed(6)}`);
      return lines.join('\n');
    });
    const length = seconds.toFixed(3);
    return {
      start: new Date(trueStart),
      gapSeconds: gapMs / 1000,
      list: list.join('\n') + '\n',
      args: (output) => [
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'concat',
        '-safe',
        '0',
        '-protocol_whitelist',
        'file,pipe',
        '-i',
        'pipe:0',
        '-map',
        '0:v:0',
        '-c',
        'copy',
        '-t',
        length,
        '-movflags',
        'frag_keyframe+empty_moov+default_base_moof',
        '-f',
        'mp4',
        output,
      ],
    };
  }
}
