// Where a service listens and keeps its files: flags win over environment variables, which win over
// defaults. OVERLOOK_HOST, the port variables and OVERLOOK_DATA_DIR are read here rather than through
// readEnv because a flag may stand in for them: a bad value a flag overrides was never an error.
import { chmodSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { processEnv, type Env } from './process-env.js';

export interface ServeFlags {
  host?: string;
  port?: string | number;
  dataDir?: string;
}

export interface ServiceAddress {
  host: string;
  port: number;
}

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_DATA_DIR = './data';

export const DEFAULT_PORTS = {
  platform: 3000,
  mcp: 3100,
  ai: 3200,
  labs: 3300,
  recorder: 4000,
} as const;

export type ServiceName = keyof typeof DEFAULT_PORTS;

const PORT_VARIABLES = {
  platform: 'OVERLOOK_PORT',
  mcp: 'OVERLOOK_MCP_PORT',
  ai: 'OVERLOOK_AI_PORT',
  labs: 'OVERLOOK_LABS_PORT',
  recorder: 'OVERLOOK_RECORDER_PORT',
} as const satisfies Record<ServiceName, string>;

function parsePort(value: string | number, what = 'port'): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${what} must be an integer from 0 to 65535, got ${value}`);
  return n;
}

export function resolveAddress(service: ServiceName, flags: ServeFlags, env: Env = processEnv()): ServiceAddress {
  const host = flags.host ?? env.OVERLOOK_HOST ?? DEFAULT_HOST;
  const port = parsePort(flags.port ?? env[PORT_VARIABLES[service]] ?? DEFAULT_PORTS[service]);
  return { host, port };
}

/** Where the data directory is, without creating it (a restore checks it is empty first). */
export const dataDirPath = (flags: { dataDir?: string }, env: Env = processEnv()): string =>
  resolve(flags.dataDir ?? env.OVERLOOK_DATA_DIR ?? DEFAULT_DATA_DIR);

/** The data directory, created if missing; owner-only (0700), as it holds the database and key files. */
export function resolveDataDir(flags: { dataDir?: string }, env: Env = processEnv()): string {
  const dir = dataDirPath(flags, env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Explicitly, whatever the umask, and for a data dir an older version made with the umask's mode.
  try {
    chmodSync(dir, 0o700);
  } catch (err) {
    // Someone else's directory (shared by an administrator on purpose): left as it is.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') throw err;
  }
  return dir;
}
