// The platform's JWT signing keys, kept in the secrets table (kind `jwt-signing`, kid = the key's JWK
// thumbprint). The newest is the active key; an older one stays listed, and verifying, until every token
// it can have signed has expired: the longest-lived token (a sign-in) lasts the session lifetime, so a key
// is retired that long after the next key replaced it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSigningKeyPem, signingKeyFromPem } from '../../lib/auth/jwt.js';
import type { MakeSecret, SecretStore, StoredSecret } from './secret-store.js';

const JWT_SIGNING_KIND = 'jwt-signing';
/** The key file of data dirs made before the keys moved to the database. */
export const LEGACY_JWT_KEY_FILE = 'jwt-signing-key.pem';

const newKey: MakeSecret = async () => {
  const pem = await generateSigningKeyPem();
  return { kid: (await signingKeyFromPem(pem)).kid, value: pem };
};

/** The first key: the data dir's old key file when there is one (its tokens stay valid), else a new key. */
const firstKey =
  (dataDir: string): MakeSecret =>
  async () => {
    const file = join(dataDir, LEGACY_JWT_KEY_FILE);
    if (!existsSync(file)) return newKey();
    const pem = readFileSync(file, 'utf8');
    return { kid: (await signingKeyFromPem(pem)).kid, value: pem };
  };

/** The keys still verifying tokens, active first: the newest, and each older one until `retireAfterMs` after its successor. */
export function listedKeys(secrets: StoredSecret[], retireAfterMs: number, now = Date.now()): StoredSecret[] {
  return secrets.filter((_s, i) => i === 0 || Date.parse(secrets[i - 1]!.createdAt) + retireAfterMs > now);
}

/** A loader for `jwtSigner`: the listed keys' PEMs, creating the first key when the database has none. */
export function storedJwtKeys(store: SecretStore, opts: { dataDir: string; retireAfterMs: number }): () => Promise<string[]> {
  let ensured = false;
  return async () => {
    const all = ensured ? await store.list(JWT_SIGNING_KIND) : await store.ensure(JWT_SIGNING_KIND, firstKey(opts.dataDir));
    ensured = true;
    return listedKeys(all, opts.retireAfterMs).map((s) => s.value);
  };
}

/** `overlook keys rotate`: adds a new active signing key. Returns its kid and the kids still listed. */
export async function rotateJwtKey(store: SecretStore, opts: { dataDir: string; retireAfterMs: number }): Promise<{ kid: string; listed: string[] }> {
  await store.ensure(JWT_SIGNING_KIND, firstKey(opts.dataDir));
  const active = await store.add(JWT_SIGNING_KIND, newKey);
  return { kid: active.kid, listed: listedKeys(await store.list(JWT_SIGNING_KIND), opts.retireAfterMs).map((s) => s.kid) };
}
