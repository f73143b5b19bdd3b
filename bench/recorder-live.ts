// Recorder live view benchmark, three parts:
//  1. Start-up: from `POST /api/devices` (a looping `file` device, 60 s recording segments) to the
//     first playable live playlist (listed, and its first segment fetched), and to the first H.264
//     keyframe over WebRTC (WHEP offer answered, SPS and IDR received). p50 and p95 over trials.
//     The recorder is the CLI in its own process, as in bench/recorder.ts.
//  2. Latency, glass to viewer: the bench itself is the camera. It draws the wall-clock time (ms, as
//     24 black/white blocks across the top of each frame) into raw frames at 10 fps, a zero-latency
//     x264 encodes them to MPEG-TS, and the recorder's own ffmpeg command (recordArgs: recording +
//     live HLS + RTP, stream copy) reads that as its input. Viewers decode what they receive and read
//     the blocks back: latency = arrival of the decoded frame − the time drawn into it. WebRTC: the
//     recorder's RtpFeeds + WhepSessions to a werift viewer. HLS: a viewer that polls the live
//     playlist every 100 ms and fetches each new segment at once; its latency is that of the
//     segment's first frame when it is first listed (an hls.js player at its default live edge,
//     three segments back, adds about two more segment lengths). Includes the "camera" encode.
//     This part runs the pipeline in the bench process, not behind HTTP.
//  3. Load: file devices one recorder process records with the live view on, next to the same with
//     OVERLOOK_RECORDER_LIVE=off: CPU and memory per device, and whether every device kept
//     recording (and had a fresh live playlist).
// Counts: BENCH_LIVE_TRIALS (5), BENCH_LIVE_LATENCY_SECONDS (20), BENCH_LIVE_DEVICES ("4,8,16"),
// BENCH_LIVE_WINDOW (15 s); BENCH_LIVE_PARTS (startup,latency,load). BENCH_FROM_SOURCE=1 runs the recorder from src/ (tsx) instead of dist/.
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { RTCPeerConnection, RTCRtpCodecParameters, type RtpPacket } from 'werift';
import { livePlaylist } from '../src/recorder/hls/live-playlist.js';
import { RtpFeeds } from '../src/recorder/live/rtp-feeds.js';
import { WhepSessions } from '../src/recorder/live/whep-sessions.js';
import { recordArgs } from '../src/recorder/recording/ffmpeg-args.js';
import { TICKS_PER_S, usage } from './process-usage.js';

const ROOT = join(import.meta.dirname, '..');
const CLI = process.env.BENCH_FROM_SOURCE ? ['--import', 'tsx', join(ROOT, 'src', 'cli.ts')] : [join(ROOT, 'dist', 'cli.js')];
const TRIALS = Number(process.env.BENCH_LIVE_TRIALS ?? 5);
const LATENCY_S = Number(process.env.BENCH_LIVE_LATENCY_SECONDS ?? 20);
const LEVELS = (process.env.BENCH_LIVE_DEVICES ?? '4,8,16').split(',').map(Number);
const WINDOW_S = Number(process.env.BENCH_LIVE_WINDOW ?? 15);
const PARTS = (process.env.BENCH_LIVE_PARTS ?? 'startup,latency,load').split(',');
const exec = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const progress = (what: string) => process.stderr.write(`[bench/recorder-live] ${new Date().toISOString().slice(11, 19)} ${what}\n`);
const pct = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]! : NaN);
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

const H264 = () =>
  new RTCRtpCodecParameters({
    mimeType: 'video/H264',
    clockRate: 90000,
    rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }],
    parameters: 'profile-level-id=42e01f;packetization-mode=1;level-asymmetry-allowed=1',
  });

