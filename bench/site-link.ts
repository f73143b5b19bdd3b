// Site link benchmark (docs/site-link.md, Sizing): a platform (`overlook serve`, SQLite) and a recorder
// (`overlook recorder serve`) from dist/, each in its own process, linked by a pairing code over the
// real WebSocket, on one machine. Three parts:
//  1. Live latency, through the platform's /hls of the linked camera and the recorder's own HLS of the
//     same `file` device, side by side:
//     - first playable playlist (listed, and its first segment fetched): through the link for a
//       device that does not record (the recorder starts its live stream on the request) and, for
//       the recorder's own HLS, from switching the device's recording on;
//     - segment latency: two viewers at once poll each playlist every 100 ms; for each new segment,
//       the time it is first listed and fetched, minus its `#EXT-X-PROGRAM-DATE-TIME` (the wall
//       clock when the recorder's ffmpeg read its first frame: "glass to glass" without the camera).
//  2. Frames per second the link carries: cloud frames owed for N devices are put into the recorder's
//     outbox while it is stopped (as after an outage); on restart it sends them oldest first, at most
//     16 unacknowledged, and the platform stores each (object store + index). Frames acknowledged per
//     second, and CPU per frame on both sides, with a small JPEG and a realistic (1080p) one; the
//     platform's recordings are counted before and after, so a frame acknowledged but not stored fails.
//  3. Load: CPU (of one core) and RSS of both processes with N linked `file` devices: linked with none,
//     N shared and not recording (the link's idle cost), N recording, N recording with cloud frames
//     at BENCH_LINK_FREQUENCY a minute each. The recorder's figures include its ffmpegs.
// `npm run bench -- site-link`, or alone: `npm run build && node --import tsx bench/site-link.ts`.
// Env: BENCH_LINK_TRIALS (5), BENCH_LINK_LATENCY_SECONDS (20), BENCH_LINK_DEVICES (50),
// BENCH_LINK_WINDOW (20 s), BENCH_LINK_FREQUENCY (12 frames a minute), BENCH_LINK_FRAMES ("3000,1000":
// small, then 1080p), BENCH_LINK_PARTS (latency,frames,load), BENCH_LINK_PARALLEL (8 devices added or
// switched at once), BENCH_LINK_LOG (a file that gets both servers' stderr).
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openRecorderDb } from '../src/recorder/db/recorder-db.js';
import { Outbox } from '../src/recorder/link/outbox.js';
import { freePort } from '../test/helpers/cli-cluster.js';
import { machine, TICKS_PER_S, usage } from './process-usage.js';
import { json } from './world.js';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const TRIALS = Number(process.env.BENCH_LINK_TRIALS ?? 5);
const LATENCY_S = Number(process.env.BENCH_LINK_LATENCY_SECONDS ?? 20);
const DEVICES = Number(process.env.BENCH_LINK_DEVICES ?? 50);
const WINDOW_S = Number(process.env.BENCH_LINK_WINDOW ?? 20);
const FREQUENCY = Number(process.env.BENCH_LINK_FREQUENCY ?? 12);
const [SMALL_FRAMES, LARGE_FRAMES] = (process.env.BENCH_LINK_FRAMES ?? '3000,1000').split(',').map(Number) as [number, number];
const PARTS = (process.env.BENCH_LINK_PARTS ?? 'latency,frames,load').split(',');
/** The recorder stops a live stream nobody asks for after this (OVERLOOK_RECORDER_LIVE_IDLE_SECONDS). */
const IDLE_S = 2;
const exec = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const progress = (what: string) => process.stderr.write(`[bench/site-link] ${new Date().toISOString().slice(11, 19)} ${what}\n`);
const pct = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]! : NaN);
const r1 = (n: number) => Number(n.toFixed(1));
const r2 = (n: number) => Number(n.toFixed(2));
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

/** Starts `overlook <args>` and resolves once its output says it listens. */
function serve(args: string[], ready: RegExp, env: NodeJS.ProcessEnv): Promise<{ proc: ChildProcess; url: string }> {
  const proc = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(proc);
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d;
      const m = ready.exec(out);
      if (m) resolve({ proc, url: m[1]! });
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (d: Buffer) => {
      out += d;
      if (process.env.BENCH_LINK_LOG) appendFileSync(process.env.BENCH_LINK_LOG, `[${args[0]}] ${d}`);
    });
    proc.once('exit', (code) => reject(new Error(`overlook ${args[0]} exited ${code}: ${out.slice(-2000)}`)));
  });
}

