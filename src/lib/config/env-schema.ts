// Every environment variable Overlook reads, as TypeBox schemas: type, default and meaning. Each service
// validates the variables it reads (its schema at the end of this file) once at startup, through readEnv;
// which services read a variable follows from the schemas it is in. README.md's configuration table is
// generated from here (`npm run docs:config`). `defaultText` documents a default that is computed, not fixed.
import { Type, type Static, type TObject, type TProperties } from 'typebox';
import { DEFAULT_DATA_DIR, DEFAULT_HOST, DEFAULT_PORTS, type ServiceName } from './addresses.js';

/** A positive number: `0`, negatives, `Infinity` (hence the maximum) and text are refused. */
const positive = (fallback: number, description: string) => Type.Number({ exclusiveMinimum: 0, maximum: Number.MAX_VALUE, default: fallback, description });
/** Text where an empty value counts as unset (readEnv drops what a schema refuses when empty). */
const nonEmpty = (description: string, options: { default?: string; defaultText?: string } = {}) => Type.String({ minLength: 1, description, ...options });
/** Text taken as given, the empty string included. */
const text = (description: string, options: { default?: string; defaultText?: string } = {}) => Type.String({ description, ...options });
const port = (service: ServiceName, what: string, more = '') =>
  text(`Port of ${what}, 0 to 65535 (same as its --port)${more}`, { default: String(DEFAULT_PORTS[service]) });

export const OPEN_METEO_URL = 'https://api.open-meteo.com';
export const OPEN_METEO_ARCHIVE_URL = 'https://archive-api.open-meteo.com';

/** How long a client may take to send a request, and how many connections one address may hold. */
const Http = {
  OVERLOOK_HEADERS_TIMEOUT_SECONDS: positive(
    10,
    'Time a client has to send a request’s headers, in seconds; a slower one gets 408 and is closed (docs/security.md)',
  ),
  OVERLOOK_REQUEST_TIMEOUT_SECONDS: positive(60, 'Time a client has to send a whole request, body included, in seconds; a slower one gets 408 and is closed'),
  OVERLOOK_MAX_CONNECTIONS_PER_ADDRESS: Type.Integer({
    minimum: 0,
    default: 256,
    description: 'Open connections one client address may hold; more are closed at once; 0: no cap (behind a proxy every client shares its address)',
  }),
  OVERLOOK_CORS_ORIGINS: Type.Optional(
    text('Web origins (`https://viewer.example.com`, comma-separated) whose pages may call this service from a browser (CORS)', {
      defaultText: 'none: cross-origin browser calls are refused',
    }),
  ),
  OVERLOOK_METRICS_TOKEN: Type.Optional(
    nonEmpty('Bearer token (16 characters or more) that opens `GET /metrics`, the Prometheus metrics, on every service (docs/deploy.md, Metrics)', {
      defaultText: 'none',
    }),
  ),
  OVERLOOK_METRICS_ALLOW: Type.Optional(
    text(
      'Client networks in CIDR form (`127.0.0.1/32,10.0.0.0/8`, comma-separated) that may read `GET /metrics` without the token; the address is the one the service sees (docs/deploy.md, Metrics)',
      { defaultText: 'none: `/metrics` does not exist unless this or `OVERLOOK_METRICS_TOKEN` is set' },
    ),
  ),
} satisfies TProperties;

/** Read by every service. */
const Common = {
  OVERLOOK_HOST: text('Address to listen on (same as --host)', { default: DEFAULT_HOST }),
  OVERLOOK_DATA_DIR: text('Data directory, created if missing (same as --data-dir); the recorder keeps its files in `<dir>/recorder`', {
    default: DEFAULT_DATA_DIR,
  }),
  OVERLOOK_LOG_LEVEL: text('pino log level; `silent` turns logs off', { default: 'info' }),
  ...Http,
} satisfies TProperties;

const MediaTools = {
  OVERLOOK_FFMPEG: nonEmpty('The ffmpeg binary (live view, media hub, recorder)', { default: 'ffmpeg' }),
  OVERLOOK_FFPROBE: nonEmpty('The ffprobe binary', { default: 'ffprobe' }),
} satisfies TProperties;

const McpPort = { OVERLOOK_MCP_PORT: port('mcp', 'the MCP server', '; the main API builds the default `OVERLOOK_MCP_URL` from it') } satisfies TProperties;

