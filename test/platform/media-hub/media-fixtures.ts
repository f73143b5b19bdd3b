// Shared by the media hub tests: real recorded frames (sharp-made JPEGs whose colour and a moving
// square change from frame to frame), polling an item until its render ends, and ffprobe on results.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { snapshotKey } from '../../../src/platform/recordings/snapshot-index.js';
import type { TestPlatform } from '../../helpers/platform.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

const run = promisify(execFile);

async function cameraId(tp: TestPlatform, exid: string): Promise<string> {
  return (await tp.t.db.kysely.selectFrom('cameras').select('id').where('exid', '=', exid).executeTakeFirstOrThrow()).id;
}

/** A 160×120 JPEG: background hue and a white square's position follow `i`. */
async function frame(i: number): Promise<Buffer> {
  const square = await sharp({ create: { width: 24, height: 24, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 160, height: 120, channels: 3, background: { r: (i * 40) % 256, g: 80, b: 255 - ((i * 40) % 256) } } })
    .composite([{ input: square, left: (i * 7) % 130, top: 40 }])
    .jpeg()
    .toBuffer();
}

/** Stores a recorded frame at each time, as the cloud recorder does. */
export async function storeFrames(tp: TestPlatform, cameraExid: string, times: Date[]): Promise<void> {
  const id = await cameraId(tp, cameraExid);
  for (const [i, at] of times.entries()) {
    const jpeg = await frame(i);
    const key = snapshotKey(id, at);
    await servicesOf(tp.app).storage.put(key, jpeg, 'image/jpeg');
    await servicesOf(tp.app).snapshotIndex.add({ cameraId: id, takenAt: at, objectKey: key, size: jpeg.length, source: 'schedule' });
  }
}

/** Polls the item until its status is one of `want` (or another final one), within a deadline. */
export async function waitForStatus(
  tp: TestPlatform,
  headers: Record<string, string>,
  url: string,
  want: string[] = ['completed', 'failed'],
  deadlineMs = 30_000,
): Promise<Record<string, any>> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const res = await tp.app.inject({ method: 'GET', url, headers });
    if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body}`);
    const item = res.json();
    if (want.includes(item.status)) return item;
    if (Date.now() > end) throw new Error(`${url} still ${item.status} after ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface Probe {
  duration: number;
  codec: string;
  width: number;
  height: number;
  frames: number;
}

/** ffprobe's view of a media file (decodes every frame to count them). */
export async function probe(bytes: Buffer, ext: string): Promise<Probe> {
  const dir = mkdtempSync(join(tmpdir(), 'overlook-probe-'));
  try {
    const file = join(dir, `f.${ext}`);
    writeFileSync(file, bytes);
    const { stdout } = await run('ffprobe', [
      '-v',
      'error',
      '-count_frames',
      '-select_streams',
      'v:0',
      '-show_entries',
      'format=duration:stream=codec_name,width,height,nb_read_frames',
      '-of',
      'json',
      file,
    ]);
    const j = JSON.parse(stdout);
    const s = j.streams[0];
    return { duration: Number(j.format.duration), codec: s.codec_name, width: s.width, height: s.height, frames: Number(s.nb_read_frames) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Extracts one decoded frame (PNG) of a video at time `t` seconds. */
export async function frameAt(bytes: Buffer, ext: string, t: number): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'overlook-probe-'));
  try {
    const file = join(dir, `f.${ext}`);
    writeFileSync(file, bytes);
    await run('ffmpeg', ['-v', 'error', '-ss', String(t), '-i', file, '-frames:v', '1', join(dir, 'out.png')]);
    return await sharp(join(dir, 'out.png')).png().toBuffer();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