function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return Promise.resolve();
  return new Promise((r) => {
    proc.once('exit', () => r());
    proc.kill('SIGTERM');
  });
}

function cli(args: string[], env: NodeJS.ProcessEnv): void {
  const r = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`overlook ${args.join(' ')}: ${r.stderr}`);
}

interface World {
  platform: { proc: ChildProcess; url: string; jwt: Record<string, string>; project: string };
  recorder: { proc: ChildProcess; url: string; auth: Record<string, string>; dataDir: string; env: NodeJS.ProcessEnv };
  source: string;
}

async function startRecorder(w: Pick<World, 'recorder'>['recorder']): Promise<void> {
  const r = await serve(['recorder', 'serve', '--port', '0', '--data-dir', w.dataDir], /recorder listening on (http:\/\/\S+)/, w.env);
  w.proc = r.proc;
  w.url = r.url;
}

async function setup(work: string): Promise<World> {
  const platformDir = join(work, 'platform');
  const port = await freePort();
  const platformUrl = `http://127.0.0.1:${port}`;
  const penv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: '',
    OVERLOOK_LOG_LEVEL: 'warn',
    OVERLOOK_PUBLIC_URL: platformUrl,
    OVERLOOK_RECORDING_LOOP: '0',
  };
  cli(['users', 'create', '--email', 'bench@example.com', '--password', 'bench-password-1', '--data-dir', platformDir], penv);
  const p = await serve(['serve', '--port', String(port), '--data-dir', platformDir], /main API (?:listening on |\s+)(http:\/\/\S+)/, penv);
  const { token } = await json(`${platformUrl}/v2/auth/login`, {
    method: 'POST',
    body: JSON.stringify({ username: 'bench@example.com', password: 'bench-password-1' }),
  });
  const jwt = { authorization: `Bearer ${token}` };
  const project = (await json(`${platformUrl}/v2/projects`, { method: 'POST', headers: jwt, body: JSON.stringify({ name: 'Bench site' }) })).exid as string;
  const link = await json(`${platformUrl}/v2/projects/${project}/recorder-links`, { method: 'POST', headers: jwt, body: JSON.stringify({ name: 'Bench' }) });

  const dataDir = join(work, 'site');
  const mediaDir = join(dataDir, 'media');
  mkdirSync(mediaDir, { recursive: true });
  const renv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: '',
    OVERLOOK_LOG_LEVEL: 'warn',
    OVERLOOK_RECORDER_MEDIA_DIR: mediaDir,
    OVERLOOK_RECORDER_SEGMENT_SECONDS: '10',
    OVERLOOK_RECORDER_LIVE_IDLE_SECONDS: String(IDLE_S),
  };
  cli(['recorder', 'users', 'create', '--email', 'bench@site.example', '--password', 'bench-password-1', '--role', 'admin', '--data-dir', dataDir], renv);
  cli(['recorder', 'link', '--platform', platformUrl, '--code', link.pairing_code, '--data-dir', dataDir], renv);
  const recorder = { proc: null as unknown as ChildProcess, url: '', auth: {}, dataDir, env: renv };
  await startRecorder(recorder);
  const login = await json(`${recorder.url}/api/users/login`, {
    method: 'POST',
    body: JSON.stringify({ username: 'bench@site.example', password: 'bench-password-1' }),
  });
  recorder.auth = { authorization: `Bearer ${login.access_token}` };
  // A camera's source: 640×360 at 15 fps, a keyframe a second (its live segments are copied, 1 s each).
  const source = join(mediaDir, 'source.mp4');
  await exec('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=15', '-t', '20'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '15', '-pix_fmt', 'yuv420p', '-f', 'mpegts', source.replace(/\.mp4$/, '.ts')],
  ]);
  return { platform: { proc: p.proc, url: platformUrl, jwt, project }, recorder, source: source.replace(/\.mp4$/, '.ts') };
}

/** Answers a busy server may give that are worth asking again: a request timeout, throttling, a gateway. */
const RETRY_STATUSES = new Set([408, 429, 502, 503, 504]);
const ATTEMPTS = 6;

