// The authorization server's signing keys (access and ID tokens) and cookie keys: kept in the database,
// sealed (the secrets feature, kind `oauth-keys`), so every node signs and checks with the same ones, or
// given by config (OVERLOOK_OAUTH_KEYS, the same JSON), which wins. A data dir's `oauth-keys.json` from
// before the keys moved to the database becomes the first stored keys. Kept apart from the platform JWT
// key: OAuth tokens and platform JWTs never verify as each other.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { SecretStore } from '../secrets/index.js';

export interface OauthKeys {
  /** Private JWKs, ES256 first (what access tokens are signed with), RS256 for clients that ask for it. */
  jwks: { keys: JWK[] };
  /** Secrets the provider signs its cookies with. */
  cookieKeys: string[];
}

async function privateJwk(alg: 'ES256' | 'RS256'): Promise<JWK> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'RS256' ? { modulusLength: 2048 } : {}) });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, alg, use: 'sig', kid: await calculateJwkThumbprint(jwk) };
}

function parse(text: string, where: string): OauthKeys {
  const v = JSON.parse(text) as Partial<OauthKeys>;
  if (!Array.isArray(v.jwks?.keys) || v.jwks.keys.length === 0 || !Array.isArray(v.cookieKeys) || v.cookieKeys.length === 0) {
    throw new Error(`${where} must hold {"jwks":{"keys":[…]},"cookieKeys":[…]}`);
  }
  return v as OauthKeys;
}

const OAUTH_KEYS_KIND = 'oauth-keys';
/** The key file of data dirs made before the keys moved to the database. */
export const LEGACY_OAUTH_KEYS_FILE = 'oauth-keys.json';

async function newKeys(): Promise<OauthKeys> {
  return { jwks: { keys: [await privateJwk('ES256'), await privateJwk('RS256')] }, cookieKeys: [randomBytes(32).toString('base64url')] };
}

export async function loadOauthKeys(opts: { dataDir: string; json?: string; secrets: SecretStore }): Promise<OauthKeys> {
  if (opts.json) return parse(opts.json, 'OVERLOOK_OAUTH_KEYS');
  const [active] = await opts.secrets.ensure(OAUTH_KEYS_KIND, async () => {
    const file = join(opts.dataDir, LEGACY_OAUTH_KEYS_FILE);
    const keys = existsSync(file) ? parse(readFileSync(file, 'utf8'), file) : await newKeys();
    return { kid: keys.jwks.keys[0]!.kid ?? (await calculateJwkThumbprint(keys.jwks.keys[0]!)), value: JSON.stringify(keys) };
  });
  return parse(active!.value, `the stored ${OAUTH_KEYS_KIND}`);
}