const McpUrl = {
  OVERLOOK_MCP_URL: Type.Optional(
    nonEmpty('The MCP resource URL, the audience of the OAuth access tokens the main API issues for it; give both services the same value', {
      defaultText: '`http://127.0.0.1:<MCP port>/mcp`; the MCP server uses the address it listens on',
    }),
  ),
} satisfies TProperties;

const ApiUrl = {
  OVERLOOK_API_URL: text(
    'The main API the MCP, AI and Labs services act through (default of their --api-url; `overlook up` points them at the main API it starts)',
    {
      default: `http://${DEFAULT_HOST}:${DEFAULT_PORTS.platform}`,
    },
  ),
} satisfies TProperties;

/** Sign-in throttling, the same on the main API and the recorder (each counts its own sign-ins). */
const SignInThrottle = {
  OVERLOOK_LOGIN_FAILURES_PER_ACCOUNT: positive(5, 'Failed sign-ins allowed per account before 429'),
  OVERLOOK_LOGIN_FAILURES_PER_ADDRESS: positive(20, 'Failed sign-ins allowed per client address before 429'),
  OVERLOOK_LOGIN_BLOCK_SECONDS: positive(60, 'How long a throttled account or address waits, in seconds'),
} satisfies TProperties;

/** Messages out: the outbox's dispatcher, webhooks and MQTT (docs/notifications.md). */
const Messages = {
  OVERLOOK_OUTBOX_POLL_SECONDS: positive(5, 'How often each node looks for due event deliveries besides being woken by a new event, in seconds'),
  OVERLOOK_OUTBOX_RETRY_SECONDS: positive(10, 'Delay before the first retry of a failed event delivery, in seconds; each further retry waits twice as long'),
  OVERLOOK_OUTBOX_RETRY_MAX_SECONDS: positive(3600, 'Longest delay between two attempts of an event delivery, in seconds'),
  OVERLOOK_OUTBOX_GIVE_UP_HOURS: positive(24, 'How long after an event its failed deliveries are still retried, in hours'),
  OVERLOOK_OUTBOX_KEEP_DAYS: positive(
    30,
    'How long a delivered or failed event is kept, with its deliveries and webhook attempts (a webhook’s delivery log), in days; then it is removed',
  ),
  OVERLOOK_WEBHOOK_TIMEOUT_MS: positive(
    10_000,
    'How long a webhook receiver has to answer one delivery, in milliseconds (keep it below OVERLOOK_WORK_LEASE_SECONDS)',
  ),
  OVERLOOK_WEBHOOK_DISABLE_AFTER: positive(20, 'Failed deliveries in a row after which a webhook is disabled and the project owner told'),
  OVERLOOK_MQTT_URL: Type.Optional(
    nonEmpty('MQTT broker (`mqtt://user:pass@host:1883`, `mqtts://…`) on which every event is published at QoS 1 (docs/notifications.md)', {
      defaultText: 'none: nothing is published',
    }),
  ),
} satisfies TProperties;

