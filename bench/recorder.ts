// Recorder benchmark, three measurements side by side in one run (the recorder is the built CLI in its
// own process, like the yardsticks, so the load generator never shares its event loop):
//  1. HLS segment serving: requests per second of /hls/segments/{id}.ts?token= as a ratio to
//     @fastify/static serving the same file (target ≥ 0.7).
//  2. Footage export of one hour of stored 60 s segments: wall time as a ratio to a plain
//     `ffmpeg -f concat -c copy` of the same segments (target ≤ 1.2).
//  3. Recording load: file devices recorded at once by one recorder process, whether any dropped a
//     segment, and CPU and memory per device.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { openRecorderDb } from '../src/recorder/db/recorder-db.js';
import { SegmentIndex } from '../src/recorder/recordings/segment-index.js';
import { segmentRelPath } from '../src/recorder/recording/segment-layout.js';
import { TICKS_PER_S, usage } from './process-usage.js';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const LEVELS = (process.env.BENCH_RECORDER_DEVICES ?? '8,16,32,64').split(',').map(Number);
const EXPORT_ROUNDS = Number(process.env.BENCH_EXPORT_ROUNDS ?? 7);
const LOAD_WINDOW_S = Number(process.env.BENCH_RECORDER_WINDOW ?? 20);
/** BENCH_RECORDER_PARTS picks among serving, export and load (all by default). */
const PARTS = (process.env.BENCH_RECORDER_PARTS ?? 'serving,export,load').split(',');
const exec = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

function startLine(cmd: string[], env: NodeJS.ProcessEnv, pattern: RegExp): Promise<{ proc: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, cmd, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(proc);
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = pattern.exec(out);
      if (m) resolve({ proc, url: m[1]! });
    });
    proc.on('exit', (code) => reject(new Error(`${cmd.join(' ')} exited ${code}: ${out}`)));
  });
}

const stop = (p: ChildProcess) =>
  new Promise<void>((r) => {
    if (p.exitCode !== null) return r();
    p.once('exit', () => r());
    p.kill('SIGTERM');
  });

