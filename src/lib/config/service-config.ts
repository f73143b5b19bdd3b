// The MCP, AI and Labs services: where each listens, how much it logs, and (MCP) its resource URL,
// from flags over the environment, validated against the service's schema in env-schema.ts.
import { resolveAddress, type ServeFlags, type ServiceAddress } from './addresses.js';
import { ApiUrlEnv, McpEnv, SERVICE_ENV } from './env-schema.js';
import { processEnv, type Env } from './process-env.js';
import { readEnv } from './read-env.js';

export type CompanionName = 'mcp' | 'ai' | 'labs';

export interface CompanionConfig {
  address: ServiceAddress;
  /** pino level of the service's logger (`silent`: none). */
  logLevel: string;
}

export function companionConfig(service: CompanionName, flags: ServeFlags, env: Env = processEnv()): CompanionConfig {
  const e = readEnv(SERVICE_ENV[service], env);
  return { address: resolveAddress(service, flags, env), logLevel: e.OVERLOOK_LOG_LEVEL };
}

/** The MCP server's resource URL when OVERLOOK_MCP_URL sets it; else it is where the server listens, plus /mcp. */
export function mcpConfig(flags: ServeFlags, env: Env = processEnv()): CompanionConfig & { resourceUrl?: string; allowedOrigins: string[] } {
  const e = readEnv(McpEnv, env);
  const allowedOrigins = (e.OVERLOOK_MCP_ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  return { address: resolveAddress('mcp', flags, env), logLevel: e.OVERLOOK_LOG_LEVEL, resourceUrl: e.OVERLOOK_MCP_URL, allowedOrigins };
}

/** The default of --api-url: OVERLOOK_API_URL, else the main API on its default address. */
export const defaultApiUrl = (env: Env = processEnv()): string => readEnv(ApiUrlEnv, env).OVERLOOK_API_URL;
