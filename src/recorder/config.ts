// The recorder's settings: its own data dir (beside the platform's, never shared), where video goes,
// and the recording knobs. Flags win over environment variables (RecorderEnv in src/lib/config/env-schema.ts),
// which win over defaults.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { processEnv, readEnv, RecorderEnv, resolveDataDir, type Env } from '../lib/config.js';

export interface RecorderConfig {
  /** Holds recorder.sqlite. */
  dataDir: string;
  /** Where segments are stored: <root>/<device>/<stream>/YYYY/MM/DD/HH/<start µs>.ts */
  storageRoot: string;
  /** Target segment length in seconds; cuts fall on the next keyframe. */
  segmentSeconds: number;
  /** Lifetime of an access token, in days. */
  tokenDays: number;
  ffmpegPath: string;
  ffprobePath: string;
  /** Live HLS rolling window, in segments. */
  liveWindow: number;
  bodyLimit: number;
  /** pino level of the recorder's logger (`silent`: none). */
  logLevel: string;
}

export function recorderConfig(flags: { dataDir?: string } = {}, env: Env = processEnv()): RecorderConfig {
  const dataDir = join(resolveDataDir(flags, env), 'recorder');
  const e = readEnv(RecorderEnv, env);
  const storageRoot = e.OVERLOOK_RECORDER_STORAGE ?? join(dataDir, 'storage');
  mkdirSync(storageRoot, { recursive: true });
  return {
    dataDir,
    storageRoot,
    segmentSeconds: e.OVERLOOK_RECORDER_SEGMENT_SECONDS,
    tokenDays: e.OVERLOOK_RECORDER_TOKEN_DAYS,
    ffmpegPath: e.OVERLOOK_FFMPEG,
    ffprobePath: e.OVERLOOK_FFPROBE,
    liveWindow: e.OVERLOOK_RECORDER_LIVE_WINDOW,
    bodyLimit: e.OVERLOOK_RECORDER_BODY_LIMIT,
    logLevel: e.OVERLOOK_LOG_LEVEL,
  };
}