async function recorder(dataDir: string, env: Record<string, string> = {}) {
  // The bench's source videos sit in its work folder: that is the recorder's media folder (file devices play only from there).
  const full = { ...process.env, OVERLOOK_LOG_LEVEL: 'warn', OVERLOOK_RECORDER_MEDIA_DIR: dirname(dataDir), ...env };
  const made = spawnSync(
    process.execPath,
    [CLI, 'recorder', 'users', 'create', '--email', 'bench@site.example', '--password', 'bench-password-1', '--role', 'admin', '--data-dir', dataDir],
    { env: full, encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(made.stderr);
  const { proc, url } = await startLine([CLI, 'recorder', 'serve', '--data-dir', dataDir, '--port', '0'], full, /recorder listening on (http:\/\/\S+)/);
  const login = await fetch(`${url}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench@site.example', password: 'bench-password-1' }),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const addDevice = async (name: string, path: string, mode: 'always' | 'never') => {
    const res = await fetch(`${url}/api/devices`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name, type: 'file', stream_config: { path }, storage_config: { recording_mode: mode } }),
    });
    if (res.status !== 201) throw new Error(`create device: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { id: string }).id;
  };
  return { proc, url, token, headers, addDevice };
}

// Segments are megabytes. autocannon's JavaScript client tops out near 60 MB/s on such bodies, below
// either server, so this part is driven by wrk (C, epoll), which reads them at the servers' pace.
const SEGMENT_CONNECTIONS = 8;

function wrkRps(url: string, seconds = SECONDS): number {
  const r = spawnSync('wrk', ['-t2', `-c${SEGMENT_CONNECTIONS}`, `-d${seconds}s`, '--timeout', '30s', url], { encoding: 'utf8' });
  if (r.error) throw new Error('wrk is needed for the segment benchmark: ./scripts/setup installs it (Debian package wrk)');
  if (/Non-2xx|Socket errors/.test(r.stdout)) throw new Error(`${url}: ${r.stdout}`);
  const m = /Requests\/sec:\s+([\d.]+)/.exec(r.stdout);
  if (!m) throw new Error(`wrk said: ${r.stdout}${r.stderr}`);
  return Number(m[1]);
}
const progress = (what: string) => process.stderr.write(`[bench/recorder] ${new Date().toISOString().slice(11, 19)} ${what}\n`);

const probeDuration = async (file: string) =>
  Number((await exec('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file])).stdout.trim());
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** One hour of 640×360, 15 fps H.264, cut by ffmpeg into 60 s MPEG-TS segments as the recorder cuts them. */
async function makeHour(dir: string): Promise<string[]> {
  // BENCH_RECORDER_HOUR reuses a folder of segments made by an earlier run (encoding takes a minute).
  const given = process.env.BENCH_RECORDER_HOUR;
  if (given)
    return readdirSync(given)
      .filter((f) => f.endsWith('.ts'))
      .sort()
      .map((f) => join(given, f));
  mkdirSync(dir, { recursive: true });
  await exec(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=640x360:rate=15',
      '-t',
      '3600',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-g',
      '30',
      '-pix_fmt',
      'yuv420p',
      '-f',
      'segment',
      '-segment_time',
      '60',
      '-segment_format',
      'mpegts',
      '-reset_timestamps',
      '1',
      join(dir, 'seg%03d.ts'),
    ],
    { maxBuffer: 1 << 24 },
  );
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => join(dir, f));
}

async function servingAndExport(work: string) {
  progress('encoding one hour of 640x360 video into 60 s segments');
  const files = await makeHour(join(work, 'hour'));
  const dataDir = join(work, 'serve');
  const rec = await recorder(dataDir);
  try {
    const deviceId = await rec.addDevice('Archive', files[0]!, 'never');
    // Index the hour as the recorder indexes what it records: a run of consecutive segments in the layout.
    const db = await openRecorderDb(join(dataDir, 'recorder'));
    const index = new SegmentIndex(db);
    const storage = join(dataDir, 'recorder', 'storage');
    const start = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 2 * 3_600_000);
    const runId = await index.openRun(deviceId, 'main', start);
    let at = start.getTime();
    const ids: { id: string; path: string }[] = [];
    for (const file of files) {
      const ms = Math.round((await probeDuration(file)) * 1000);
      const path = segmentRelPath(deviceId, 'main', new Date(at));
      mkdirSync(dirname(join(storage, path)), { recursive: true });
      copyFileSync(file, join(storage, path));
      const seg = await index.add({
        device_id: deviceId,
        stream: 'main',
        run_id: runId,
        start_date: new Date(at).toISOString(),
        end_date: new Date(at + ms).toISOString(),
        duration_ms: ms,
        path,
        size: statSync(file).size,
      });
      ids.push({ id: seg.id, path });
      at += ms;
    }
    await index.closeRun(runId);
    await db.close();

    // 1. Segment serving, one segment from the middle of the hour, against @fastify/static.
    const seg = ids[30]!;
    const segmentBytes = statSync(join(storage, seg.path)).size;
    let oursRps = NaN;
    let theirsRps = NaN;
    if (PARTS.includes('serving')) {
      const stat = await startLine(
        ['--import', 'tsx', join(import.meta.dirname, 'static-server.ts'), storage],
        process.env,
        /static listening on (http:\/\/\S+)/,
      );
      const ours = `${rec.url}/api/devices/${deviceId}/hls/segments/${seg.id}.ts?token=${encodeURIComponent(rec.token)}`;
      const theirs = `${stat.url}/${seg.path}`;
      const check = await fetch(ours);
      if (check.status !== 200 || (await check.arrayBuffer()).byteLength !== segmentBytes) throw new Error('segment route does not serve the file');
      progress('serving one segment: recorder vs @fastify/static');
      for (const u of [ours, theirs]) wrkRps(u, 3);
      const rounds: { ours: number; theirs: number }[] = [];
      for (let i = 0; i < 2; i++) {
        const a = wrkRps(i === 0 ? ours : theirs);
        const b = wrkRps(i === 0 ? theirs : ours);
        rounds.push(i === 0 ? { ours: a, theirs: b } : { ours: b, theirs: a });
      }
      await stop(stat.proc);
      oursRps = rounds.reduce((s, r) => s + r.ours, 0) / rounds.length;
      theirsRps = rounds.reduce((s, r) => s + r.theirs, 0) / rounds.length;
    }

    // 2. One hour of footage through the API, against ffmpeg's concat demuxer on the same files.
    progress('footage export of the hour vs ffmpeg concat');
    const list = join(work, 'list.txt');
    writeFileSync(list, ids.map((s) => `file '${join(storage, s.path)}'`).join('\n') + '\n');
    const exportUrl = `${rec.url}/api/devices/${deviceId}/footage?start_date=${encodeURIComponent(start.toISOString())}&duration=3600`;
    // curl downloads it to a file, as a person would; fetch's web streams would time the client instead.
    // Each run starts from the same state: the previous output removed and the page cache written back
    // (untimed), so neither side pays for truncating a file the other's run left under writeback.
    const fresh = (file: string) => {
      rmSync(file, { force: true });
      spawnSync('sync');
    };
    const apiRun = async () => {
      fresh(join(work, 'api.mp4'));
      const t = performance.now();
      const { stdout } = await exec('curl', ['-sS', '-o', join(work, 'api.mp4'), '-w', '%{http_code}', '-H', `authorization: Bearer ${rec.token}`, exportUrl]);
      if (stdout.trim() !== '200') throw new Error(`footage: HTTP ${stdout}`);
      return performance.now() - t;
    };
    const ffmpegRun = async () => {
      fresh(join(work, 'plain.mp4'));
      const t = performance.now();
      await exec('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', list, '-c', 'copy', join(work, 'plain.mp4')]);
      return performance.now() - t;
    };
    await apiRun();
    const exported = await probeDuration(join(work, 'api.mp4'));
    const api: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < EXPORT_ROUNDS; i++) {
      if (i % 2 === 0) {
        api.push(await apiRun());
        plain.push(await ffmpegRun());
      } else {
        plain.push(await ffmpegRun());
        api.push(await apiRun());
      }
    }
    progress(`export rounds (ms), ours: ${api.map(Math.round).join(' ')}; concat: ${plain.map(Math.round).join(' ')}`);
    return {
      segment_bytes: segmentBytes,
      hls_segment_rps: Math.round(oursRps),
      static_segment_rps: Math.round(theirsRps),
      hls_vs_static_ratio: Number((oursRps / theirsRps).toFixed(3)),
      footage_hour_bytes: statSync(join(work, 'api.mp4')).size,
      footage_hour_duration_s: Number(exported.toFixed(1)),
      footage_export_ms: Math.round(median(api)),
      ffmpeg_concat_ms: Math.round(median(plain)),
      // Each round's two runs sit side by side in time; the median of their ratios sheds the machine's drift.
      footage_vs_concat_ratio: Number(median(api.map((a, i) => a / plain[i]!)).toFixed(3)),
    };
  } finally {
    await stop(rec.proc);
  }
}