/** The main API (`overlook serve`, `up`, `migrate`, `users create`), in the order its config reads them. */
const Platform = {
  OVERLOOK_PORT: port('platform', 'the main API'),
  DATABASE_URL: Type.Optional(nonEmpty('PostgreSQL connection string', { defaultText: 'embedded SQLite in the data directory' })),
  OVERLOOK_DB_POOL_SIZE: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 10,
    description: 'PostgreSQL: connections of the query pool of one node (the listener holds one more; docs/deploy.md, Connections)',
  }),
  OVERLOOK_DB_LISTEN_URL: Type.Optional(
    nonEmpty('PostgreSQL: connection string of the LISTEN session, direct or through a session-mode pooler (docs/deploy.md, Connections)', {
      defaultText: 'DATABASE_URL',
    }),
  ),
  OVERLOOK_DB_MIGRATIONS_URL: Type.Optional(
    nonEmpty(
      'PostgreSQL: connection string migrations run on (at start and `overlook migrate`), direct or through a session-mode pooler (docs/deploy.md, Connections)',
      {
        defaultText: 'DATABASE_URL',
      },
    ),
  ),
  OVERLOOK_DB_APPLICATION_NAME: nonEmpty("PostgreSQL: `application_name` of the pool's connections; the listener adds `-listen`", { default: 'overlook' }),
  OVERLOOK_DB_START_WAIT_SECONDS: Type.Number({
    minimum: 0,
    maximum: 86_400,
    default: 60,
    description: 'At start, how long to wait for an unreachable database, retrying, before giving up; 0: give up at once',
  }),
  OVERLOOK_SESSION_DAYS: positive(14, 'Lifetime of a sign-in (JWT and session), in days'),
  OVERLOOK_BODY_LIMIT: positive(1024 * 1024, 'Largest request body, in bytes'),
  OVERLOOK_SETTINGS_IMAGE_MAX_BYTES: positive(2 * 1024 * 1024, 'Largest project logo or thumbnail upload, in bytes'),
  OVERLOOK_PUBLIC_URL: Type.Optional(
    text('Public base URL: the OAuth issuer and the base of the links the API hands out', { defaultText: '`http://<host>:<port>` of the main API' }),
  ),
  OVERLOOK_TRUST_PROXY: Type.Optional(
    text('`1`: behind a TLS-terminating proxy; the client address comes from `X-Forwarded-For` and OAuth cookies are marked secure', { defaultText: 'off' }),
  ),
  OVERLOOK_JWT_PRIVATE_KEY: Type.Optional(
    nonEmpty('PKCS#8 PEM of the ES256 key that signs JWTs; when set it wins over the keys kept in the database and `overlook keys rotate` refuses', {
      defaultText: 'kept in the database, sealed (docs/deploy.md)',
    }),
  ),
  ...SignInThrottle,
  OVERLOOK_SIGNUP: Type.Optional(text('`1`: new people may sign themselves up (reported by signup_options)', { defaultText: 'off' })),
  ...MediaTools,
  OVERLOOK_HLS_IDLE_SECONDS: positive(30, 'Live view: a stream stops after this many seconds without a playlist or segment fetch'),
  OVERLOOK_LIVE_STREAMS_PER_NODE: positive(32, 'Live view: ffmpeg streams one node runs at most; a start over it gets 503 with Retry-After'),
  OVERLOOK_LIVE_STREAMS_PER_PERSON: positive(
    4,
    'Live view: streams one person may have started and running on a node; one more gets 429 (watching a running stream is free)',
  ),
  OVERLOOK_MEDIA_TOKEN_SECONDS: positive(600, 'Live view: lifetime of the media token in the URL `/hls` hands out, in seconds'),
  OVERLOOK_RECORDING_LOOP: Type.Optional(
    text('`0`, `false`, `off` or `no`: this process does not run the cloud recording loop (recorder and retention)', { defaultText: 'on' }),
  ),
  OVERLOOK_RECORDING_CONCURRENCY: positive(16, 'Most camera fetches the recording loop runs at once'),
  OVERLOOK_WORK_LEASE_SECONDS: positive(
    30,
    "How long a node's lease on background work (a camera's recording, retention, a media render) lasts unless renewed: a dead node's work is taken over within about this long (docs/deploy.md)",
  ),
  OVERLOOK_AI_URL: Type.Optional(
    nonEmpty(
      'Where the main API reaches the AI API (http or https, no query) to pass the web app’s `/ai/…` requests on, such as the gate report screen’s (docs/web-app.md); `overlook up` sets it to its own AI API',
      { defaultText: 'none: `/ai/…` answers 404' },
    ),
  ),
  OVERLOOK_NODE_URL: Type.Optional(
    nonEmpty(
      "Where the other nodes reach this one (http or https, no query): a live view request landing on a node that does not run the camera's stream is passed to the node that does (docs/deploy.md)",
      { defaultText: "`http://<host>:<port>` the node listens on (the machine's host name when it listens on every address)" },
    ),
  ),
  OVERLOOK_STORAGE: Type.Enum(['fs', 's3'], {
    default: 'fs',
    description: 'Where binary objects go: files under `<data dir>/objects`, or an S3-compatible bucket (`OVERLOOK_S3_*`)',
  }),
  OVERLOOK_S3_BUCKET: Type.Optional(nonEmpty('The bucket; needed with `OVERLOOK_STORAGE=s3`')),
  OVERLOOK_S3_ENDPOINT: Type.Optional(nonEmpty('Endpoint of an S3-compatible service (MinIO, Ceph…); path-style addressing', { defaultText: 'AWS S3' })),
  OVERLOOK_S3_REGION: nonEmpty('Region of the bucket', { default: 'us-east-1' }),
  OVERLOOK_S3_ACCESS_KEY_ID: Type.Optional(nonEmpty('Access key id for the bucket')),
  OVERLOOK_S3_SECRET_ACCESS_KEY: Type.Optional(nonEmpty('Secret access key for the bucket')),
  OVERLOOK_ANPR_IMAGE_MAX_BYTES: positive(512 * 1024, 'Largest ANPR plate image, in bytes of JPEG'),
  ...Messages,
  OVERLOOK_MEDIA_JOBS: Type.Optional(text('`0`: this process runs no media hub renders', { defaultText: 'on' })),
  OVERLOOK_MEDIA_CONCURRENCY: positive(1, 'Media hub renders run at once (at least 1)'),
  OVERLOOK_MEDIA_POLL_SECONDS: positive(
    5,
    'How often each node looks at the media hub queue besides being woken by a new render, in seconds: it re-queues renders of dead nodes',
  ),
  OVERLOOK_MEDIA_FILE_MAX_BYTES: positive(20 * 1024 * 1024, 'Largest media hub upload or logo, in bytes'),
  OVERLOOK_MEDIA_MAX_FRAMES: positive(3000, 'Most frames one clip or timelapse uses (at least 2); longer ranges are sampled evenly'),
  OVERLOOK_ANPR_METADATA_MAX_BYTES: positive(8 * 1024, 'Largest ANPR event metadata, in bytes of JSON'),
  OVERLOOK_CAMERA_TIMEOUT_MS: positive(5000, 'How long one snapshot or ONVIF exchange with a camera may take, in milliseconds'),
  OVERLOOK_ALLOWED_NETWORKS: Type.Optional(
    text(
      'Comma-separated networks in CIDR form (`192.168.10.0/24,10.0.0.5/32`) that camera, ONVIF and RTSP addresses may point into, besides the public internet; the platform’s own ports stay refused (docs/security.md, Outbound connections)',
      { defaultText: 'none: loopback, private, link-local, carrier-grade NAT, multicast and other non-public addresses are refused' },
    ),
  ),
  OVERLOOK_IMPERSONATION_MINUTES: positive(60, 'Lifetime of an impersonated session, in minutes'),
  OVERLOOK_OIDC_PROVIDERS: Type.Optional(
    nonEmpty('OpenID Connect sign-in providers: a JSON array of {id, name, issuer, client_id, client_secret, signup?} (docs/admin.md)', {
      defaultText: 'none',
    }),
  ),
  OVERLOOK_OIDC_LOGIN_SECONDS: positive(600, 'A started provider sign-in expires after this many seconds'),
  OVERLOOK_CRM_URL: Type.Optional(nonEmpty('Base URL (http or https) of the CRM that `/v2/crm/*` proxies to', { defaultText: 'no CRM proxy' })),
  OVERLOOK_CRM_PATHS: Type.Optional(
    text('CRM paths allowed, comma-separated: `/contacts`, `/contacts/*` (one segment), `/contacts/**` (any depth)', { defaultText: 'none' }),
  ),
  OVERLOOK_CRM_TOKEN: Type.Optional(nonEmpty('Sent to the CRM as `Authorization: Bearer`; never returned or logged')),
  OVERLOOK_CMS_URL: Type.Optional(nonEmpty('Base URL (http or https) of the CMS that `/v2/cms/*` proxies to', { defaultText: 'no CMS proxy' })),
  OVERLOOK_CMS_PATHS: Type.Optional(text('CMS paths allowed, as `OVERLOOK_CRM_PATHS`', { defaultText: 'none' })),
  OVERLOOK_CMS_TOKEN: Type.Optional(nonEmpty('Sent to the CMS as `Authorization: Bearer`; never returned or logged')),
  OVERLOOK_PROXY_TIMEOUT_MS: positive(10_000, 'CRM and CMS proxies: how long an upstream answer may take, in milliseconds (then 504)'),
  OVERLOOK_PROXY_MAX_BYTES: positive(5 * 1024 * 1024, 'CRM and CMS proxies: largest upstream answer passed through, in bytes (then 502)'),
  OVERLOOK_BIM_IMAGE_TYPES: Type.Optional(
    text('BIM image formats accepted, comma-separated, of jpeg (or jpg), png and webp', { defaultText: '`jpeg,png,webp`' }),
  ),
  OVERLOOK_BIM_IMAGE_MAX_BYTES: positive(10 * 1024 * 1024, 'Largest BIM render or overlay image, in bytes of the decoded file'),
  OVERLOOK_BIM_IMAGE_MAX_PIXELS: positive(40_000_000, 'Largest BIM render or overlay image, in pixels (width × height)'),
  ...McpUrl,
  ...McpPort,
  OVERLOOK_OAUTH_KEYS: Type.Optional(
    nonEmpty('OAuth signing and cookie keys as JSON `{"jwks": {"keys": […]}, "cookieKeys": […]}`; when set it wins over the keys kept in the database', {
      defaultText: 'kept in the database, sealed (docs/deploy.md)',
    }),
  ),
  OVERLOOK_OAUTH_REGISTRATIONS_PER_HOUR: positive(
    20,
    'Anonymous OAuth client registrations (`POST /oauth/reg`) allowed per client address per hour before 429',
  ),
  OVERLOOK_MEMBER_ADDS_PER_HOUR: positive(
    30,
    'People who share no project with the adder (or have no account yet) one person may add to projects per hour before 429',
  ),
  OVERLOOK_OAUTH_UNUSED_CLIENT_DAYS: positive(30, 'Days an anonymously registered OAuth client is kept while no person has authorized it'),
  OVERLOOK_SECRET_KEY: Type.Optional(
    nonEmpty('Base64 of 32 bytes that seals the keys kept in the database (docs/deploy.md); every API process of one database needs the same', {
      defaultText: 'generated into `<data dir>/connector-secret.key` (one node only)',
    }),
  ),
  OVERLOOK_CONNECTOR_TIMEOUT_MS: positive(10_000, 'How long one connector provider request may take, in milliseconds'),
  OVERLOOK_WEATHER_URL: Type.Optional(nonEmpty("Weather forecast API base URL (Open-Meteo's API shape)", { defaultText: `\`${OPEN_METEO_URL}\`` })),
  OVERLOOK_WEATHER_ARCHIVE_URL: Type.Optional(
    nonEmpty('Weather archive API base URL', { defaultText: `\`OVERLOOK_WEATHER_URL\` when set, else \`${OPEN_METEO_ARCHIVE_URL}\`` }),
  ),
  OVERLOOK_SMTP_URL: Type.Optional(
    nonEmpty('SMTP server e-mail is sent through: `smtp://[user:password@]host:port` (or `smtps://`) (docs/email.md)', {
      defaultText: 'none: e-mail is off, and the app says so',
    }),
  ),
  OVERLOOK_MAIL_FROM: Type.Optional(
    nonEmpty('The From address of every e-mail (`Overlook <noreply@example.com>`)', { defaultText: '`Overlook <overlook@<public URL host>>`' }),
  ),
  OVERLOOK_WEATHER_TIMEOUT_MS: positive(10_000, 'How long one weather provider request may take, in milliseconds'),
  OVERLOOK_WEATHER_CURRENT_TTL_SECONDS: positive(300, 'How long current conditions (and today’s hours) are served from the cache, in seconds'),
} satisfies TProperties;

