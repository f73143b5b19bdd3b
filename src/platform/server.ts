// Starts the main API: open the database, migrate, build the app, listen, and stop cleanly on signals.
import type { FastifyInstance } from 'fastify';
import { platformConfig, processEnv, resolveAddress, type Env, type PlatformConfig, type ServeFlags } from '../lib/config.js';
import { loggerOptions } from '../lib/logger.js';
import type { Endpoint } from '../lib/net/outbound-guard.js';
import { openDb, platformDbOptions } from '../lib/db/index.js';
import { withDatabaseWait } from '../lib/db/wait-for-database.js';
import type { PlatformDatabase, PlatformDb } from './database.js';
import { migratePlatform } from './db/migrate-platform.js';
import { buildPlatformApp } from './app.js';

export interface RunningPlatform {
  app: FastifyInstance;
  db: PlatformDb;
  config: PlatformConfig;
  url: string;
  close(): Promise<void>;
}

/**
 * `companions`: where the other services of the same process listen (`overlook up`): they are the
 * platform's own endpoints too, which the outbound guard never connects to on a tenant's behalf.
 */
export async function startPlatform(flags: ServeFlags, env: Env = processEnv(), companions: readonly Endpoint[] = []): Promise<RunningPlatform> {
  const address = resolveAddress('platform', flags, env);
  const base = platformConfig(flags, env, address);
  const config: PlatformConfig = { ...base, outbound: { ...base.outbound, own: [...base.outbound.own, ...companions] } };
  const db = openDb<PlatformDatabase>(platformDbOptions(config));
  await withDatabaseWait(() => migratePlatform(config, db), {
    waitSeconds: config.db.startWaitSeconds,
    log: (message) => process.stderr.write(`overlook: ${message}\n`),
  });
  const app = await buildPlatformApp({ config, db, logger: loggerOptions(config.logLevel) });
  await app.listen({ host: address.host, port: address.port });
  // The OpenAPI document (some 260 operations) is generated once, on first use: do it now, so the first
  // visitor of /docs does not wait for it (about 150 ms; docs/decisions.md, The API reference page).
  app.swagger();
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
