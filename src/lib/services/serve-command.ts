// `overlook ai` and `overlook labs`: the same flags (contract §1) and the same start-up for both.
import type { Command } from 'commander';
import type { FastifyInstance } from 'fastify';
import { resolveAddress, resolveDataDir, type ServiceName } from '../config.js';
import { closeOnSignals } from '../../platform/server.js';

export const DEFAULT_API_URL = 'http://127.0.0.1:3000';

/** The flags of contract §1 plus --api-url, for the services that act through the main API (mcp, ai, labs). */
export function withCompanionFlags(cmd: Command, port: string, dataDirNote: string, apiUrlNote: string): Command {
  return cmd
    .option('--host <host>', 'address to listen on (default 127.0.0.1, or OVERLOOK_HOST)')
    .option('--port <port>', port)
    .option('--data-dir <dir>', `data directory (default ./data); ${dataDirNote}`)
    .option('--api-url <url>', apiUrlNote, process.env.OVERLOOK_API_URL ?? DEFAULT_API_URL);
}

export function registerJwtServiceCommand(
  program: Command,
  service: Extract<ServiceName, 'ai' | 'labs'>,
  description: string,
  build: (opts: { apiUrl: string }) => Promise<FastifyInstance>,
): void {
  withCompanionFlags(program.command(service).description(description), 'port to listen on', 'this service keeps nothing in it yet', 'the main API, whose JWKS and sessions it trusts')
    .action(async (opts) => {
      resolveDataDir(opts);
      const apiUrl = new URL(opts.apiUrl).toString();
      const address = resolveAddress(service, opts);
      const app = await build({ apiUrl });
      const url = await app.listen({ host: address.host, port: address.port });
      process.stdout.write(`overlook: ${service} API listening on ${url} (main API ${apiUrl})\n`);
      closeOnSignals(() => app.close());
    });
}