/**
 * The variables of each connector provider, read by the connector framework from every OVERLOOK_*
 * variable (PlatformConfig.connectors.env). `<PROVIDER>` is the provider id in capitals.
 */
export const ConnectorEnv = Type.Object({
  'OVERLOOK_<PROVIDER>_URL': Type.Optional(
    text(
      'A connector provider’s API base URL; `<PROVIDER>` is PROCORE, ACC, ACONEX, VOYAGE_CONTROL, DOORBELL, WEATHERSTACK or AERISWEATHER (docs/connectors.md)',
      {
        defaultText: 'the provider’s own',
      },
    ),
  ),
  'OVERLOOK_<PROVIDER>_AUTH_URL': Type.Optional(text('Its OAuth base URL', { defaultText: '`OVERLOOK_<PROVIDER>_URL` when set, else the provider’s own' })),
  'OVERLOOK_<PROVIDER>_CLIENT_ID': Type.Optional(nonEmpty('Its OAuth client id; an OAuth provider without one is not configured')),
  'OVERLOOK_<PROVIDER>_CLIENT_SECRET': Type.Optional(nonEmpty('Its OAuth client secret')),
});

/** The recorder (`overlook recorder serve`, `recorder users create`). */
const Recorder = {
  OVERLOOK_RECORDER_PORT: port('recorder', 'the recorder'),
  OVERLOOK_RECORDER_STORAGE: Type.Optional(text('Where the recorder stores video segments', { defaultText: '`<data dir>/recorder/storage`' })),
  OVERLOOK_RECORDER_SEGMENT_SECONDS: positive(60, 'Target segment length, in seconds; cuts fall on the next keyframe'),
  OVERLOOK_RECORDER_TOKEN_DAYS: positive(7, 'Lifetime of a recorder access token, in days'),
  ...MediaTools,
  OVERLOOK_RECORDER_LIVE_WINDOW: positive(6, 'Live HLS window, in segments'),
  OVERLOOK_RECORDER_LIVE: Type.Optional(text('`off`: no live view (no live HLS, no WebRTC); each device ffmpeg only records', { defaultText: 'on' })),
  OVERLOOK_RECORDER_LIVE_IDLE_SECONDS: positive(
    30,
    'Live view asked through the platform link of a device that does not record now: its live stream stops this many seconds after the last request',
  ),
  OVERLOOK_RECORDER_BODY_LIMIT: positive(5 * 1024 * 1024, 'Largest request body of the recorder API, in bytes'),
  OVERLOOK_RECORDER_UPLOAD_RETRY_MAX_SECONDS: positive(
    300,
    'Longest wait between two attempts to upload to a remote storage, in seconds (waits start at 2 s and double)',
  ),
  ...SignInThrottle,
  OVERLOOK_RECORDER_SECRET_KEY: Type.Optional(
    nonEmpty('Base64 of 32 random bytes that seal the camera passwords and remote-storage secrets in the recorder database', {
      defaultText: 'generated once into `<data dir>/recorder/recorder-secret.key` (mode 0600)',
    }),
  ),
  OVERLOOK_RECORDER_MEDIA_DIR: Type.Optional(
    text('The only folder `file` devices may play from (paths are resolved, symlinks followed, and must stay inside)', {
      defaultText: '`<data dir>/recorder/media`',
    }),
  ),
  OVERLOOK_RECORDER_LINK_BACKLOG_MB: positive(
    1024,
    'Largest backlog of cloud frames and events the recorder keeps for its linked platform, in MB; the oldest are dropped beyond it',
  ),
  OVERLOOK_RECORDER_LINK_RETRY_MAX_SECONDS: positive(
    60,
    'Longest wait between two attempts to reconnect the platform link, in seconds (waits start at 1 s and double, with jitter)',
  ),
  OVERLOOK_RECORDER_LINK_SILENCE_SECONDS: Type.Number({
    minimum: 3,
    maximum: 3600,
    default: 30,
    description:
      'How long the platform link may stay silent before the recorder drops it and reconnects, in seconds (it pings every tenth of a minute or a third of this, whichever is shorter)',
  }),
  HTTPS_PROXY: Type.Optional(
    text('HTTP proxy (`http://host:port`) for the platform link to an `https://` platform (also `https_proxy`)', { defaultText: 'none' }),
  ),
  HTTP_PROXY: Type.Optional(text('HTTP proxy for the platform link to an `http://` platform (also `http_proxy`)', { defaultText: 'none' })),
  NO_PROXY: Type.Optional(text('Hosts the platform link reaches without the proxy, comma-separated (also `no_proxy`)', { defaultText: 'none' })),
} satisfies TProperties;

