// What the authorization server keeps of the credentials it hands out (docs/security.md, Secrets at
// rest): a token's or code's value is a bearer credential, so its row is keyed by the SHA-256 of the
// value and the value itself is nowhere in the row; a client secret is kept as its SHA-256 and a
// presented secret is hashed and compared in constant time. Both values are high-entropy random
// strings, so a plain hash is enough: a copy of the database gives nothing to present.
import { hash, timingSafeEqual } from 'node:crypto';
import type { PlatformDb } from '../database.js';
import * as repo from './oauth-records-repository.js';

/**
 * Models whose id is the value a client presents (oidc-provider's opaque tokens and codes). Not the
 * device flow's DeviceCode (disabled here): it is also found by its user code, which could not give
 * back the value.
 */
export const HASHED_ID_MODELS: ReadonlySet<string> = new Set([
  'AuthorizationCode',
  'RefreshToken',
  'AccessToken',
  'ClientCredentials',
  'BackchannelAuthenticationRequest',
  'RegistrationAccessToken',
  'InitialAccessToken',
  'PushedAuthorizationRequest',
]);

/** Marks a stored id or client secret that is a digest; a value without it was written before hashing. */
export const HASHED_PREFIX = 'sha256.';

const digest = (value: string) => HASHED_PREFIX + hash('sha256', value, 'base64url');

const isHashed = (stored: unknown): stored is string => typeof stored === 'string' && stored.startsWith(HASHED_PREFIX);

/** The id a record of the model is stored under: the digest of a token's value, any other model's id as is. */
export const storedIdOf = (model: string, id: string): string => (HASHED_ID_MODELS.has(model) ? digest(id) : id);

/** The client's metadata as stored: its secret, if any, replaced by the secret's digest (idempotent). */
export function withHashedSecret<T extends Record<string, unknown>>(metadata: T): T {
  const secret = metadata.client_secret;
  if (typeof secret !== 'string' || isHashed(secret)) return metadata;
  return { ...metadata, client_secret: digest(secret) };
}

/** Whether the presented secret is the client's: compares digests in constant time. */
function clientSecretMatches(stored: unknown, presented: unknown): boolean {
  if (typeof stored !== 'string' || typeof presented !== 'string' || presented.length === 0 || presented.length > 1024) return false;
  const expected = isHashed(stored) ? Buffer.from(stored.slice(HASHED_PREFIX.length), 'base64url') : hash('sha256', stored, 'buffer');
  const given = hash('sha256', presented, 'buffer');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

interface ProviderWithClients {
  Client: { prototype: { compareClientSecret(actual: string): Promise<boolean> | boolean } };
  use(middleware: (ctx: KoaLikeContext, next: () => Promise<void>) => Promise<void>): unknown;
}
interface KoaLikeContext {
  oidc?: { route?: string };
  body?: unknown;
}

/**
 * Makes the provider check client secrets against their stored digests (client_secret_basic and
 * client_secret_post). A digest can only be compared, never used as an HMAC key, so the server offers no
 * client authentication method that needs the secret itself (client_secret_jwt). The registration read
 * endpoint would answer the digest as `client_secret`: it is left out instead (the secret was shown at
 * registration, once).
 */
export function checkClientSecretsByDigest(provider: ProviderWithClients): void {
  provider.Client.prototype.compareClientSecret = function (this: { clientSecret?: string }, actual: string) {
    return clientSecretMatches(this.clientSecret, actual);
  };
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as Record<string, unknown> | undefined;
    if (ctx.oidc?.route === 'client' && body && typeof body === 'object' && isHashed(body.client_secret)) {
      delete body.client_secret;
      delete body.client_secret_expires_at;
    }
  });
}

/** The client authentication methods the server offers: every one that only compares the secret. */
export const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'];

/**
 * Hashes what was stored before hashing (run at start-up, idempotent, safe on several nodes at once):
 * tokens and codes are re-keyed by their digest without their value in the payload, client secrets
 * replaced by their digest. How many rows changed.
 */
export async function hashStoredOauthSecrets(db: PlatformDb): Promise<number> {
  let changed = 0;
  for (const row of await repo.recordsWithPlainIds(db, [...HASHED_ID_MODELS], HASHED_PREFIX)) {
    const { jti: _value, ...payload } = JSON.parse(row.payload) as Record<string, unknown>;
    changed += await repo.rekeyRecord(db, row.model, row.id, storedIdOf(row.model, row.id), JSON.stringify(payload));
  }
  for (const row of await repo.clientsWithPlainSecrets(db, HASHED_PREFIX)) {
    const metadata = JSON.parse(row.payload) as Record<string, unknown>;
    const hashed = withHashedSecret(metadata);
    if (hashed !== metadata) changed += await repo.replaceClientPayload(db, row.id, row.payload, JSON.stringify(hashed));
  }
  return changed;
}