// --- 3. Recording load ---------------------------------------------------------------------------

async function recordingLoad(work: string) {
  const segmentSeconds = 2;
  const source = join(work, 'source.mp4');
  await exec('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=640x360:rate=15',
    '-t',
    '20',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-g',
    '15',
    '-pix_fmt',
    'yuv420p',
    source,
  ]);
  const dataDir = join(work, 'load');
  const rec = await recorder(dataDir, { OVERLOOK_RECORDER_SEGMENT_SECONDS: String(segmentSeconds) });
  const results: Record<string, number | string>[] = [];
  try {
    const devices: string[] = [];
    for (const level of LEVELS) {
      progress(`recording load: ${level} file devices`);
      while (devices.length < level) devices.push(await rec.addDevice(`Load ${devices.length + 1}`, source, 'always'));
      await sleep(8000); // every device past its first segments
      const u0 = usage(rec.proc.pid!);
      const t0 = Date.now();
      await sleep(LOAD_WINDOW_S * 1000);
      const t1 = Date.now();
      const u1 = usage(rec.proc.pid!);
      await sleep(segmentSeconds * 1000 + 1500); // let the window's last segments be indexed
      const db = new Database(join(dataDir, 'recorder', 'recorder.sqlite'), { readonly: true });
      let dropped = 0;
      let gaps = 0;
      for (const id of devices) {
        const segs = db
          .prepare('select start_date, end_date from segments where device_id = ? and start_date >= ? and end_date <= ? order by start_date')
          .all(id, new Date(t0).toISOString(), new Date(t1).toISOString()) as { start_date: string; end_date: string }[];
        let covered = 0;
        for (let i = 0; i < segs.length; i++) {
          covered += Date.parse(segs[i]!.end_date) - Date.parse(segs[i]!.start_date);
          if (i > 0 && Date.parse(segs[i]!.start_date) - Date.parse(segs[i - 1]!.end_date) > 500) gaps++;
        }
        // The window's edges cut at most one segment at each end.
        if (covered < (LOAD_WINDOW_S - 2 * segmentSeconds) * 1000 - 500) dropped++;
      }
      const failed = (db.prepare("select count(*) as n from devices where state != 'recording'").get() as { n: number }).n;
      db.close();
      const cpuPct = ((u1.ticks - u0.ticks) / TICKS_PER_S / ((t1 - t0) / 1000)) * 100;
      results.push({
        devices: level,
        devices_short_of_footage: dropped,
        gaps_over_500ms: gaps,
        devices_not_recording: failed,
        cpu_percent_total: Number(cpuPct.toFixed(1)),
        cpu_percent_per_device: Number((cpuPct / level).toFixed(2)),
        rss_mb_total: Math.round(u1.rssKb / 1024),
        rss_mb_per_device: Number((u1.rssKb / 1024 / level).toFixed(1)),
      });
      if (dropped || gaps || failed) break;
    }
  } finally {
    await stop(rec.proc);
  }
  const clean = results.filter((r) => r.devices_short_of_footage === 0 && r.gaps_over_500ms === 0 && r.devices_not_recording === 0);
  return { segment_seconds: segmentSeconds, window_s: LOAD_WINDOW_S, max_devices_without_drops: clean.at(-1)?.devices ?? 0, levels: results };
}

export async function benchRecorder() {
  const work = mkdtempSync(join(tmpdir(), 'overlook-bench-recorder-'));
  try {
    const serving = PARTS.includes('serving') || PARTS.includes('export') ? await servingAndExport(work) : {};
    const load = PARTS.includes('load') ? await recordingLoad(work) : { segment_seconds: 0, window_s: 0, max_devices_without_drops: 0, levels: [] };
    return {
      machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}`,
      ffmpeg: ffmpegVersion(),
      ...serving,
      load,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const ffmpegVersion = () => /ffmpeg version (\S+)/.exec(spawnSync('ffmpeg', ['-version'], { encoding: 'utf8' }).stdout)?.[1] ?? 'unknown';

if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchRecorder();
  const { load, ...rest } = r;
  console.table(rest);
  console.table(load.levels);
  console.log(
    `recording load: ${load.max_devices_without_drops} file devices recorded without a dropped segment (${load.segment_seconds} s segments, ${load.window_s} s window)`,
  );
  console.log(JSON.stringify({ bench: 'recorder', ...r }));
  process.exit(0);
}