// Each service's schema: exactly the variables it reads. Unknown variables are dropped, not refused.
const strict = { additionalProperties: false } as const;
export const PlatformEnv = Type.Object({ ...Common, ...Platform }, strict);
export const RecorderEnv = Type.Object({ ...Common, ...Recorder }, strict);
export const McpEnv = Type.Object(
  {
    ...Common,
    ...McpPort,
    ...McpUrl,
    ...ApiUrl,
    OVERLOOK_MCP_ALLOWED_ORIGINS: Type.Optional(
      text('Web origins, comma-separated, besides the MCP server’s own, whose browser pages may call `/mcp` (others are refused: DNS rebinding)', {
        defaultText: 'none',
      }),
    ),
  },
  strict,
);
const AiEnv = Type.Object({ ...Common, OVERLOOK_AI_PORT: port('ai', 'the AI API'), ...ApiUrl }, strict);
const LabsEnv = Type.Object({ ...Common, OVERLOOK_LABS_PORT: port('labs', 'the Labs API'), ...ApiUrl }, strict);

/** Read by every service's HTTP server (src/lib/config/http-limits.ts). */
export const HttpEnv = Type.Object(Http, strict);

/** Read when the commands are declared: the default of --api-url. */
export const ApiUrlEnv = Type.Object(ApiUrl, strict);

export const SERVICE_ENV = { platform: PlatformEnv, recorder: RecorderEnv, mcp: McpEnv, ai: AiEnv, labs: LabsEnv } as const satisfies Record<
  ServiceName,
  TObject
>;

export type PlatformEnvValues = Static<typeof PlatformEnv>;
