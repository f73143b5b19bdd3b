// Configuration shared by every service: flags win over environment variables, which win over defaults.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { adminConfig, type AdminConfig } from './admin-config.js';
import { bimConfig, type BimConfig } from './bim-config.js';

export interface ServeFlags {
  host?: string;
  port?: string | number;
  dataDir?: string;
}

export interface ServiceAddress {
  host: string;
  port: number;
}

export const DEFAULT_PORTS = {
  platform: 3000,
  mcp: 3100,
  ai: 3200,
  labs: 3300,
  recorder: 4000,
} as const;

export type ServiceName = keyof typeof DEFAULT_PORTS;

const ENV_PORT: Record<ServiceName, string> = {
  platform: 'OVERLOOK_PORT',
  mcp: 'OVERLOOK_MCP_PORT',
  ai: 'OVERLOOK_AI_PORT',
  labs: 'OVERLOOK_LABS_PORT',
  recorder: 'OVERLOOK_RECORDER_PORT',
};

export function parsePort(value: string | number, what = 'port'): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${what} must be an integer from 0 to 65535, got ${value}`);
  return n;
}

export function resolveAddress(service: ServiceName, flags: ServeFlags, env = process.env): ServiceAddress {
  const host = flags.host ?? env.OVERLOOK_HOST ?? '127.0.0.1';
  const port = parsePort(flags.port ?? env[ENV_PORT[service]] ?? DEFAULT_PORTS[service]);
  return { host, port };
}

/** The data directory, created if missing. */
export function resolveDataDir(flags: { dataDir?: string }, env = process.env): string {
  const dir = resolve(flags.dataDir ?? env.OVERLOOK_DATA_DIR ?? './data');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Positive number from the environment, or the default. */
export function envNumber(name: string, fallback: number, env = process.env): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return n;
}

/** The ffmpeg and ffprobe binaries (OVERLOOK_FFMPEG, OVERLOOK_FFPROBE), shared by the platform and the recorder. */
export function mediaTools(env = process.env): { ffmpegPath: string; ffprobePath: string } {
  return { ffmpegPath: env.OVERLOOK_FFMPEG || 'ffmpeg', ffprobePath: env.OVERLOOK_FFPROBE || 'ffprobe' };
}

export interface PlatformConfig {
  dataDir: string;
  /** PostgreSQL connection string; unset means embedded SQLite in the data dir. */
  databaseUrl?: string;
  /** Lifetime of a sign-in (JWT and its session), in days. */
  sessionDays: number;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** Public base URL, used in links the API hands out. */
  publicUrl: string;
  /** PEM-encoded PKCS#8 private key for signing JWTs; generated into the data dir when absent. */
  jwtPrivateKeyPem?: string;
  /** Failed sign-ins allowed per account and per address before 429. */
  loginFailuresPerAccount: number;
  loginFailuresPerAddress: number;
  /** How long a throttled account or address waits, in seconds. */
  loginBlockSeconds: number;
  /** Whether new people may sign themselves up (no sign-up endpoint exists yet; reported by signup_options). */
  signupEnabled: boolean;
  /** Live view: ffmpeg and ffprobe binaries (OVERLOOK_FFMPEG, OVERLOOK_FFPROBE). */
  ffmpegPath: string;
  ffprobePath: string;
  /** Live view: an on-demand HLS stream stops after this many seconds without a playlist or segment fetch. */
  hlsIdleSeconds: number;
  /** Live view: lifetime of the media token in the URL `/hls` hands out, in seconds. */
  mediaTokenSeconds: number;
  /** Whether the API process runs the cloud recordings loop (recorder and retention). */
  recordingLoop: boolean;
  /** Most camera fetches the recording loop runs at once. */
  recordingConcurrency: number;
  /** Where binary objects go: files under `<dataDir>/objects`, or an S3-compatible bucket. */
  storage: StorageConfig;
  /** Largest ANPR plate image accepted, in bytes of JPEG (the request body limit applies too). */
  anprImageMaxBytes: number;
  /** Media hub: whether this process runs the render jobs (OVERLOOK_MEDIA_JOBS=0: off). */
  mediaJobs: boolean;
  /** Media hub: renders run at once (OVERLOOK_MEDIA_CONCURRENCY). */
  mediaConcurrency: number;
  /** Media hub: largest uploaded file or logo, in bytes (OVERLOOK_MEDIA_FILE_MAX_BYTES). */
  mediaFileMaxBytes: number;
  /** Media hub: most frames one clip or timelapse uses; longer ranges are sampled evenly (OVERLOOK_MEDIA_MAX_FRAMES). */
  mediaMaxFrames: number;
  /** Largest ANPR event metadata accepted, in bytes of JSON. */
  anprMetadataMaxBytes: number;
  /** Largest project logo or thumbnail upload, in bytes of image (OVERLOOK_SETTINGS_IMAGE_MAX_BYTES). */
  settingsImageMaxBytes: number;
  /** BIM uploads (renders and overlay layers): accepted image types, byte and pixel limits (src/lib/bim-config.ts). */
  bim: BimConfig;
  /** Real cameras: how long one snapshot or ONVIF exchange may take, in milliseconds. */
  cameraTimeoutMs: number;
  /** Administration: impersonation, OpenID Connect sign-in providers, CRM and CMS proxies (src/lib/admin-config.ts). */
  admin: AdminConfig;
  /** OAuth: the MCP server's resource URL (its `/mcp`), the resource access tokens are issued for. */
  mcpUrl: string;
  /** OAuth: signing and cookie keys as JSON (OVERLOOK_OAUTH_KEYS); generated into the data dir when absent. */
  oauthKeysJson?: string;
  /** Connectors: the vault key, the provider timeout, and the OVERLOOK_<PROVIDER>_URL/_AUTH_URL/_CLIENT_ID/_CLIENT_SECRET variables. */
  connectors: ConnectorsConfig;
  /** Weather provider (Open-Meteo's API shape): forecast base URL (OVERLOOK_WEATHER_URL) and archive base URL (OVERLOOK_WEATHER_ARCHIVE_URL; defaults to OVERLOOK_WEATHER_URL when only that is set). */
  weatherUrl: string;
  weatherArchiveUrl: string;
  /** How long one weather provider request may take, in milliseconds. */
  weatherTimeoutMs: number;
  /** How long current conditions (and today's hours) are served from the cache, in seconds. */
  weatherCurrentTtlSeconds: number;
}

export function platformConfig(flags: { dataDir?: string } = {}, env = process.env, address?: ServiceAddress): PlatformConfig {
  const dataDir = resolveDataDir(flags, env);
  const addr = address ?? { host: '127.0.0.1', port: DEFAULT_PORTS.platform };
  return {
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    sessionDays: envNumber('OVERLOOK_SESSION_DAYS', 14, env),
    bodyLimit: envNumber('OVERLOOK_BODY_LIMIT', 1024 * 1024, env),
    settingsImageMaxBytes: envNumber('OVERLOOK_SETTINGS_IMAGE_MAX_BYTES', 2 * 1024 * 1024, env),
    publicUrl: env.OVERLOOK_PUBLIC_URL ?? `http://${addr.host}:${addr.port}`,
    jwtPrivateKeyPem: env.OVERLOOK_JWT_PRIVATE_KEY || undefined,
    loginFailuresPerAccount: envNumber('OVERLOOK_LOGIN_FAILURES_PER_ACCOUNT', 5, env),
    loginFailuresPerAddress: envNumber('OVERLOOK_LOGIN_FAILURES_PER_ADDRESS', 20, env),
    loginBlockSeconds: envNumber('OVERLOOK_LOGIN_BLOCK_SECONDS', 60, env),
    signupEnabled: env.OVERLOOK_SIGNUP === '1',
    ...mediaTools(env),
    hlsIdleSeconds: envNumber('OVERLOOK_HLS_IDLE_SECONDS', 30, env),
    mediaTokenSeconds: envNumber('OVERLOOK_MEDIA_TOKEN_SECONDS', 600, env),
    recordingLoop: !['0', 'false', 'off', 'no'].includes((env.OVERLOOK_RECORDING_LOOP ?? '').toLowerCase()),
    recordingConcurrency: envNumber('OVERLOOK_RECORDING_CONCURRENCY', 16, env),
    storage: storageConfig(env),
    anprImageMaxBytes: envNumber('OVERLOOK_ANPR_IMAGE_MAX_BYTES', 512 * 1024, env),
    mediaJobs: env.OVERLOOK_MEDIA_JOBS !== '0',
    mediaConcurrency: Math.max(1, envNumber('OVERLOOK_MEDIA_CONCURRENCY', 1, env)),
    mediaFileMaxBytes: envNumber('OVERLOOK_MEDIA_FILE_MAX_BYTES', 20 * 1024 * 1024, env),
    mediaMaxFrames: Math.max(2, envNumber('OVERLOOK_MEDIA_MAX_FRAMES', 3000, env)),
    anprMetadataMaxBytes: envNumber('OVERLOOK_ANPR_METADATA_MAX_BYTES', 8 * 1024, env),
    cameraTimeoutMs: envNumber('OVERLOOK_CAMERA_TIMEOUT_MS', 5000, env),
    admin: adminConfig(env),
    bim: bimConfig(env),
    mcpUrl: env.OVERLOOK_MCP_URL || `http://127.0.0.1:${env.OVERLOOK_MCP_PORT || DEFAULT_PORTS.mcp}/mcp`,
    oauthKeysJson: env.OVERLOOK_OAUTH_KEYS || undefined,
    connectors: {
      secretKey: env.OVERLOOK_SECRET_KEY || undefined,
      timeoutMs: envNumber('OVERLOOK_CONNECTOR_TIMEOUT_MS', 10_000, env),
      env: Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('OVERLOOK_'))),
    },
    weatherUrl: env.OVERLOOK_WEATHER_URL || 'https://api.open-meteo.com',
    weatherArchiveUrl: env.OVERLOOK_WEATHER_ARCHIVE_URL || env.OVERLOOK_WEATHER_URL || 'https://archive-api.open-meteo.com',
    weatherTimeoutMs: envNumber('OVERLOOK_WEATHER_TIMEOUT_MS', 10_000, env),
    weatherCurrentTtlSeconds: envNumber('OVERLOOK_WEATHER_CURRENT_TTL_SECONDS', 300, env),
  };
}

