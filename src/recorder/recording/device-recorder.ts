// Records one device stream with a supervised ffmpeg process. ffmpeg writes segments into a staging
// folder and names each finished one on stdout; the recorder moves it into its dated place and
// indexes it with its wall-clock start and end. When ffmpeg exits unexpectedly (the camera dropped),
// the run closes, the device turns `failed` with ffmpeg's reason, and ffmpeg is started again with
// back-off; every start opens a new run. The same ffmpeg also feeds the live view (a short-segment
// HLS playlist in the stream's live folder, and RTP for WebRTC viewers): one camera connection.
// A device watched through the platform link while it does not record gets a live-only ffmpeg
// (`record` false): the live HLS output alone, no run, no segments, and the device's state untouched.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { redactUrlCredentials } from '../../lib/redact-url-credentials.js';
import type { SegmentIndex } from '../recordings/index.js';
import type { DeviceState, SourceSpec } from '../devices/index.js';
import { explainFfmpegError, recordArgs } from './ffmpeg-args.js';
import { probeFileSource } from './ffprobe.js';
import { liveDir, segmentRelPath, stagingDir } from './segment-layout.js';

/** Where a stream's video goes as RTP for WebRTC viewers: the live view's feeds, wired in services.ts. */
interface RtpOutlet {
  /** Opens the stream's feed and answers the local UDP port to send its RTP to. */
  open(deviceId: string, stream: string): Promise<number>;
  close(deviceId: string, stream: string): Promise<void>;
}

export interface RecorderDeps {
  index: SegmentIndex;
  storageRoot: string;
  ffmpeg: string;
  segmentSeconds: number;
  /** The live view's HLS output (segment length, playlist length); none: no live HLS. */
  live?: { segmentSeconds: number; listSize: number };
  /** Where the WebRTC feed's RTP goes; none: no WebRTC. */
  rtp?: RtpOutlet;
  /** To look at a file source's keyframes (re-encoded when too far apart for the live view). */
  ffprobe?: string;
  setState(deviceId: string, state: DeviceState, reason: string | null): Promise<void>;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

/** Wall-clock drift (s) between where the stream says it is and the clock that breaks a run. */
const DRIFT_LIMIT_S = 30;
const MAX_BACKOFF_MS = 30_000;
/** A file whose keyframes are further apart than this is re-encoded with one every live segment. */
const MAX_FILE_KEYFRAME_GAP_S = 2;
const run = promisify(execFile);

type SourceProbe = Awaited<ReturnType<typeof probeFileSource>>;
/** File probes by path, kept while the file is unchanged: a live view started on demand does not wait for one again. */
const probes = new Map<string, { version: string; probe: SourceProbe }>();

async function probeOnce(ffprobe: string, file: string): Promise<SourceProbe> {
  let version = '';
  try {
    const s = statSync(file);
    version = `${s.size}:${s.mtimeMs}`;
  } catch {
    /* probed as it is: ffprobe says what is wrong */
  }
  const kept = probes.get(file);
  if (kept && version && kept.version === version) return kept.probe;
  const probe = await probeFileSource({ ffprobe }, file);
  if (version && probe.codec !== null) probes.set(file, { version, probe });
  return probe;
}

interface FileProbe {
  /** Re-encode with a keyframe this often (s); null: copy. */
  keyframeEvery: number | null;
  /** What ffmpeg reads: the file, or its MPEG-TS remux. */
  input: string;
  /** Whether it can feed WebRTC: H.264 (re-encoded, or copied from MPEG-TS framing). */
  rtp: boolean;
}

export class DeviceRecorder {
  private child: ChildProcess | null = null;
  private stopping = false;
  private backoffMs = 1000;
  private restartTimer: NodeJS.Timeout | null = null;
  private runId: string | null = null;
  private anchorMs: number | null = null;
  private lastReason: string | null = null;
  private pending: Promise<unknown> = Promise.resolve();
  /** For file sources, probed once: the re-encode keyframe interval (null: copy) and the codec. */
  private fileProbe: FileProbe | undefined;
  segmentsWritten = 0;