/**
 * A JSON request, asked again (up to 6 times, waiting 0.5 s, 1 s, 2 s…) on a network error or a
 * RETRY_STATUSES answer: on a loaded machine 50 devices starting their ffmpegs at once can keep the
 * recorder past its request timeout. For a request that is not idempotent, `already` says whether
 * the first try did its work after all.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(url: string, init: { method?: string; headers?: Record<string, string>; body?: string }, already?: () => Promise<any>): Promise<any> {
  for (let attempt = 1; ; attempt++) {
    let res: Response | null = null;
    let failure: string;
    try {
      res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(init.headers ?? {}) } });
      if (res.ok) return res.json();
      failure = `${res.status} ${await res.text()}`;
    } catch (err) {
      failure = (err as Error).message;
    }
    if ((res && !RETRY_STATUSES.has(res.status)) || attempt === ATTEMPTS) throw new Error(`${init.method ?? 'GET'} ${url}: ${failure}`);
    progress(`${init.method ?? 'GET'} ${new URL(url).pathname}: ${failure.slice(0, 80)}; asking again`);
    await sleep(500 * 2 ** (attempt - 1));
    const done = await already?.();
    if (done) return done;
  }
}

const recorderApi = (w: World, method: string, path: string, body?: unknown) =>
  call(`${w.recorder.url}${path}`, { method, headers: w.recorder.auth, body: body === undefined ? undefined : JSON.stringify(body) });

/** Runs `fn` on every item, `width` at a time. */
async function inParallel<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return out;
}
/** How many devices are added or switched at once: enough to overlap the waits, few enough for 2 cores. */
const PARALLEL = Number(process.env.BENCH_LINK_PARALLEL ?? 8);

async function addDevice(w: World, name: string, recording: boolean): Promise<string> {
  const body = {
    name,
    type: 'file',
    timezone: 'UTC',
    stream_config: { path: w.source },
    storage_config: { recording_mode: recording ? 'always' : 'never' },
  };
  // A POST that timed out may have made the device: look for it by name before asking again.
  const made = async () => {
    const list = await recorderApi(w, 'GET', '/api/devices');
    return ((Array.isArray(list) ? list : list.data) as { id: string; name: string }[]).find((d) => d.name === name);
  };
  const d = await call(`${w.recorder.url}/api/devices`, { method: 'POST', headers: w.recorder.auth, body: JSON.stringify(body) }, made);
  return d.id as string;
}

/** The platform cameras the recorder's devices became, by name, once all `names` are there. */
async function cameras(w: World, names: string[]): Promise<Map<string, string>> {
  const end = Date.now() + 60_000;
  for (;;) {
    const body = await json(`${w.platform.url}/v2/projects/${w.platform.project}/cameras`, { headers: w.platform.jwt });
    const list = (Array.isArray(body) ? body : body.cameras) as { exid: string; name: string }[];
    const byName = new Map(list.map((c) => [c.name, c.exid]));
    if (names.every((n) => byName.has(n))) return byName;
    if (Date.now() > end) throw new Error(`cameras ${names.length - names.filter((n) => byName.has(n)).length} of ${names.length} missing after 60 s`);
    await sleep(250);
  }
}

// --- 1. Live latency --------------------------------------------------------------------------------

/** A media playlist fetcher: through the platform's /hls (a fresh media token), or the recorder's own. */
interface Viewer {
  name: string;
  playlist(): Promise<Response>;
  segment(uri: string): Promise<Response>;
}

async function linkViewer(w: World, exid: string): Promise<Viewer> {
  const { playlist_url } = await json(`${w.platform.url}/v2/cameras/${exid}/hls?format=json`, { headers: w.platform.jwt });
  return { name: 'link', playlist: () => fetch(playlist_url), segment: (uri) => fetch(new URL(uri, playlist_url)) };
}

function ownViewer(w: World, id: string): Viewer {
  const token = w.recorder.auth.authorization!.slice('Bearer '.length);
  const base = `${w.recorder.url}/api/devices/${id}/hls/`;
  return { name: 'own', playlist: () => fetch(`${base}index.m3u8?token=${token}`), segment: (uri) => fetch(new URL(uri, base)) };
}

/** The answer's status, its body dropped. */
async function statusOf(res: Response): Promise<number> {
  await res.body?.cancel();
  return res.status;
}

const segmentsOf = (text: string) => text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));

/** From now to a playlist that lists a segment, that segment fetched; polls every 50 ms. */
async function firstPlayable(v: Viewer, t0: number): Promise<number> {
  let last = '';
  for (;;) {
    const res = await v.playlist();
    if (res.status === 200) {
      const uri = segmentsOf(await res.text())[0];
      if (uri) {
        const seg = await v.segment(uri);
        await seg.arrayBuffer();
        if (seg.status === 200) return Date.now() - t0;
      }
      last = 'no segment listed';
    } else last = `${res.status} ${await res.text()}`;
    if (Date.now() - t0 > 30_000) throw new Error(`${v.name}: no playable playlist within 30 s (last answer: ${last})`);
    await sleep(50);
  }
}

