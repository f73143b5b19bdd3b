// The platform's infrastructure, offered to every feature: configuration, the database, the JWT
// signer, the object store and the caches. Registered first; everything else names what of it it needs.
import fp from 'fastify-plugin';
import { CacheRegistry } from '../../lib/cache/index.js';
import type { PlatformConfig } from '../../lib/config.js';
import type { PlatformDb } from '../db/database.js';
import { loadJwtSigner, type JwtSigner } from '../../lib/auth/jwt.js';
import type { ObjectStore } from '../storage/object-store.js';
import { createObjectStore } from '../storage/create-object-store.js';

declare module './feature.js' {
  interface PlatformServices {
    config: PlatformConfig;
    db: PlatformDb;
    /** Signs and verifies platform JWTs; its public half is the JWKS other services verify with. */
    signer: JwtSigner;
    /** Binary objects: recorded JPEGs, plate images, rendered media, logos. */
    storage: ObjectStore;
    /** The app's in-memory caches, and the one way to forget what they hold (docs/architecture.md, Caches). */
    caches: CacheRegistry;
  }
}

/** What the infrastructure plugin offers (docs/architecture.md lists it). */
export const INFRASTRUCTURE_OFFERS = ['config', 'db', 'signer', 'storage', 'caches'] as const;

export interface InfrastructureOptions {
  config: PlatformConfig;
  db: PlatformDb;
  /** A signer to use instead of the one kept in the data dir (tests). */
  signer?: JwtSigner;
}

export const infrastructure = fp<InfrastructureOptions>(
  async (app, opts) => {
    const { config, db } = opts;
    app.decorate('config', config);
    app.decorate('db', db);
    app.decorate('signer', opts.signer ?? (await loadJwtSigner({ dataDir: config.dataDir, privateKeyPem: config.jwtPrivateKeyPem })));
    const storage = createObjectStore(config.storage, config.dataDir);
    app.decorate('storage', storage);
    app.decorate('caches', new CacheRegistry());
    // Registered first, so closed last: after every feature that writes objects has stopped.
    app.addHook('onClose', async () => (storage as { close?: () => void }).close?.());
  },
  { name: 'infrastructure', fastify: '5.x' },
);
