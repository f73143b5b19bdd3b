// The main API's configuration, built once at startup from the environment (validated against
// PlatformEnv in env-schema.ts, where every variable's default and meaning are) and the flags.
import { corsOrigins } from './cors-origins.js';
import { httpLimits, type HttpLimits } from './http-limits.js';
import { metricsConfig, type MetricsConfig } from './metrics-config.js';
import { DEFAULT_PORTS, resolveDataDir, type ServiceAddress } from './addresses.js';
import { adminConfig, type AdminConfig } from './admin-config.js';
import { bimConfig, type BimConfig } from './bim-config.js';
import { messagesConfig, type MessagesConfig } from './messages-config.js';
import { mailConfig, type MailConfig } from './mail-config.js';
import { OPEN_METEO_ARCHIVE_URL, OPEN_METEO_URL, PlatformEnv, type PlatformEnvValues } from './env-schema.js';
import { processEnv, type Env } from './process-env.js';
import { readEnv } from './read-env.js';
import { parseNetworks, type Network } from '../net/networks.js';
import { ownEndpoints, type Endpoint } from '../net/outbound-guard.js';

export interface PlatformConfig {
  dataDir: string;
  /** pino level of the service's logger (`silent`: none). */
  logLevel: string;
  /** Behind a TLS-terminating proxy: client address from X-Forwarded-For, secure OAuth cookies. */
  trustProxy: boolean;
  /** PostgreSQL connection string; unset means embedded SQLite in the data dir. */
  databaseUrl?: string;
  /** PostgreSQL sizing and start-up (docs/deploy.md, Connections). */
  db: { poolSize: number; listenUrl?: string; migrationsUrl?: string; applicationName: string; startWaitSeconds: number };
  /** Lifetime of a sign-in (JWT and its session), in days. */
  sessionDays: number;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** Request deadlines and the per-address connection cap (docs/security.md). */
  httpLimits: HttpLimits;
  /** Web origins allowed to call from a browser (CORS); empty: none. */
  corsOrigins: string[];
  /** Who may read `GET /metrics`; neither token nor networks: no metrics (docs/deploy.md, Metrics). */
  metrics: MetricsConfig;
  /** Public base URL, used in links the API hands out. */
  publicUrl: string;
  /** PEM-encoded PKCS#8 private key for signing JWTs; when absent the signing keys are kept in the database (docs/deploy.md, Secrets). */
  jwtPrivateKeyPem?: string;
  /** OVERLOOK_SECRET_KEY: base64 of 32 bytes that seals the secrets in the database; generated into `<dataDir>/connector-secret.key` when absent. */
  secretKey?: string;
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
  /** Live view: ffmpeg streams per node, and streams one person may start (docs/security.md). */
  liveStreams: { perNode: number; perPerson: number };
  /** Whether the API process runs the cloud recordings loop (recorder and retention). */
  recordingLoop: boolean;
  /** Most camera fetches the recording loop runs at once. */
  recordingConcurrency: number;
  /** How long a lease on background work lasts unless its node renews it, in seconds (docs/deploy.md, Background work). */
  workLeaseSeconds: number;
  /** Where the other nodes reach this one (OVERLOOK_NODE_URL, no trailing slash); unset: the address it listens on. */
  nodeUrl?: string;
  /** Where the web app's `/ai/…` requests are passed on to the AI API (OVERLOOK_AI_URL, no trailing slash); unset: nowhere. */
  aiUrl?: string;
  /** Where binary objects go: files under `<dataDir>/objects`, or an S3-compatible bucket. */
  storage: StorageConfig;
  /** Largest ANPR plate image accepted, in bytes of JPEG (the request body limit applies too). */
  anprImageMaxBytes: number;
  /** Media hub: whether this process runs the render jobs (OVERLOOK_MEDIA_JOBS=0: off). */
  mediaJobs: boolean;
  /** Media hub: renders run at once (OVERLOOK_MEDIA_CONCURRENCY). */
  mediaConcurrency: number;
  /** Media hub: how often the queue is polled, in milliseconds (OVERLOOK_MEDIA_POLL_SECONDS). */
  mediaPollMs: number;
  /** Media hub: largest uploaded file or logo, in bytes (OVERLOOK_MEDIA_FILE_MAX_BYTES). */
  mediaFileMaxBytes: number;
  /** Media hub: most frames one clip or timelapse uses; longer ranges are sampled evenly (OVERLOOK_MEDIA_MAX_FRAMES). */
  mediaMaxFrames: number;
  /** Largest ANPR event metadata accepted, in bytes of JSON. */
  anprMetadataMaxBytes: number;
  /** Largest project logo or thumbnail upload, in bytes of image (OVERLOOK_SETTINGS_IMAGE_MAX_BYTES). */
  settingsImageMaxBytes: number;
  /** Messages out: the outbox's dispatcher, webhooks and MQTT (messages-config.ts). */
  messages: MessagesConfig;
  /** BIM uploads (renders and overlay layers): accepted image types, byte and pixel limits (bim-config.ts). */
  bim: BimConfig;
  /** Real cameras: how long one snapshot or ONVIF exchange may take, in milliseconds. */
  cameraTimeoutMs: number;
  /** Connections made on a tenant's behalf: the networks opted in besides the public internet, and the platform's own endpoints, always refused (docs/security.md, Outbound connections). */
  outbound: OutboundConfig;
  /** Administration: impersonation, OpenID Connect sign-in providers, CRM and CMS proxies (admin-config.ts). */
  admin: AdminConfig;
  /** OAuth: the MCP server's resource URL (its `/mcp`), the resource access tokens are issued for. */
  mcpUrl: string;
  /** OAuth: signing and cookie keys as JSON (OVERLOOK_OAUTH_KEYS); kept in the database when absent. */
  oauthKeysJson?: string;
  /** OAuth: anonymous client registrations allowed per address per hour, and days an unauthorized one is kept. */
  oauthRegistrationsPerHour: number;
  /** Adds of people who share no project with the adder, per adder per hour (docs/security.md). */
  memberAddsPerHour: number;
  oauthUnusedClientDays: number;
  /** Connectors: the provider timeout, and the OVERLOOK_<PROVIDER>_URL/_AUTH_URL/_CLIENT_ID/_CLIENT_SECRET variables. */
  connectors: ConnectorsConfig;
  /** Weather provider (Open-Meteo's API shape): forecast base URL (OVERLOOK_WEATHER_URL) and archive base URL (OVERLOOK_WEATHER_ARCHIVE_URL; defaults to OVERLOOK_WEATHER_URL when only that is set). */
  weatherUrl: string;
  weatherArchiveUrl: string;
  /** How long one weather provider request may take, in milliseconds. */
  weatherTimeoutMs: number;
  /** How long current conditions (and today's hours) are served from the cache, in seconds. */
  weatherCurrentTtlSeconds: number;
  /** E-mail: the SMTP server (off when unset) and the From address (mail-config.ts). */
  mail: MailConfig;
}

