// The recorder's settings: its own data dir (beside the platform's, never shared), where video goes,
// and the recording knobs. Flags win over environment variables (RecorderEnv in src/lib/config/env-schema.ts),
// which win over defaults.
import { chmodSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadKeyFile } from '../lib/secrets/key-file.js';
import {
  corsOrigins,
  httpLimits,
  metricsConfig,
  processEnv,
  readEnv,
  RecorderEnv,
  resolveDataDir,
  type Env,
  type HttpLimits,
  type MetricsConfig,
} from '../lib/config.js';

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
  /** Whether each device's ffmpeg also feeds the live view (live HLS and WebRTC). */
  liveView: boolean;
  /** How long a live stream started for the platform link runs after its last request (ms). */
  liveIdleMs: number;
  bodyLimit: number;
  /** The longest wait between two upload attempts to a remote storage (ms); waits start at 2 s and double. */
  uploadRetryMaxMs: number;
  /** Request deadlines and the per-address connection cap (docs/security.md). */
  httpLimits: HttpLimits;
  /** Web origins allowed to call from a browser (CORS); empty: none. */
  corsOrigins: string[];
  /** Who may read `GET /metrics` (docs/deploy.md, Metrics). */
  metrics: MetricsConfig;
  /** pino level of the recorder's logger (`silent`: none). */
  logLevel: string;
  /** The only folder `file` devices may play from (docs/recorder.md, Devices). */
  mediaDir: string;
  /** Seals camera passwords and remote-storage secrets in the database (32 bytes). */
  secretKey: Buffer;
  /** Sign-in throttle: failures per account (and account + address), per address, and the block. */
  loginFailuresPerAccount: number;
  loginFailuresPerAddress: number;
  loginBlockSeconds: number;
  /** The platform link's backlog cap, in bytes (docs/recorder.md, Platform link). */
  linkBacklogBytes: number;
  /** The longest wait between two reconnection attempts of the platform link (ms). */
  linkRetryMaxMs: number;
  linkSilenceMs: number;
  /** The proxy the link goes through (the usual variables; docs/recorder.md, Platform link). */
  proxy: { httpProxy?: string; httpsProxy?: string; noProxy?: string };
}

export const RECORDER_SECRET_KEY_FILE = 'recorder-secret.key';

export function recorderConfig(flags: { dataDir?: string } = {}, env: Env = processEnv()): RecorderConfig {
  const dataDir = join(resolveDataDir(flags, env), 'recorder');
  const e = readEnv(RecorderEnv, env);
  // The data dir holds the database and the key: the recorder's own user only.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  const storageRoot = e.OVERLOOK_RECORDER_STORAGE ?? join(dataDir, 'storage');
  mkdirSync(storageRoot, { recursive: true });
  const mediaDir = resolve(e.OVERLOOK_RECORDER_MEDIA_DIR || join(dataDir, 'media'));
  mkdirSync(mediaDir, { recursive: true });
  const secretKey = loadKeyFile({
    base64: e.OVERLOOK_RECORDER_SECRET_KEY,
    file: join(dataDir, RECORDER_SECRET_KEY_FILE),
    envName: 'OVERLOOK_RECORDER_SECRET_KEY',
  });
  return {
    dataDir,
    storageRoot,
    segmentSeconds: e.OVERLOOK_RECORDER_SEGMENT_SECONDS,
    tokenDays: e.OVERLOOK_RECORDER_TOKEN_DAYS,
    ffmpegPath: e.OVERLOOK_FFMPEG,
    ffprobePath: e.OVERLOOK_FFPROBE,
    liveWindow: e.OVERLOOK_RECORDER_LIVE_WINDOW,
    liveView: !['off', '0', 'false', 'no'].includes((e.OVERLOOK_RECORDER_LIVE ?? 'on').toLowerCase()),
    liveIdleMs: e.OVERLOOK_RECORDER_LIVE_IDLE_SECONDS * 1000,
    bodyLimit: e.OVERLOOK_RECORDER_BODY_LIMIT,
    uploadRetryMaxMs: e.OVERLOOK_RECORDER_UPLOAD_RETRY_MAX_SECONDS * 1000,
    httpLimits: httpLimits(env),
    corsOrigins: corsOrigins(env),
    metrics: metricsConfig(env),
    logLevel: e.OVERLOOK_LOG_LEVEL,
    mediaDir,
    secretKey,
    loginFailuresPerAccount: e.OVERLOOK_LOGIN_FAILURES_PER_ACCOUNT,
    loginFailuresPerAddress: e.OVERLOOK_LOGIN_FAILURES_PER_ADDRESS,
    loginBlockSeconds: e.OVERLOOK_LOGIN_BLOCK_SECONDS,
    linkBacklogBytes: Math.round(e.OVERLOOK_RECORDER_LINK_BACKLOG_MB * 1024 * 1024),
    linkRetryMaxMs: e.OVERLOOK_RECORDER_LINK_RETRY_MAX_SECONDS * 1000,
    linkSilenceMs: e.OVERLOOK_RECORDER_LINK_SILENCE_SECONDS * 1000,
    proxy: {
      httpProxy: e.HTTP_PROXY || env.http_proxy || undefined,
      httpsProxy: e.HTTPS_PROXY || env.https_proxy || undefined,
      noProxy: e.NO_PROXY || env.no_proxy || undefined,
    },
  };
}
