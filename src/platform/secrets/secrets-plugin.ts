// Secrets shared by every node of one database (docs/deploy.md, Secrets): the store of sealed key
// material, and the JWT signer built on the signing keys kept there (or on OVERLOOK_JWT_PRIVATE_KEY
// when it is set, which wins).
import type { PlatformConfig } from '../../lib/config.js';
import { jwtSigner, type JwtSigner } from '../../lib/auth/jwt.js';
import type { PlatformDb } from '../database.js';
import { defineFeature } from '../plugins/feature.js';
import { storedJwtKeys } from './jwt-keys.js';
import { loadSecretKey, SECRET_KEY_FILE } from './secret-key.js';
import { SecretStore } from './secret-store.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    /** Sealed key material in the database (OAuth keys, the connector vault key, the JWT signing keys). */
    secrets: SecretStore;
    /** Signs and verifies platform JWTs; its public half is the JWKS other services verify with. */
    signer: JwtSigner;
  }
}

/** How long a replaced signing key keeps verifying: the longest a token it signed can live. */
export const jwtKeyRetireAfterMs = (config: PlatformConfig) =>
  Math.max(config.sessionDays * 86_400_000, config.admin.impersonationMinutes * 60_000, config.mediaTokenSeconds * 1000);

/** The store over the platform's secret key; without OVERLOOK_SECRET_KEY, PostgreSQL gets a warning. */
export function openSecretStore(config: PlatformConfig, db: PlatformDb, log: { warn(msg: string): void }): SecretStore {
  const { key, source } = loadSecretKey({ secretKeyBase64: config.secretKey, dataDir: config.dataDir });
  if (source === 'file' && db.dialect === 'postgres') {
    log.warn(
      `OVERLOOK_SECRET_KEY is not set: the secrets in the database are sealed with this node's ${SECRET_KEY_FILE}; ` +
        'every node of one database needs the same OVERLOOK_SECRET_KEY (docs/deploy.md, Secrets)',
    );
  }
  return new SecretStore(db, key);
}

export const secretsFeature = defineFeature({
  name: 'secrets',
  needs: ['config', 'db'],
  offers: ['secrets', 'signer'],
  build: async ({ config, db }, app) => {
    const secrets = openSecretStore(config, db, app.log);
    const pem = config.jwtPrivateKeyPem;
    const signer = jwtSigner(pem ? async () => [pem] : storedJwtKeys(secrets, { dataDir: config.dataDir, retireAfterMs: jwtKeyRetireAfterMs(config) }));
    // Loads (or creates) the keys now: a key sealed with another OVERLOOK_SECRET_KEY fails the start, not a request.
    await signer.jwks();
    return { secrets, signer };
  },
});