/** `env` is read once, at startup (tests hand in a plain object); a bad value throws, naming the variable. */
export function platformConfig(flags: { dataDir?: string } = {}, env: Env = processEnv(), address?: ServiceAddress): PlatformConfig {
  const dataDir = resolveDataDir(flags, env);
  const e = readEnv(PlatformEnv, env);
  const addr = address ?? { host: '127.0.0.1', port: DEFAULT_PORTS.platform };
  const publicUrl = e.OVERLOOK_PUBLIC_URL ?? `http://${addr.host}:${addr.port}`;
  return {
    dataDir,
    logLevel: e.OVERLOOK_LOG_LEVEL,
    trustProxy: e.OVERLOOK_TRUST_PROXY === '1',
    databaseUrl: e.DATABASE_URL,
    db: {
      poolSize: e.OVERLOOK_DB_POOL_SIZE,
      listenUrl: e.OVERLOOK_DB_LISTEN_URL,
      migrationsUrl: e.OVERLOOK_DB_MIGRATIONS_URL,
      applicationName: e.OVERLOOK_DB_APPLICATION_NAME,
      startWaitSeconds: e.OVERLOOK_DB_START_WAIT_SECONDS,
    },
    sessionDays: e.OVERLOOK_SESSION_DAYS,
    bodyLimit: e.OVERLOOK_BODY_LIMIT,
    httpLimits: httpLimits(env),
    corsOrigins: corsOrigins(env),
    metrics: metricsConfig(env),
    settingsImageMaxBytes: e.OVERLOOK_SETTINGS_IMAGE_MAX_BYTES,
    publicUrl,
    jwtPrivateKeyPem: e.OVERLOOK_JWT_PRIVATE_KEY,
    secretKey: e.OVERLOOK_SECRET_KEY,
    loginFailuresPerAccount: e.OVERLOOK_LOGIN_FAILURES_PER_ACCOUNT,
    loginFailuresPerAddress: e.OVERLOOK_LOGIN_FAILURES_PER_ADDRESS,
    loginBlockSeconds: e.OVERLOOK_LOGIN_BLOCK_SECONDS,
    signupEnabled: e.OVERLOOK_SIGNUP === '1',
    ffmpegPath: e.OVERLOOK_FFMPEG,
    ffprobePath: e.OVERLOOK_FFPROBE,
    hlsIdleSeconds: e.OVERLOOK_HLS_IDLE_SECONDS,
    mediaTokenSeconds: e.OVERLOOK_MEDIA_TOKEN_SECONDS,
    liveStreams: { perNode: Math.floor(e.OVERLOOK_LIVE_STREAMS_PER_NODE), perPerson: Math.floor(e.OVERLOOK_LIVE_STREAMS_PER_PERSON) },
    recordingLoop: !['0', 'false', 'off', 'no'].includes((e.OVERLOOK_RECORDING_LOOP ?? '').toLowerCase()),
    recordingConcurrency: e.OVERLOOK_RECORDING_CONCURRENCY,
    workLeaseSeconds: e.OVERLOOK_WORK_LEASE_SECONDS,
    nodeUrl: httpUrl('OVERLOOK_NODE_URL', e.OVERLOOK_NODE_URL),
    aiUrl: httpUrl('OVERLOOK_AI_URL', e.OVERLOOK_AI_URL),
    storage: storageConfig(e),
    anprImageMaxBytes: e.OVERLOOK_ANPR_IMAGE_MAX_BYTES,
    mediaJobs: e.OVERLOOK_MEDIA_JOBS !== '0',
    mediaConcurrency: Math.max(1, e.OVERLOOK_MEDIA_CONCURRENCY),
    mediaPollMs: e.OVERLOOK_MEDIA_POLL_SECONDS * 1000,
    mediaFileMaxBytes: e.OVERLOOK_MEDIA_FILE_MAX_BYTES,
    mediaMaxFrames: Math.max(2, e.OVERLOOK_MEDIA_MAX_FRAMES),
    anprMetadataMaxBytes: e.OVERLOOK_ANPR_METADATA_MAX_BYTES,
    cameraTimeoutMs: e.OVERLOOK_CAMERA_TIMEOUT_MS,
    outbound: {
      allowedNetworks: parseNetworks(e.OVERLOOK_ALLOWED_NETWORKS),
      own: ownEndpoints(addr, [e.OVERLOOK_PUBLIC_URL, e.OVERLOOK_NODE_URL]),
    },
    admin: adminConfig(e),
    bim: bimConfig(e),
    messages: messagesConfig(e),
    // `||`: an empty OVERLOOK_MCP_PORT means 3100 here (the MCP server itself would listen on port 0).
    mcpUrl: e.OVERLOOK_MCP_URL ?? `http://127.0.0.1:${e.OVERLOOK_MCP_PORT || DEFAULT_PORTS.mcp}/mcp`,
    oauthKeysJson: e.OVERLOOK_OAUTH_KEYS,
    oauthRegistrationsPerHour: e.OVERLOOK_OAUTH_REGISTRATIONS_PER_HOUR,
    memberAddsPerHour: e.OVERLOOK_MEMBER_ADDS_PER_HOUR,
    oauthUnusedClientDays: e.OVERLOOK_OAUTH_UNUSED_CLIENT_DAYS,
    connectors: {
      timeoutMs: e.OVERLOOK_CONNECTOR_TIMEOUT_MS,
      // Each provider reads its own OVERLOOK_<PROVIDER>_* variables (ConnectorEnv in env-schema.ts).
      env: Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('OVERLOOK_'))),
    },
    weatherUrl: e.OVERLOOK_WEATHER_URL ?? OPEN_METEO_URL,
    weatherArchiveUrl: e.OVERLOOK_WEATHER_ARCHIVE_URL ?? e.OVERLOOK_WEATHER_URL ?? OPEN_METEO_ARCHIVE_URL,
    weatherTimeoutMs: e.OVERLOOK_WEATHER_TIMEOUT_MS,
    weatherCurrentTtlSeconds: e.OVERLOOK_WEATHER_CURRENT_TTL_SECONDS,
    mail: mailConfig(e, publicUrl),
  };
}

