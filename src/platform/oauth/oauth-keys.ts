// The authorization server's signing keys (access and ID tokens) and cookie keys: generated on first
// start into the data dir (`oauth-keys.json`, like the platform's JWT key) or given by config
// (OVERLOOK_OAUTH_KEYS, the same JSON). Kept apart from the platform JWT key: OAuth tokens and platform
// JWTs never verify as each other.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';

export interface OauthKeys {
  /** Private JWKs, ES256 first (what access tokens are signed with), RS256 for clients that ask for it. */
  jwks: { keys: JWK[] };
  /** Secrets the provider signs its cookies with. */
  cookieKeys: string[];
}

const FILE = 'oauth-keys.json';

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

export async function loadOauthKeys(opts: { dataDir: string; json?: string }): Promise<OauthKeys> {
  if (opts.json) return parse(opts.json, 'OVERLOOK_OAUTH_KEYS');
  const file = join(opts.dataDir, FILE);
  if (existsSync(file)) return parse(readFileSync(file, 'utf8'), file);
  const keys: OauthKeys = { jwks: { keys: [await privateJwk('ES256'), await privateJwk('RS256')] }, cookieKeys: [randomBytes(32).toString('base64url')] };
  try {
    writeFileSync(file, JSON.stringify(keys), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another process of the same data dir wrote it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return parse(readFileSync(file, 'utf8'), file);
    throw err;
  }
  return keys;
}
