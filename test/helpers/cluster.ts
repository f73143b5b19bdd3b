// A second node of a test platform: another app built the way `overlook serve` builds it, on the same
// PostgreSQL schema through a pool of its own, with its own caches; its signing keys are the ones kept
// in that database (docs/deploy.md, Secrets).
import type { FastifyInstance } from 'fastify';
import type { PlatformConfig } from '../../src/lib/config.js';
import { openDb } from '../../src/lib/db/index.js';
import { buildPlatformApp } from '../../src/platform/app.js';
import type { PlatformDatabase } from '../../src/platform/database.js';
import { servicesOf } from '../../src/platform/plugins/feature.js';
import type { TestPlatform } from './platform.js';

export interface TestNode {
  app: FastifyInstance;
  close(): Promise<void>;
}

export interface PeerOptions {
  /** Connect here instead of `tp`'s database URL (e.g. with an application_name, or where nothing answers). */
  databaseUrl?: string;
  /** The node's `application_name` (its LISTEN sessions add `-listen`), to find its sessions in pg_stat_activity. */
  applicationName?: string;
  /** Hears the failures of the node's pooled connections. */
  onConnectionError?: (err: Error) => void;
  /** Settings of this node that differ from `tp`'s (e.g. `mediaJobs: false`: it renders nothing). */
  config?: Partial<PlatformConfig>;
}

/** Another node beside `tp` (PostgreSQL only: with SQLite there is one node). */
export async function buildPeerNode(tp: TestPlatform, opts: PeerOptions = {}): Promise<TestNode> {
  const { pgSchema } = tp.t;
  const databaseUrl = opts.databaseUrl ?? tp.t.databaseUrl;
  if (!tp.t.databaseUrl || !databaseUrl) throw new Error('a second node needs PostgreSQL');
  const db = openDb<PlatformDatabase>({ databaseUrl, pgSchema, poolSize: 4, applicationName: opts.applicationName, onConnectionError: opts.onConnectionError });
  const first = servicesOf(tp.app);
  const app = await buildPlatformApp({ config: { ...first.config, ...opts.config }, db, logger: false });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await db.close();
    },
  };
}
