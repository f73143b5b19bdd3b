// Turns an item's options into media: clips and timelapses are the recorded JPEGs of a range fed to
// ffmpeg through a concat list (each frame's local time carried as packet metadata, which drawtext
// prints), optionally with an uploaded logo overlaid; compares are the two frames nearest the before
// and after dates as an animated GIF and an MP4. Results and thumbnails go to the object store.
import { mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { ObjectStore } from '../storage/index.js';
import type { SnapshotEntry, SnapshotIndex } from '../recordings/index.js';
import { localStamp, selectFrames, type DailySchedule } from './frame-selection.js';
import { RenderError, runFfmpeg } from './ffmpeg-run.js';

export interface RenderDeps {
  ffmpegPath: string;
  storage: ObjectStore;
  snapshotIndex: SnapshotIndex;
  maxFrames: number;
}

export interface VideoOptions {
  /** Output width in pixels (even); the height follows the frames' aspect. */
  width: number;
  timestamp: boolean;
  logo_position?: 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';
}
interface TimelapseOptions extends VideoOptions {
  /** Seconds of video. */
  duration: number;
  schedule?: DailySchedule | null;
}
interface ClipOptions extends VideoOptions {
  /** Recorded frames shown per second. */
  fps: number;
}
interface CompareOptions {
  width: number;
  timestamp: boolean;
  before_date: string;
  after_date: string;
  /** Filled in by the render: the frames actually used. */
  before_frame?: string;
  after_frame?: string;
}

export interface RenderJob {
  id: string;
  projectId: string;
  kind: 'clip' | 'timelapse' | 'compare';
  camera: { id: string; timezone: string };
  from: string | null;
  to: string | null;
  options: Record<string, unknown>;
  logoKey: string | null;
}

export interface RenderResult {
  objectKey: string;
  gifKey: string | null;
  thumbnailKey: string;
  fileSize: number;
  contentType: string;
  /** Options with what the render found (compare frames), to store back. */
  options: Record<string, unknown>;
}

/** Output frame rate of clips and timelapses. */
const OUTPUT_FPS = 25;
const TIME_LIMIT_MS = 15 * 60_000;
const DRAW = 'font=DejaVu Sans:fontcolor=white:box=1:boxcolor=black@0.55:boxborderw=6';

export const mediaKey = (projectId: string, itemId: string, name: string) => `media-hub/${projectId}/${itemId}/${name}`;

export async function render(deps: RenderDeps, job: RenderJob, signal: AbortSignal): Promise<RenderResult> {
  const dir = await mkdtemp(join(tmpdir(), 'overlook-media-'));
  try {
    return job.kind === 'compare' ? await renderCompare(deps, job, dir, signal) : await renderVideo(deps, job, dir, signal);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function frameBytes(deps: RenderDeps, e: SnapshotEntry): Promise<Buffer> {
  const b = await deps.storage.getBytes(e.objectKey);
  if (!b) throw new RenderError(`the recorded frame of ${e.takenAt} is missing from storage`);
  return b;
}

/** Even output height for `width`, from the first frame's aspect. */
async function heightFor(jpeg: Buffer, width: number): Promise<number> {
  const m = await sharp(jpeg)
    .metadata()
    .catch(() => null);
  if (!m?.width || !m.height) throw new RenderError('a recorded frame is not a readable image');
  return Math.max(2, Math.round((width * m.height) / m.width / 2) * 2);
}

const fontSize = (height: number) => Math.max(10, Math.round(height / 22));

async function thumbnail(deps: RenderDeps, job: RenderJob, jpeg: Buffer): Promise<string> {
  const key = mediaKey(job.projectId, job.id, 'thumbnail.jpg');
  const thumb = await sharp(jpeg).resize({ width: 320, withoutEnlargement: true }).jpeg({ quality: 80 }).toBuffer();
  await deps.storage.put(key, thumb, 'image/jpeg');
  return key;
}

function overlayXY(pos: VideoOptions['logo_position']): string {
  switch (pos) {
    case 'top-left':
      return '10:10';
    case 'bottom-left':
      return '10:H-h-10';
    case 'bottom-right':
      return 'W-w-10:H-h-10';
    default:
      return 'W-w-10:10';
  }
}

async function renderVideo(deps: RenderDeps, job: RenderJob, dir: string, signal: AbortSignal): Promise<RenderResult> {
  const o = job.options as unknown as TimelapseOptions & ClipOptions;
  if (!job.from || !job.to) throw new RenderError('the item has no time range');
  const timelapse = job.kind === 'timelapse';
  const cap = timelapse ? Math.min(deps.maxFrames, Math.max(1, Math.round(o.duration * OUTPUT_FPS))) : deps.maxFrames;
  const frames = await selectFrames(deps.snapshotIndex, job.camera, { from: job.from, to: job.to, schedule: timelapse ? o.schedule : null }, cap);
  if (frames.length === 0) {
    throw new RenderError(`no recorded frames between ${job.from} and ${job.to}${timelapse && o.schedule ? ' inside the schedule' : ''}`);
  }
  // Each frame on screen for an equal share of the duration (timelapse) or 1/fps seconds (clip).
  const perFrame = timelapse ? o.duration / frames.length : 1 / o.fps;
  const lines = ['ffconcat version 1.0'];
  let first: Buffer | null = null;
  let last: Buffer | null = null;
  for (const [i, e] of frames.entries()) {
    const bytes = await frameBytes(deps, e);
    first ??= bytes;
    last = bytes;
    const name = `f${String(i).padStart(6, '0')}.jpg`;
    await writeFile(join(dir, name), bytes);
    lines.push(`file ${name}`, `file_packet_meta stamp '${localStamp(job.camera.timezone, Date.parse(e.takenAt))}'`, `duration ${perFrame.toFixed(6)}`);
  }
  // The concat demuxer ignores the last entry's duration unless the file is listed once more.
  lines.push(lines[lines.length - 3]!, lines[lines.length - 2]!);
  await writeFile(join(dir, 'frames.txt'), lines.join('\n') + '\n');

  const width = o.width;
  const height = await heightFor(first!, width);
  const chain = [`scale=${width}:${height}`, 'setsar=1'];
  // `\\:` survives both levels of filter-graph escaping as the `:` inside %{metadata:…}.
  if (o.timestamp) chain.push(`drawtext=${DRAW}:fontsize=${fontSize(height)}:text=%{metadata\\\\:stamp}:x=10:y=h-th-12`);
  const inputs = ['-f', 'concat', '-safe', '0', '-i', 'frames.txt'];
  let graph = `[0:v]${chain.join(',')}`;
  if (job.logoKey) {
    const logo = await deps.storage.getBytes(job.logoKey);
    if (!logo) throw new RenderError('the logo is missing from storage');
    await writeFile(join(dir, 'logo.png'), logo);
    inputs.push('-i', 'logo.png');
    graph += `[v];[1:v]scale=${Math.max(2, Math.round(width / 6))}:-1[l];[v][l]overlay=${overlayXY(o.logo_position)}`;
  }
  graph += `,fps=${OUTPUT_FPS},format=yuv420p[out]`;
  const duration = timelapse ? o.duration : frames.length * perFrame;
  await runFfmpeg(
    deps.ffmpegPath,
    [
      ...inputs,
      '-filter_complex',
      graph,
      '-map',
      '[out]',
      '-t',
      duration.toFixed(3),
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '26',
      '-movflags',
      '+faststart',
      'out.mp4',
    ],
    { cwd: dir, signal, timeoutMs: TIME_LIMIT_MS },
  );
  const mp4 = await readFile(join(dir, 'out.mp4'));
  const objectKey = mediaKey(job.projectId, job.id, 'video.mp4');
  await deps.storage.put(objectKey, mp4, 'video/mp4');
  const thumbnailKey = await thumbnail(deps, job, last!);
  return { objectKey, gifKey: null, thumbnailKey, fileSize: mp4.length, contentType: 'video/mp4', options: { ...job.options, frames: frames.length } };
}

async function renderCompare(deps: RenderDeps, job: RenderJob, dir: string, signal: AbortSignal): Promise<RenderResult> {
  const o = job.options as unknown as CompareOptions;
  const before = await deps.snapshotIndex.nearest(job.camera.id, new Date(o.before_date));
  const after = await deps.snapshotIndex.nearest(job.camera.id, new Date(o.after_date));
  if (!before || !after) throw new RenderError('the camera has no recorded frames to compare');
  if (before.takenAt === after.takenAt) throw new RenderError(`the before and after dates find the same recorded frame (${before.takenAt})`);
  const a = await frameBytes(deps, before);
  const b = await frameBytes(deps, after);
  await writeFile(join(dir, 'before.jpg'), a);
  await writeFile(join(dir, 'after.jpg'), b);
  const height = await heightFor(a, o.width);
  // Captions come from files: no user or time text is ever parsed as filter-graph syntax.
  await writeFile(join(dir, 'before.txt'), `Before  ${localStamp(job.camera.timezone, Date.parse(before.takenAt))}`);
  await writeFile(join(dir, 'after.txt'), `After  ${localStamp(job.camera.timezone, Date.parse(after.takenAt))}`);
  const label = (f: string) => (o.timestamp ? `,drawtext=${DRAW}:fontsize=${fontSize(height)}:expansion=none:textfile=${f}:x=10:y=h-th-12` : '');
  const inputs = ['-loop', '1', '-t', '1.5', '-i', 'before.jpg', '-loop', '1', '-t', '1.5', '-i', 'after.jpg'];
  const base = `[0:v]scale=${o.width}:${height},setsar=1${label('before.txt')}[a];[1:v]scale=${o.width}:${height},setsar=1${label('after.txt')}[b];[a][b]concat=n=2:v=1`;
  const opts = { cwd: dir, signal, timeoutMs: TIME_LIMIT_MS };
  await runFfmpeg(
    deps.ffmpegPath,
    [...inputs, '-filter_complex', `${base},fps=5,split[x][y];[x]palettegen[p];[y][p]paletteuse[out]`, '-map', '[out]', '-loop', '0', 'out.gif'],
    opts,
  );
  await runFfmpeg(
    deps.ffmpegPath,
    [
      ...inputs,
      '-filter_complex',
      `${base},fps=${OUTPUT_FPS},format=yuv420p[out]`,
      '-map',
      '[out]',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '26',
      '-movflags',
      '+faststart',
      'out.mp4',
    ],
    opts,
  );
  const mp4 = await readFile(join(dir, 'out.mp4'));
  const gif = await readFile(join(dir, 'out.gif'));
  const objectKey = mediaKey(job.projectId, job.id, 'compare.mp4');
  const gifKey = mediaKey(job.projectId, job.id, 'compare.gif');
  await deps.storage.put(objectKey, mp4, 'video/mp4');
  await deps.storage.put(gifKey, gif, 'image/gif');
  const thumbnailKey = await thumbnail(deps, job, b);
  return {
    objectKey,
    gifKey,
    thumbnailKey,
    fileSize: mp4.length,
    contentType: 'video/mp4',
    options: { ...job.options, before_frame: before.takenAt, after_frame: after.takenAt },
  };
}
