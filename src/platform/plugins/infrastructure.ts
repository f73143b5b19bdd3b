// The platform's infrastructure, offered to every feature: configuration, the database, the object
// store and the caches. Registered first; everything else names what of it it needs.
import { join } from 'node:path';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { CacheRegistry, cacheChannel, InvalidationBus } from '../../lib/cache/index.js';
import type { PlatformConfig } from '../../lib/config.js';
import type { PlatformDb } from '../database.js';
import type { ObjectStore } from '../storage/object-store.js';
import { createObjectStore } from '../storage/create-object-store.js';

declare module './feature.js' {
  interface PlatformServices {
    config: PlatformConfig;
    db: PlatformDb;
    /** Binary objects: recorded JPEGs, plate images, rendered media, logos. */
    storage: ObjectStore;
    /** The app's in-memory caches, and the one way to forget what they hold (docs/architecture.md, Caches). */
    caches: CacheRegistry;
  }
}

/** What the infrastructure plugin offers (docs/architecture.md lists it). */
export const INFRASTRUCTURE_OFFERS = ['config', 'db', 'storage', 'caches'] as const;

export interface InfrastructureOptions {
  config: PlatformConfig;
  db: PlatformDb;
}

export const infrastructure = fp<InfrastructureOptions>(
  async (app, opts) => {
    const { config, db } = opts;
    app.decorate('config', config);
    app.decorate('db', db);
    const storage = createObjectStore(config.storage, config.dataDir);
    app.decorate('storage', storage);
    // Several nodes serve what any of them stored only from a store they share (docs/deploy.md, Media on several nodes).
    if (db.dialect === 'postgres' && config.storage.kind === 'fs') {
      app.log.warn(
        { objects: join(config.dataDir, 'objects') },
        "storage: objects are files in this node's data dir (OVERLOOK_STORAGE=fs); with several nodes, set OVERLOOK_STORAGE=s3 (or share that folder), or frames and media stored by one node are missing on the others",
      );
    }
    const caches = new CacheRegistry();
    app.decorate('caches', caches);
    // Several nodes on one PostgreSQL database: each one's forgets reach the others (docs/deploy.md).
    // With SQLite there is one node and nothing to pass on.
    if (db.dialect === 'postgres' && db.databaseUrl) {
      const bus = new InvalidationBus({
        registry: caches,
        connectionString: db.databaseUrl,
        applicationName: db.listenApplicationName,
        channel: cacheChannel(db.pgSchema),
        publish: async (channel, payload) => {
          await sql`select pg_notify(${channel}, ${payload})`.execute(db.kysely);
        },
        log: app.log,
      });
      await bus.start();
      app.addHook('onClose', () => bus.close());
    }
    // Registered first, so closed last: after every feature that writes objects has stopped.
    app.addHook('onClose', async () => (storage as { close?: () => void }).close?.());
  },
  { name: 'infrastructure', fastify: '5.x' },
);
