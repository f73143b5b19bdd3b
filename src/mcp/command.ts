// `overlook mcp`: the MCP server, with the flags every serving command takes (README.md) and
// --api-url for the main API it acts through and trusts as authorization server.
import type { Command } from 'commander';
import type { FastifyInstance } from 'fastify';
import { mcpConfig, processEnv, resolveDataDir, type Env, type ServeFlags } from '../lib/config.js';
import { loggerOptions } from '../lib/logger.js';
import { withCompanionFlags } from '../lib/services/serve-command.js';
import { serveUntilSignalled } from '../lib/process/serve-until-signalled.js';

const hostForUrl = (host: string) => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host);

/** Starts the MCP server; its resource URL is OVERLOOK_MCP_URL, or where it really listens plus /mcp. */
export async function startMcp(
  flags: ServeFlags & { apiUrl: string },
  env: Env = processEnv(),
): Promise<{ app: FastifyInstance; url: string; resourceUrl: string }> {
  const { address, logLevel, resourceUrl, allowedOrigins } = mcpConfig(flags, env);
  const apiUrl = new URL(flags.apiUrl).toString().replace(/\/+$/, '');
  // Imported here, not at the top: `overlook` loads this file for every command (src/cli/program.ts).
  const { buildMcpApp } = await import('./app.js');
  const app = await buildMcpApp({ apiUrl, resourceUrl, allowedOrigins, logger: loggerOptions(logLevel) });
  const url = await app.listen({ host: address.host, port: address.port });
  const { port } = app.server.address() as { port: number };
  return { app, url, resourceUrl: resourceUrl ?? `http://${hostForUrl(address.host)}:${port}/mcp` };
}

export function registerMcpCommand(program: Command): void {
  withCompanionFlags(
    program.command('mcp').description('Run the MCP server (Streamable HTTP at /mcp; OAuth access token or platform JWT in Authorization: Bearer)'),
    'port to listen on (default 3100, or OVERLOOK_MCP_PORT)',
    'this service keeps nothing in it',
    'the main API: its authorization server, JWKS and sessions',
  ).action(async (opts) => {
    resolveDataDir(opts);
    const running = await startMcp(opts);
    process.stdout.write(`overlook: MCP server listening on ${running.url} (resource ${running.resourceUrl}, main API ${opts.apiUrl})\n`);
    serveUntilSignalled(() => running.app.close());
  });
}