/** A receive-only WebRTC viewer; `onRtp` sees every packet. */
async function viewer(onRtp: (rtp: RtpPacket) => void) {
  const pc = new RTCPeerConnection({ codecs: { video: [H264()] } });
  const t = pc.addTransceiver('video', { direction: 'recvonly' });
  t.onTrack.subscribe((track) => track.onReceiveRtp.subscribe((rtp) => onRtp(rtp)));
  await pc.setLocalDescription(await pc.createOffer());
  return pc;
}
/** The NAL unit types an H.264 RTP payload carries (a STAP-A aggregates several, a FU-A names its own). */
function nalTypes(payload: Buffer): number[] {
  const type = payload[0]! & 0x1f;
  if (type === 28) return [payload[1]! & 0x1f];
  if (type !== 24) return [type];
  const types: number[] = [];
  for (let i = 1; i + 2 < payload.length; i += 2 + payload.readUInt16BE(i)) types.push(payload[i + 2]! & 0x1f);
  return types;
}

// --- 1. Start-up, through the recorder's HTTP API ---------------------------------------------------

async function startRecorder(dataDir: string, env: Record<string, string>) {
  const mediaDir = join(dataDir, 'media');
  const full = { ...process.env, OVERLOOK_LOG_LEVEL: 'warn', OVERLOOK_RECORDER_MEDIA_DIR: mediaDir, ...env };
  const made = spawnSync(
    process.execPath,
    [...CLI, 'recorder', 'users', 'create', '--email', 'bench@site.example', '--password', 'bench-password-1', '--role', 'admin', '--data-dir', dataDir],
    {
      env: full,
      encoding: 'utf8',
    },
  );
  if (made.status !== 0) throw new Error(made.stderr);
  const proc = spawn(process.execPath, [...CLI, 'recorder', 'serve', '--data-dir', dataDir, '--port', '0'], {
    env: full,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(proc);
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = /recorder listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    proc.once('exit', (code) => reject(new Error(`recorder exited ${code}: ${out}`)));
  });
  const login = await fetch(`${url}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench@site.example', password: 'bench-password-1' }),
  });
  const token = ((await login.json()) as { access_token: string }).access_token;
  const auth = { authorization: `Bearer ${token}` };
  const addDevice = async (path: string) => {
    const res = await fetch(`${url}/api/devices`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench', type: 'file', stream_config: { path } }),
    });
    if (res.status !== 201) throw new Error(`create device: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { id: string }).id;
  };
  const removeDevice = (id: string) => fetch(`${url}/api/devices/${id}`, { method: 'DELETE', headers: auth });
  const stop = () =>
    new Promise<void>((r) => {
      if (proc.exitCode !== null) return r();
      proc.once('exit', () => r());
      proc.kill('SIGTERM');
    });
  return { proc, url, token, auth, mediaDir, addDevice, removeDevice, stop };
}
type Recorder = Awaited<ReturnType<typeof startRecorder>>;

async function makeSource(file: string, seconds = 20) {
  await exec('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=15', '-t', String(seconds)],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '15', '-pix_fmt', 'yuv420p', file],
  ]);
}

async function firstPlaylist(rec: Recorder, id: string, t0: number): Promise<number> {
  for (;;) {
    const res = await fetch(`${rec.url}/api/devices/${id}/hls/index.m3u8?token=${rec.token}`);
    if (res.status === 200) {
      const uri = (await res.text()).split('\n').find((l) => l.startsWith('segments/'));
      if (uri && (await fetch(`${rec.url}/api/devices/${id}/hls/${uri}`)).status === 200) return Date.now() - t0;
    } else await res.body?.cancel();
    if (Date.now() - t0 > 30_000) throw new Error('no live playlist within 30 s');
    await sleep(50);
  }
}

async function firstWebrtcKeyframe(rec: Recorder, id: string, t0: number): Promise<number> {
  let seen = 0;
  let done: (() => void) | undefined;
  const keyframe = new Promise<void>((r) => {
    done = r;
  });
  const pc = await viewer((rtp) => {
    for (const n of nalTypes(rtp.payload)) {
      if (n === 7) seen |= 1;
      if (n === 5) seen |= 2;
    }
    if (seen === 3) done?.();
  });
  try {
    for (;;) {
      const res = await fetch(`${rec.url}/api/devices/${id}/webrtc`, {
        method: 'POST',
        headers: { ...rec.auth, 'content-type': 'application/sdp' },
        body: pc.localDescription!.sdp,
      });
      if (res.status === 201) {
        await pc.setRemoteDescription({ type: 'answer', sdp: await res.text() });
        break;
      }
      await res.body?.cancel();
      if (res.status !== 409 || Date.now() - t0 > 30_000) throw new Error(`WHEP offer: ${res.status}`);
      await sleep(50);
    }
    await Promise.race([keyframe, sleep(30_000).then(() => Promise.reject(new Error('no keyframe over WebRTC within 30 s')))]);
    return Date.now() - t0;
  } finally {
    await pc.close();
  }
}