/** Polls `v` every 100 ms for `seconds`: per new segment, ms from its program date to listed, and to fetched. */
async function segmentLatency(v: Viewer, seconds: number): Promise<{ listed: number[]; fetched: number[] }> {
  const seen = new Set<string>();
  const listed: number[] = [];
  const fetched: number[] = [];
  const until = Date.now() + seconds * 1000;
  let warm = true;
  while (Date.now() < until) {
    const res = await v.playlist();
    const text = res.status === 200 ? await res.text() : '';
    if (res.status !== 200) await res.body?.cancel();
    const now = Date.now();
    let date = Number.NaN;
    const fresh: { uri: string; date: number }[] = [];
    for (const line of text.split('\n')) {
      if (line.startsWith('#EXT-X-PROGRAM-DATE-TIME:')) date = Date.parse(line.slice('#EXT-X-PROGRAM-DATE-TIME:'.length));
      else if (line !== '' && !line.startsWith('#')) {
        const name = line.split('?')[0]!;
        if (!seen.has(name)) fresh.push({ uri: line, date });
        seen.add(name);
        date = Number.NaN;
      }
    }
    // Only the newest: one listed while this viewer was not looking would count late. The first poll only learns what is there.
    const newest = fresh.at(-1);
    if (newest && !warm && Number.isFinite(newest.date)) {
      listed.push(now - newest.date);
      const seg = await v.segment(newest.uri);
      await seg.arrayBuffer();
      if (seg.status === 200) fetched.push(Date.now() - newest.date);
    }
    warm = false;
    await sleep(100);
  }
  return { listed, fetched };
}

async function latency(w: World) {
  const id = await addDevice(w, 'Live', false);
  const exid = (await cameras(w, ['Live'])).get('Live')!;
  const own = ownViewer(w, id);
  const cold: number[] = [];
  const ownStart: number[] = [];
  for (let i = 0; i < TRIALS; i++) {
    progress(`latency: trial ${i + 1}/${TRIALS}, live on demand through the link`);
    // Not streaming: the recorder's own playlist is 404 until the link's request starts the stream.
    while ((await statusOf(await own.playlist())) !== 404) await sleep(250);
    const t0 = Date.now();
    cold.push(await firstPlayable(await linkViewer(w, exid), t0));
    // The recorder's own HLS, from switching the device's recording on (its ffmpeg starts).
    while ((await statusOf(await own.playlist())) !== 404) await sleep(250);
    const t1 = Date.now();
    await recorderApi(w, 'PUT', `/api/devices/${id}`, { storage_config: { recording_mode: 'always' } });
    ownStart.push(await firstPlayable(own, t1));
    await recorderApi(w, 'PUT', `/api/devices/${id}`, { storage_config: { recording_mode: 'never' } });
  }
  progress(`latency: ${LATENCY_S} s of both viewers at once, the device recording`);
  await recorderApi(w, 'PUT', `/api/devices/${id}`, { storage_config: { recording_mode: 'always' } });
  await firstPlayable(own, Date.now());
  const link = await linkViewer(w, exid);
  const warmLink = await firstPlayable(link, Date.now());
  const [viaLink, viaOwn] = await Promise.all([segmentLatency(link, LATENCY_S), segmentLatency(own, LATENCY_S)]);
  await statusOf(await fetch(`${w.recorder.url}/api/devices/${id}`, { method: 'DELETE', headers: w.recorder.auth }));
  return {
    trials: TRIALS,
    link_first_playable_on_demand_ms_p50: pct(cold, 50),
    link_first_playable_on_demand_ms_p95: pct(cold, 95),
    own_first_playable_from_recording_on_ms_p50: pct(ownStart, 50),
    own_first_playable_from_recording_on_ms_p95: pct(ownStart, 95),
    link_first_playable_while_streaming_ms: warmLink,
    segments_link: viaLink.listed.length,
    segments_own: viaOwn.listed.length,
    link_segment_listed_ms_p50: pct(viaLink.listed, 50),
    link_segment_listed_ms_p95: pct(viaLink.listed, 95),
    own_segment_listed_ms_p50: pct(viaOwn.listed, 50),
    own_segment_listed_ms_p95: pct(viaOwn.listed, 95),
    link_segment_fetched_ms_p50: pct(viaLink.fetched, 50),
    link_segment_fetched_ms_p95: pct(viaLink.fetched, 95),
    own_segment_fetched_ms_p50: pct(viaOwn.fetched, 50),
    own_segment_fetched_ms_p95: pct(viaOwn.fetched, 95),
  };
}

