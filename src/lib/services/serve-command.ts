// `overlook ai` and `overlook labs`: the same flags (README.md) and the same start-up for both.
import type { Command } from 'commander';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { companionConfig, defaultApiUrl, processEnv, resolveDataDir, type ServiceName } from '../config.js';
import { loggerOptions } from '../logger.js';
import { serveUntilSignalled } from '../process/serve-until-signalled.js';

/** The flags every serving command takes (README.md) plus --api-url, for the services that act through the main API (mcp, ai, labs). */
export function withCompanionFlags(cmd: Command, port: string, dataDirNote: string, apiUrlNote: string): Command {
  return cmd
    .option('--host <host>', 'address to listen on (default 127.0.0.1, or OVERLOOK_HOST)')
    .option('--port <port>', port)
    .option('--data-dir <dir>', `data directory (default ./data); ${dataDirNote}`)
    .option('--api-url <url>', apiUrlNote, defaultApiUrl());
}

export function registerJwtServiceCommand(
  program: Command,
  service: Extract<ServiceName, 'ai' | 'labs'>,
  description: string,
  /** Imports the service's app builder when the command runs, so other commands do not load the service. */
  loadBuild: () => Promise<(opts: { apiUrl: string; logger?: FastifyServerOptions['logger'] }) => Promise<FastifyInstance>>,
): void {
  withCompanionFlags(
    program.command(service).description(description),
    'port to listen on',
    'this service keeps nothing in it yet',
    'the main API, whose JWKS and sessions it trusts',
  ).action(async (opts) => {
    const env = processEnv();
    resolveDataDir(opts, env);
    const apiUrl = new URL(opts.apiUrl).toString();
    const { address, logLevel } = companionConfig(service, opts, env);
    const build = await loadBuild();
    const app = await build({ apiUrl, logger: loggerOptions(logLevel) });
    const url = await app.listen({ host: address.host, port: address.port });
    process.stdout.write(`overlook: ${service} API listening on ${url} (main API ${apiUrl})\n`);
    serveUntilSignalled(() => app.close());
  });
}