async function startup(work: string) {
  const rec = await startRecorder(join(work, 'startup'), { OVERLOOK_RECORDER_SEGMENT_SECONDS: '60' });
  mkdirSync(rec.mediaDir, { recursive: true });
  const source = join(rec.mediaDir, 'source.mp4');
  await makeSource(source);
  const hls: number[] = [];
  const webrtc: number[] = [];
  try {
    for (let i = 0; i < TRIALS; i++) {
      progress(`start-up trial ${i + 1}/${TRIALS}`);
      let t0 = Date.now();
      let id = await rec.addDevice(source);
      hls.push(await firstPlaylist(rec, id, t0));
      await rec.removeDevice(id);
      t0 = Date.now();
      id = await rec.addDevice(source);
      webrtc.push(await firstWebrtcKeyframe(rec, id, t0));
      await rec.removeDevice(id);
    }
  } finally {
    await rec.stop();
  }
  return {
    startup_trials: TRIALS,
    first_live_playlist_ms_p50: pct(hls, 50),
    first_live_playlist_ms_p95: pct(hls, 95),
    first_webrtc_keyframe_ms_p50: pct(webrtc, 50),
    first_webrtc_keyframe_ms_p95: pct(webrtc, 95),
  };
}

// --- 2. Latency: the wall clock drawn into the frames, read back by the viewers ---------------------

const W = 320;
const H = 240;
const FPS = 10;
const BITS = 24;
const BLOCK_W = Math.floor(W / BITS);
const BAND_H = 48;

/** A gray frame with `value` (24 bits) as black/white blocks across the top. */
function drawFrame(value: number): Buffer {
  const f = Buffer.alloc(W * H, 96);
  for (let bit = 0; bit < BITS; bit++) {
    const v = (value >>> bit) & 1 ? 255 : 0;
    for (let y = 0; y < BAND_H; y++) f.fill(v, y * W + bit * BLOCK_W, y * W + (bit + 1) * BLOCK_W);
  }
  return f;
}

/** The value drawn into a decoded gray frame, read at each block's centre. */
function readFrame(f: Buffer): number {
  let value = 0;
  for (let bit = 0; bit < BITS; bit++) if (f[(BAND_H / 2) * W + bit * BLOCK_W + (BLOCK_W >> 1)]! > 128) value |= 1 << bit;
  return value >>> 0;
}

/** An ffmpeg that decodes `format` from its stdin to gray frames, each handed to `onFrame`. */
function decoder(format: string, onFrame: (f: Buffer) => void): ChildProcess {
  // A live H.264 stream is decoded as it comes; a whole segment (MPEG-TS) is probed as usual.
  const lowDelay = format === 'h264' ? ['-fflags', 'nobuffer', '-flags', 'low_delay', '-probesize', '32', '-analyzeduration', '0'] : [];
  const d = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'fatal', ...lowDelay, '-threads', '1'],
      ...['-f', format, '-i', 'pipe:0', '-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'gray', '-s', `${W}x${H}`, 'pipe:1'],
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  children.push(d);
  let buf = Buffer.alloc(0);
  d.stdout!.on('data', (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    while (buf.length >= W * H) {
      onFrame(buf.subarray(0, W * H));
      buf = buf.subarray(W * H);
    }
  });
  d.stdin!.on('error', () => {});
  return d;
}

