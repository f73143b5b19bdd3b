// Configuration shared by every service: flags win over environment variables, which win over defaults.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

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
}

export function platformConfig(flags: { dataDir?: string } = {}, env = process.env, address?: ServiceAddress): PlatformConfig {
  const dataDir = resolveDataDir(flags, env);
  const addr = address ?? { host: '127.0.0.1', port: DEFAULT_PORTS.platform };
  return {
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    sessionDays: envNumber('OVERLOOK_SESSION_DAYS', 14, env),
    bodyLimit: envNumber('OVERLOOK_BODY_LIMIT', 1024 * 1024, env),
    publicUrl: env.OVERLOOK_PUBLIC_URL ?? `http://${addr.host}:${addr.port}`,
    jwtPrivateKeyPem: env.OVERLOOK_JWT_PRIVATE_KEY || undefined,
    loginFailuresPerAccount: envNumber('OVERLOOK_LOGIN_FAILURES_PER_ACCOUNT', 5, env),
    loginFailuresPerAddress: envNumber('OVERLOOK_LOGIN_FAILURES_PER_ADDRESS', 20, env),
    loginBlockSeconds: envNumber('OVERLOOK_LOGIN_BLOCK_SECONDS', 60, env),
    signupEnabled: env.OVERLOOK_SIGNUP === '1',
  };
}