interface ConnectorsConfig {
  /** OVERLOOK_CONNECTOR_TIMEOUT_MS: how long one provider request may take. */
  timeoutMs: number;
  /** Every OVERLOOK_* variable: each provider reads its own (see src/platform/connectors/framework/provider.ts). */
  env: Record<string, string | undefined>;
}

interface OutboundConfig {
  allowedNetworks: Network[];
  own: Endpoint[];
}

export type StorageConfig = { kind: 'fs' } | { kind: 's3'; endpoint?: string; bucket: string; region: string; accessKeyId?: string; secretAccessKey?: string };

/** A URL setting checked: an http(s) URL with no credentials, query or fragment, without its trailing slash. */
function httpUrl(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new Error(`${name} must be an http or https URL`);
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password || u.search || u.hash) {
    throw new Error(`${name} must be an http or https URL without credentials, query or fragment`);
  }
  return u.toString().replace(/\/+$/, '');
}

/** The object store the environment names, for a command that needs no data dir made (`overlook restore`). */
export function storageConfigOf(env: Env = processEnv()): StorageConfig {
  return storageConfig(readEnv(PlatformEnv, env));
}

/** OVERLOOK_STORAGE=s3 with OVERLOOK_S3_* picks an S3-compatible bucket (path-style addressing). */
function storageConfig(env: PlatformEnvValues): StorageConfig {
  if (env.OVERLOOK_STORAGE === 'fs') return { kind: 'fs' };
  const bucket = env.OVERLOOK_S3_BUCKET;
  if (!bucket) throw new Error('OVERLOOK_STORAGE=s3 needs OVERLOOK_S3_BUCKET');
  return {
    kind: 's3',
    endpoint: env.OVERLOOK_S3_ENDPOINT,
    bucket,
    region: env.OVERLOOK_S3_REGION,
    accessKeyId: env.OVERLOOK_S3_ACCESS_KEY_ID,
    secretAccessKey: env.OVERLOOK_S3_SECRET_ACCESS_KEY,
  };
}