/** H.264 RTP payloads (single NAL, STAP-A, FU-A) to an Annex B byte stream. */
function annexB(payload: Buffer): Buffer[] {
  const start = Buffer.from([0, 0, 0, 1]);
  const type = payload[0]! & 0x1f;
  if (type === 24) {
    const out: Buffer[] = [];
    for (let i = 1; i + 2 <= payload.length; ) {
      const len = payload.readUInt16BE(i);
      out.push(start, payload.subarray(i + 2, i + 2 + len));
      i += 2 + len;
    }
    return out;
  }
  if (type === 28) {
    const fuHeader = payload[1]!;
    const body = payload.subarray(2);
    if (fuHeader & 0x80) return [start, Buffer.from([(payload[0]! & 0xe0) | (fuHeader & 0x1f)]), body];
    return [body];
  }
  return [start, payload];
}

async function latency(work: string) {
  const dir = join(work, 'latency');
  const liveDir = join(dir, 'live');
  const staging = join(dir, 'staging');
  mkdirSync(liveDir, { recursive: true });
  mkdirSync(staging, { recursive: true });
  const base = Date.now();
  const clock = () => (Date.now() - base) & 0xffffff;

  // The camera: raw frames with the clock drawn in, encoded as a camera would (no B-frames, GOP 1 s).
  const camera = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'rawvideo', '-pix_fmt', 'gray', '-s', `${W}x${H}`, '-r', String(FPS), '-i', 'pipe:0'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', String(FPS), '-pix_fmt', 'yuv420p', '-f', 'mpegts', 'pipe:1'],
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  children.push(camera);
  // The recorder's own ffmpeg command, reading the camera as its input.
  const feeds = new RtpFeeds();
  const port = await feeds.open('bench', 'main');
  const args = recordArgs(
    { type: 'file', input: 'pipe:0' },
    { segments: join(staging, 'seg_%06d.ts'), segmentSeconds: 60, live: { dir: liveDir, segmentSeconds: 1, listSize: 6 }, rtpPort: port },
  );
  // The input is live, as a camera's is: without the file pacing (`-re`, which would hold on to any
  // start-up backlog as a constant delay) and the loop.
  const live = args.filter((a, i) => a !== '-re' && !(a === '-stream_loop' || args[i - 1] === '-stream_loop'));
  const rec = spawn('ffmpeg', live, { stdio: ['pipe', 'ignore', 'inherit'] });
  children.push(rec);
  camera.stdout!.pipe(rec.stdin!);
  rec.stdin!.on('error', () => {});
  const frames = setInterval(() => camera.stdin!.write(drawFrame(clock())), 1000 / FPS);

  // WebRTC viewer: RTP → Annex B → decoder → the clock read back.
  const webrtc: number[] = [];
  const rtcDecoder = decoder('h264', (f) => webrtc.push((clock() - readFrame(f) + 0x1000000) & 0xffffff));
  const whep = new WhepSessions(feeds);
  const pc = await viewer((rtp) => {
    for (const b of annexB(rtp.payload)) rtcDecoder.stdin!.write(b);
    // The marker bit ends a frame: an access unit delimiter lets the decoder's parser hand the frame on
    // now rather than when the next one starts (a browser's depacketizer goes by the marker too).
    if (rtp.header.marker) rtcDecoder.stdin!.write(Buffer.from([0, 0, 0, 1, 9, 0xf0]));
  });
  while (!(await feeds.live('bench', 'main', 2000))) await sleep(100);
  const { answer } = await whep.create('bench', pc.localDescription!.sdp, 'bench');
  await pc.setRemoteDescription({ type: 'answer', sdp: answer });

  // HLS viewer: polls the playlist, fetches each new segment when listed, reads its first frame.
  const hls: number[] = [];
  const seen = new Set<string>();
  const until = Date.now() + LATENCY_S * 1000;
  let warm = true;
  while (Date.now() < until) {
    const text = await livePlaylist(liveDir, 'bench');
    const names = (text?.split('\n').filter((l) => l.startsWith('segments/')) ?? []).map((u) => u.slice('segments/'.length).split('?')[0]!);
    const fresh = names.filter((n) => !seen.has(n));
    for (const n of fresh) seen.add(n);
    // Only the newest: one this viewer was too slow to see listed would be measured late.
    const name = fresh.at(-1);
    if (name && !warm) {
      const listedAt = clock();
      let bytes: Buffer | null = null;
      try {
        bytes = readFileSync(join(liveDir, name));
      } catch {
        /* rolled away already */
      }
      const first = await new Promise<number | null>((resolve) => {
        if (!bytes) return resolve(null);
        let got: number | null = null;
        const d = decoder('mpegts', (f) => {
          if (got === null) got = readFrame(f);
        });
        d.stdin!.end(bytes);
        d.once('exit', () => resolve(got));
      });
      if (first !== null) hls.push((listedAt - first + 0x1000000) & 0xffffff);
    }
    warm = false;
    await sleep(100);
  }
  clearInterval(frames);
  await whep.closeAll();
  await pc.close();
  await feeds.closeAll();
  for (const p of [camera, rec, rtcDecoder]) p.kill('SIGKILL');
  // Frames decoded in the first two seconds are the WebRTC viewer catching up; leave them out.
  const steady = webrtc.slice(2 * FPS);
  return {
    latency_seconds: LATENCY_S,
    webrtc_frames: steady.length,
    webrtc_latency_ms_p50: pct(steady, 50),
    webrtc_latency_ms_p95: pct(steady, 95),
    hls_segments: hls.length,
    hls_first_frame_when_listed_ms_p50: pct(hls, 50),
    hls_first_frame_when_listed_ms_p95: pct(hls, 95),
  };
}

