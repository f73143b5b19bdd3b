// The recorder's settings: its own data dir (beside the platform's, never shared), where video goes,
// and the recording knobs. Flags win over environment variables, which win over defaults.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { envNumber, mediaTools, resolveDataDir } from '../lib/config.js';

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
}

export function recorderConfig(flags: { dataDir?: string } = {}, env = process.env): RecorderConfig {
  const dataDir = join(resolveDataDir(flags, env), 'recorder');
  const storageRoot = env.OVERLOOK_RECORDER_STORAGE ?? join(dataDir, 'storage');
  mkdirSync(storageRoot, { recursive: true });
  return {
    dataDir,
    storageRoot,
    segmentSeconds: envNumber('OVERLOOK_RECORDER_SEGMENT_SECONDS', 60, env),
    tokenDays: envNumber('OVERLOOK_RECORDER_TOKEN_DAYS', 7, env),
    ...mediaTools(env),
    liveWindow: envNumber('OVERLOOK_RECORDER_LIVE_WINDOW', 6, env),
    bodyLimit: envNumber('OVERLOOK_RECORDER_BODY_LIMIT', 5 * 1024 * 1024, env),
  };
}