  constructor(
    readonly deviceId: string,
    readonly stream: string,
    private readonly source: SourceSpec,
    private readonly deps: RecorderDeps,
    /** false: the live view alone (it needs `deps.live`), for a device watched while it does not record. */
    readonly record = true,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Why ffmpeg last failed, in words (null: it has not). */
  get failure(): string | null {
    return this.lastReason;
  }

  start(): void {
    this.stopping = false;
    void this.spawnFfmpeg();
  }

  private async spawnFfmpeg(): Promise<void> {
    if (this.stopping) return;
    const file = await this.probeFile();
    const keyframeEvery = file?.keyframeEvery ?? undefined;
    // WebRTC viewers get H.264 only: a file in another codec (re-encoded files are H.264), or one
    // that could not be remuxed to MPEG-TS, has no RTP feed.
    const rtpPort = this.record && this.deps.rtp && (file?.rtp ?? true) ? await this.deps.rtp.open(this.deviceId, this.stream) : undefined;
    if (this.stopping) {
      await this.deps.rtp?.close(this.deviceId, this.stream);
      return;
    }
    // A live-only ffmpeg has no run; its staging folder holds only run.json, for recovery to stop it.
    const runId = this.record ? await this.deps.index.openRun(this.deviceId, this.stream, new Date()) : `live-${randomUUID()}`;
    this.runId = this.record ? runId : null;
    this.anchorMs = null;
    this.lastReason = null;
    const dir = stagingDir(this.deps.storageRoot, this.deviceId, this.stream, runId);
    mkdirSync(dir, { recursive: true });
    const live = this.deps.live ? { ...this.deps.live, dir: this.liveFolder() } : undefined;
    if (live) {
      // A playlist left by an earlier ffmpeg names segments that will never come again.
      rmSync(live.dir, { recursive: true, force: true });
      mkdirSync(live.dir, { recursive: true });
    }
    const source = file ? { ...this.source, input: file.input } : this.source;
    const segments = this.record ? join(dir, 'seg_%06d.ts') : undefined;
    const args = recordArgs(source, { segments, segmentSeconds: this.deps.segmentSeconds, live, rtpPort, keyframeEvery });
    const child = spawn(this.deps.ffmpeg, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    // Written so that a recorder killed with -9 can find and stop its orphaned ffmpeg on restart (by a
    // path its command line names: the staging folder, or the live folder of a live-only one).
    const marker = this.record ? {} : { names: live?.dir };
    writeFileSync(join(dir, 'run.json'), JSON.stringify({ run_id: runId, pid: child.pid, started_at: new Date().toISOString(), ...marker }));
    if (this.record) await this.deps.setState(this.deviceId, 'streaming', null);

    createInterface({ input: child.stdout! }).on('line', (line) => {
      this.pending = this.pending
        .then(() => this.onSegmentLine(dir, runId, line))
        .catch((err) => this.deps.log.warn({ err, deviceId: this.deviceId }, 'indexing a segment failed'));
    });
    createInterface({ input: child.stderr! }).on('line', (line) => {
      const reason = explainFfmpegError(line);
      if (reason) this.lastReason = reason;
      this.deps.log.warn({ deviceId: this.deviceId, stream: this.stream, ffmpeg: redactUrlCredentials(line.slice(0, 500)) }, 'ffmpeg');
    });
    child.once('error', (err) => {
      this.lastReason = `ffmpeg could not start: ${redactUrlCredentials(err.message)}`;
    });
    child.once('close', (code, signal) => {
      this.pending = this.pending.then(() => this.onExit(dir, runId, code, signal));
    });
  }

  private liveFolder(): string {
    return liveDir(this.deps.storageRoot, this.deviceId, this.stream);
  }

  /**
   * A camera's stream is always copied, and its live segments follow its keyframes. A file is copied
   * too unless its keyframes are too far apart for short live segments: then it is re-encoded (once,
   * for every output) with a keyframe every live segment. A copied H.264 file that is not MPEG-TS is
   * remuxed to MPEG-TS once per start, beside the device's video, for the RTP output (ffmpeg-args.ts); a live-only one has none.
   */
  private async probeFile(): Promise<FileProbe | null> {
    if (this.source.type !== 'file' || !this.deps.ffprobe) return null;
    if (this.fileProbe === undefined) {
      const { format, codec, longestKeyframeGap: gap } = await probeOnce(this.deps.ffprobe, this.source.input);
      const keyframeEvery = this.deps.live && (gap === null || gap > MAX_FILE_KEYFRAME_GAP_S) ? this.deps.live.segmentSeconds : null;
      let input = this.source.input;
      let rtp = keyframeEvery !== null || (codec === 'h264' && format === 'mpegts');
      if (this.record && this.deps.rtp && !rtp && keyframeEvery === null && codec === 'h264') {
        const ts = join(this.deps.storageRoot, this.deviceId, this.stream, '.source.ts');
        mkdirSync(dirname(ts), { recursive: true });
        try {
          await run(this.deps.ffmpeg, ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-i', input, '-map', '0:v:0', '-c', 'copy', '-f', 'mpegts', ts]);
          input = ts;
          rtp = true;
        } catch (err) {
          this.deps.log.warn({ err, deviceId: this.deviceId }, 'remuxing the file for WebRTC failed; no WebRTC for it');
        }
      }
      this.fileProbe = { keyframeEvery, input, rtp };
    }
    return this.fileProbe;
  }

  private async onSegmentLine(dir: string, runId: string, line: string): Promise<void> {
    const [file, startS, endS] = line.split(',');
    const start = Number(startS);
    const end = Number(endS);
    if (!file || !Number.isFinite(start) || !Number.isFinite(end) || end <= start) return;
    const staged = join(dir, file);
    const now = Date.now();
    // The first segment anchors the run to the wall clock; later ones follow the stream's own timing,
    // unless the two drift apart (a clock jump or a stalled source): then a new run starts.
    if (this.anchorMs === null || Math.abs(now - (this.anchorMs + end * 1000)) > DRIFT_LIMIT_S * 1000) {
      if (this.anchorMs !== null) {
        await this.deps.index.closeRun(runId);
        this.runId = await this.deps.index.openRun(this.deviceId, this.stream, new Date(now - (end - start) * 1000));
      }
      this.anchorMs = now - end * 1000;
    }
    const startAt = new Date(Math.round(this.anchorMs + start * 1000));
    const endAt = new Date(Math.round(this.anchorMs + end * 1000));
    const rel = segmentRelPath(this.deviceId, this.stream, startAt);
    const dest = join(this.deps.storageRoot, rel);
    mkdirSync(dirname(dest), { recursive: true });
    renameSync(staged, dest);
    await this.deps.index.add({
      device_id: this.deviceId,
      stream: this.stream,
      run_id: this.runId ?? runId,
      start_date: startAt.toISOString(),
      end_date: endAt.toISOString(),
      duration_ms: Math.round((end - start) * 1000),
      path: rel,
      size: statSync(dest).size,
    });
    this.segmentsWritten++;
    this.backoffMs = 1000;
    if (this.segmentsWritten === 1 || this.lastReason) await this.deps.setState(this.deviceId, 'recording', null);
  }

  private async onExit(dir: string, runId: string, code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    this.child = null;
    if (this.record) await this.deps.index.closeRun(this.runId ?? runId);
    try {
      rmSync(dir, { recursive: true, force: true });
      // No ffmpeg, no live picture: the playlist goes (404) rather than freeze on its last segment.
      if (this.deps.live) rmSync(this.liveFolder(), { recursive: true, force: true });
    } catch {
      /* a leftover folder is cleaned by recovery */
    }
    if (this.stopping) {
      if (this.record) await this.deps.setState(this.deviceId, 'stopped', null);
      return;
    }
    const reason = this.lastReason ?? `ffmpeg exited (${signal ?? `code ${code}`})`;
    this.lastReason = reason;
    this.deps.log.warn({ deviceId: this.deviceId, stream: this.stream, reason, retryInMs: this.backoffMs, record: this.record }, 'ffmpeg stopped; retrying');
    if (this.record) await this.deps.setState(this.deviceId, 'failed', reason);
    this.restartTimer = setTimeout(() => void this.spawnFfmpeg(), this.backoffMs);
    this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
  }

  /** Stops ffmpeg cleanly (it finishes and announces the current segment) and waits for it. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child) {
      await this.deps.rtp?.close(this.deviceId, this.stream);
      if (this.record) await this.deps.setState(this.deviceId, 'stopped', null);
      return;
    }
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await closed;
    clearTimeout(timer);
    await this.pending;
    await this.deps.rtp?.close(this.deviceId, this.stream);
  }
}