// --- 3. Load: live view on versus recording alone ---------------------------------------------------

async function load(work: string, live: boolean) {
  const dataDir = join(work, live ? 'load-live' : 'load-recording');
  const rec = await startRecorder(dataDir, { OVERLOOK_RECORDER_SEGMENT_SECONDS: '2', OVERLOOK_RECORDER_LIVE: live ? 'on' : 'off' });
  mkdirSync(rec.mediaDir, { recursive: true });
  const source = join(rec.mediaDir, 'source.mp4');
  await makeSource(source);
  const rows: Record<string, number | string>[] = [];
  const devices: string[] = [];
  try {
    for (const level of LEVELS) {
      progress(`load, live ${live ? 'on' : 'off'}: ${level} devices`);
      while (devices.length < level) devices.push(await rec.addDevice(source));
      await sleep(8000);
      const u0 = usage(rec.proc.pid!);
      const t0 = Date.now();
      await sleep(WINDOW_S * 1000);
      const u1 = usage(rec.proc.pid!);
      const t1 = Date.now();
      let noLive = 0;
      if (live) {
        for (const id of devices) {
          const res = await fetch(`${rec.url}/api/devices/${id}/hls/index.m3u8?token=${rec.token}`);
          await res.body?.cancel();
          if (res.status !== 200) noLive++;
        }
      }
      const db = new Database(join(dataDir, 'recorder', 'recorder.sqlite'), { readonly: true });
      const notRecording = (db.prepare("select count(*) as n from devices where state != 'recording'").get() as { n: number }).n;
      db.close();
      const cpu = ((u1.ticks - u0.ticks) / TICKS_PER_S / ((t1 - t0) / 1000)) * 100;
      rows.push({
        live: live ? 'on' : 'off',
        devices: level,
        devices_not_recording: notRecording,
        devices_without_live_playlist: noLive,
        cpu_percent_per_device: Number((cpu / level).toFixed(2)),
        rss_mb_per_device: Number((u1.rssKb / 1024 / level).toFixed(1)),
      });
      if (notRecording || noLive) break;
    }
  } finally {
    await rec.stop();
  }
  return rows;
}

export async function benchRecorderLive() {
  const work = mkdtempSync(join(tmpdir(), 'overlook-bench-live-'));
  try {
    // BENCH_LIVE_PARTS picks among startup, latency and load (all by default).
    const start = PARTS.includes('startup') ? await startup(work) : {};
    progress('latency');
    const lat = PARTS.includes('latency') ? await latency(work) : {};
    const levels = PARTS.includes('load') ? [...(await load(work, false)), ...(await load(work, true))] : [];
    return {
      machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}, load ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`,
      ...start,
      ...lat,
      levels,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) {
  const { levels, ...rest } = await benchRecorderLive();
  console.table(rest);
  console.table(levels);
  console.log(JSON.stringify({ bench: 'recorder-live', ...rest, levels }));
  process.exit(0);
}
