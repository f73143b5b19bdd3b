// A footage clip covers the whole asked range: it starts on the keyframe at or before the asked start
// (told in x-start-date) and runs to at least the asked end, at odd offsets inside segments.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecorder, type TestRecorder } from '../../helpers/recorder.js';

let r: TestRecorder;
let deviceId: string;
/** Where the recording starts; segments of 4 s with keyframes every 2 s follow each other from here. */
const T0 = Date.parse('2026-03-02T10:00:00.000Z');
const SEGMENT_S = 4;

function probe(file: string): { firstPts: number; lastEnd: number; keyframes: number[] } {
  const out = execFileSync(
    'ffprobe',
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,duration_time,flags', '-of', 'csv=p=0', file],
    {
      encoding: 'utf8',
    },
  );
  const packets = out
    .trim()
    .split('\n')
    .map((l) => l.split(','))
    .map(([pts, dur, flags]) => ({ pts: Number(pts), dur: Number(dur) || 0.1, key: (flags ?? '').startsWith('K') }));
  const firstPts = Math.min(...packets.map((p) => p.pts));
  return {
    firstPts,
    lastEnd: Math.max(...packets.map((p) => p.pts + p.dur)) - firstPts,
    keyframes: packets.filter((p) => p.key).map((p) => p.pts - firstPts),
  };
}

beforeAll(async () => {
  r = await buildTestRecorder();
  const admin = r.bearer(r.adminToken);
  const res = await r.app.inject({
    method: 'POST',
    url: '/api/devices',
    headers: admin,
    payload: { name: 'Exact', type: 'file', stream_config: { path: r.video }, storage_config: { recording_mode: 'never' } },
  });
  deviceId = res.json().id;
  // Five 4 s MPEG-TS segments (10 fps, a keyframe every 2 s), indexed back to back as a recording would be.
  const work = join(r.dir, 'segments');
  mkdirSync(work, { recursive: true });
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=25', '-t', String(5 * SEGMENT_S)],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-g', '50', '-keyint_min', '50', '-sc_threshold', '0', '-pix_fmt', 'yuv420p'],
    ...['-f', 'segment', '-segment_time', String(SEGMENT_S), '-segment_format', 'mpegts', '-reset_timestamps', '1', join(work, 'seg_%03d.ts')],
  ]);
  const runId = await r.app.recorder.index.openRun(deviceId, 'main', new Date(T0));
  const files = readdirSync(work).sort();
  for (const [i, f] of files.entries()) {
    const rel = join(deviceId, 'main', `${i}.ts`);
    mkdirSync(join(r.config.storageRoot, deviceId, 'main'), { recursive: true });
    execFileSync('cp', [join(work, f), join(r.config.storageRoot, rel)]);
    await r.app.recorder.index.add({
      device_id: deviceId,
      stream: 'main',
      run_id: runId,
      start_date: new Date(T0 + i * SEGMENT_S * 1000).toISOString(),
      end_date: new Date(T0 + (i + 1) * SEGMENT_S * 1000).toISOString(),
      duration_ms: SEGMENT_S * 1000,
      path: rel,
      size: statSync(join(r.config.storageRoot, rel)).size,
    });
  }
}, 60_000);

afterAll(async () => {
  await r?.close();
});

describe('exact footage export', () => {
  // [asked start (ms after T0), asked duration (s)]: odd offsets inside a segment, across segments, on a keyframe.
  const cases: [number, number][] = [
    [4000 + 1300, 5.7],
    [4000 + 2700, 6.1],
    [1900, 9.05],
    [8000, 5],
  ];
  it.each(cases)('a clip asked from T0 + %i ms for %f s starts on the keyframe at or before and reaches the asked end', async (offsetMs, duration) => {
    const askedStart = T0 + offsetMs;
    const askedEnd = askedStart + duration * 1000;
    const res = await r.app.inject({
      method: 'GET',
      url: `/api/devices/${deviceId}/footage?start_date=${new Date(askedStart).toISOString()}&duration=${duration}`,
      headers: r.bearer(r.adminToken),
    });
    expect(res.statusCode).toBe(200);
    const trueStart = Date.parse(String(res.headers['x-start-date']));
    // The keyframe at or before the asked start: keyframes fall every 2 s from T0.
    expect(trueStart).toBe(T0 + Math.floor(offsetMs / 2000) * 2000);
    const file = join(r.dir, `clip-${offsetMs}.mp4`);
    writeFileSync(file, res.rawPayload);
    const clip = probe(file);
    expect(clip.keyframes[0]).toBe(0);
    // Its first frame is the keyframe x-start-date names (not shifted later in the file).
    expect(clip.firstPts).toBeLessThan(0.2); // B-frames put the first frame's presentation a frame or two after zero
    // The clip's first frame is at x-start-date (≤ the asked start) and its last frame ends at or after the asked end.
    expect(trueStart).toBeLessThanOrEqual(askedStart);
    expect(trueStart + clip.lastEnd * 1000).toBeGreaterThanOrEqual(askedEnd - 1);
  });
});