// --- 3. Load: N linked devices ----------------------------------------------------------------------

/** CPU (% of one core) and RSS (MB) of both processes over the window, after `settleS`. */
async function measure(w: World, settleS: number) {
  await sleep(settleS * 1000);
  const r0 = usage(w.recorder.proc.pid!);
  const p0 = usage(w.platform.proc.pid!);
  const t0 = Date.now();
  await sleep(WINDOW_S * 1000);
  const r1u = usage(w.recorder.proc.pid!);
  const p1 = usage(w.platform.proc.pid!);
  const s = (Date.now() - t0) / 1000;
  return {
    recorder_cpu_percent: r1(((r1u.ticks - r0.ticks) / TICKS_PER_S / s) * 100),
    recorder_rss_mb: r1(r1u.rssKb / 1024),
    recorder_processes: r1u.processes,
    platform_cpu_percent: r1(((p1.ticks - p0.ticks) / TICKS_PER_S / s) * 100),
    platform_rss_mb: r1(p1.rssKb / 1024),
    seconds: r1(s),
  };
}

async function framesStored(w: World, exids: string[]): Promise<number> {
  let n = 0;
  const from = new Date(Date.now() - 3600_000).toISOString();
  for (const exid of exids) {
    const got = await json(`${w.platform.url}/v2/cameras/${exid}/recordings/snapshots?from=${from}&limit=1`, { headers: w.platform.jwt });
    n += got.meta.total_count as number;
  }
  return n;
}

async function load(w: World): Promise<{ rows: Record<string, number | string>[]; ids: string[]; exids: string[] }> {
  const rows: Record<string, number | string>[] = [];
  progress('load: linked, no devices');
  rows.push({ level: 'linked, no devices', devices: 0, ...(await measure(w, 5)) });
  progress(`load: ${DEVICES} devices shared, not recording`);
  const names = Array.from({ length: DEVICES }, (_, i) => `Cam ${String(i + 1).padStart(3, '0')}`);
  const ids = await inParallel(names, PARALLEL, (n) => addDevice(w, n, false));
  const byName = await cameras(w, names);
  const exids = names.map((n) => byName.get(n)!);
  rows.push({ level: 'shared, not recording', devices: DEVICES, ...(await measure(w, 5)) });
  progress(`load: ${DEVICES} devices recording`);
  await inParallel(ids, PARALLEL, (id) => recorderApi(w, 'PUT', `/api/devices/${id}`, { storage_config: { recording_mode: 'always' } }));
  rows.push({ level: 'recording', devices: DEVICES, ...(await measure(w, 15)) });
  progress(`load: ${DEVICES} devices recording, cloud frames at ${FREQUENCY}/min each`);
  await inParallel(exids, PARALLEL, (exid) =>
    call(`${w.platform.url}/v2/cameras/${exid}/cloud-recordings`, {
      method: 'PUT',
      headers: w.platform.jwt,
      body: JSON.stringify({ status: 'on', frequency: FREQUENCY }),
    }),
  );
  const before = await framesStored(w, exids);
  const m = await measure(w, 5);
  const stored = (await framesStored(w, exids)) - before;
  rows.push({ level: `recording + cloud frames ${FREQUENCY}/min`, devices: DEVICES, ...m, frames_stored_in_window_and_settle: stored });
  // Quiet again for the frames part: nothing recording, no cloud frames.
  await inParallel(exids, PARALLEL, (exid) =>
    call(`${w.platform.url}/v2/cameras/${exid}/cloud-recordings`, { method: 'PUT', headers: w.platform.jwt, body: JSON.stringify({ status: 'off' }) }),
  );
  await inParallel(ids, PARALLEL, (id) => recorderApi(w, 'PUT', `/api/devices/${id}`, { storage_config: { recording_mode: 'never' } }));
  return { rows, ids, exids };
}

// --- 2. Frames per second through the link ----------------------------------------------------------

