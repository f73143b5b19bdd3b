// Starts the main API: open the database, migrate, build the app, listen, and stop cleanly on signals.
import type { FastifyInstance } from 'fastify';
import { platformConfig, resolveAddress, type PlatformConfig, type ServeFlags } from '../lib/config.js';
import { openDb, platformDbOptions, type Db } from '../lib/db/index.js';
import { migrateToLatest } from '../lib/db/migrate.js';
import { buildPlatformApp } from './app.js';

export interface RunningPlatform {
  app: FastifyInstance;
  db: Db;
  config: PlatformConfig;
  url: string;
  close(): Promise<void>;
}

export async function startPlatform(flags: ServeFlags, env = process.env): Promise<RunningPlatform> {
  const address = resolveAddress('platform', flags, env);
  const config = platformConfig(flags, env, address);
  const db = openDb(platformDbOptions(config));
  await migrateToLatest(db);
  const app = await buildPlatformApp({ config, db });
  await app.listen({ host: address.host, port: address.port });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : address.port;
  const url = `http://${address.host.includes(':') ? `[${address.host}]` : address.host}:${port}`;
  return {
    app,
    db,
    config,
    url,
    async close() {
      await app.close();
      await db.close();
    },
  };
}

/** Closes everything on SIGINT/SIGTERM, once. */
export function closeOnSignals(close: () => Promise<void>): void {
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stderr.write(`overlook: ${signal}, shutting down\n`);
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}