export interface ConnectorsConfig {
  /** OVERLOOK_SECRET_KEY: base64 of 32 bytes; generated into `<dataDir>/connector-secret.key` when absent. */
  secretKey?: string;
  /** OVERLOOK_CONNECTOR_TIMEOUT_MS: how long one provider request may take. */
  timeoutMs: number;
  /** Every OVERLOOK_* variable: each provider reads its own (see src/platform/connectors/framework/provider.ts). */
  env: Record<string, string | undefined>;
}

export type StorageConfig =
  | { kind: 'fs' }
  | { kind: 's3'; endpoint?: string; bucket: string; region: string; accessKeyId?: string; secretAccessKey?: string };

/** OVERLOOK_STORAGE=s3 with OVERLOOK_S3_* picks an S3-compatible bucket (path-style addressing). */
export function storageConfig(env = process.env): StorageConfig {
  const kind = env.OVERLOOK_STORAGE || 'fs';
  if (kind === 'fs') return { kind: 'fs' };
  if (kind !== 's3') throw new Error(`OVERLOOK_STORAGE must be fs or s3, got ${kind}`);
  const bucket = env.OVERLOOK_S3_BUCKET;
  if (!bucket) throw new Error('OVERLOOK_STORAGE=s3 needs OVERLOOK_S3_BUCKET');
  return {
    kind: 's3',
    endpoint: env.OVERLOOK_S3_ENDPOINT || undefined,
    bucket,
    region: env.OVERLOOK_S3_REGION || 'us-east-1',
    accessKeyId: env.OVERLOOK_S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.OVERLOOK_S3_SECRET_ACCESS_KEY || undefined,
  };
}