async function jpegOf(size: string, file: string): Promise<Buffer> {
  await exec('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=1`, '-frames:v', '1', '-q:v', '4', file]);
  return readFileSync(file);
}

/** The time of the last frame put in the outbox: the drains' frames follow each other 250 ms apart. */
let frameClock = Date.now() - 3000_000;

async function drain(w: World, ids: string[], exids: string[], jpeg: Buffer, count: number, label: string) {
  progress(`frames: ${count} × ${Math.round(jpeg.length / 1024)} KB owed while the recorder is stopped`);
  const before = await framesStored(w, exids);
  await stop(w.recorder.proc);
  const db = await openRecorderDb(join(w.recorder.dataDir, 'recorder'));
  const quiet = { warn: () => {}, info: () => {} };
  const outbox = new Outbox(db, join(w.recorder.dataDir, 'recorder', 'link-outbox'), 64 * 1024 ** 3, quiet);
  // Distinct times (a frame is stored once per camera and millisecond), across drains, within the last hour.
  for (let i = 0; i < count; i++) {
    frameClock += 250;
    await outbox.addFrame(ids[i % ids.length]!, new Date(frameClock), jpeg);
  }
  await db.close();
  await startRecorder(w.recorder);
  let link = await recorderApi(w, 'GET', '/api/link');
  while (!link.connected) {
    await sleep(20);
    link = await recorderApi(w, 'GET', '/api/link');
  }
  const r0 = usage(w.recorder.proc.pid!);
  const p0 = usage(w.platform.proc.pid!);
  const t0 = Date.now();
  const owed = link.backlog.items as number;
  while (link.backlog.items > 0) {
    if (Date.now() - t0 > 600_000) throw new Error(`frames: ${link.backlog.items} still owed after 10 minutes`);
    await sleep(50);
    link = await recorderApi(w, 'GET', '/api/link');
  }
  const s = (Date.now() - t0) / 1000;
  const r1u = usage(w.recorder.proc.pid!);
  const p1 = usage(w.platform.proc.pid!);
  // Acknowledged means stored: every frame put in the outbox is in the platform's recordings.
  const stored = (await framesStored(w, exids)) - before;
  if (stored < count) throw new Error(`frames: ${count} owed, ${stored} stored by the platform`);
  return {
    jpeg: label,
    jpeg_kb: Math.round(jpeg.length / 1024),
    frames: owed,
    stored,
    seconds: r2(s),
    frames_per_second: r1(owed / s),
    megabytes_per_second: r2((owed * jpeg.length) / 1024 ** 2 / s),
    recorder_cpu_ms_per_frame: r2((((r1u.ticks - r0.ticks) / TICKS_PER_S) * 1000) / owed),
    platform_cpu_ms_per_frame: r2((((p1.ticks - p0.ticks) / TICKS_PER_S) * 1000) / owed),
  };
}

async function frames(w: World, ids: string[], exids: string[], work: string) {
  const small = await jpegOf('320x180', join(work, 'small.jpg'));
  const large = await jpegOf('1920x1080', join(work, 'large.jpg'));
  return [await drain(w, ids, exids, small, SMALL_FRAMES, 'small (320×180)'), await drain(w, ids, exids, large, LARGE_FRAMES, 'realistic (1920×1080)')];
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'overlook-bench-link-'));
  let w: World | undefined;
  try {
    w = await setup(work);
    // Each part's figures as soon as they are there (on stderr), in case a later part fails.
    const lat = PARTS.includes('latency') ? await latency(w) : {};
    progress(JSON.stringify(lat));
    const loaded = PARTS.includes('load') || PARTS.includes('frames') ? await load(w) : { rows: [], ids: [], exids: [] };
    progress(JSON.stringify(loaded.rows));
    const rates = PARTS.includes('frames') ? await frames(w, loaded.ids, loaded.exids, work) : [];
    const info = { machine: machine(), load_at_end: readFileSync('/proc/loadavg', 'utf8').split(' ')[0], date: new Date().toISOString() };
    console.log('\nSite link: live latency, link vs the recorder’s own HLS (ms)');
    console.table({ ...info, ...lat });
    console.log(`\nFrames through the link (${DEVICES} devices)`);
    console.table(rates);
    console.log(`\nLoad: ${DEVICES} linked file devices (CPU % of one core, RSS MB; the recorder with its ffmpegs)`);
    console.table(PARTS.includes('load') ? loaded.rows : []);
    console.log(JSON.stringify({ bench: 'site-link', ...info, ...lat, frames: rates, load: loaded.rows }));
  } finally {
    if (w) await Promise.all([stop(w.recorder.proc), stop(w.platform.proc)]);
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
