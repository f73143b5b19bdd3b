// Platform JWTs: ES256, each carrying the id (`kid`) of the key that signed it. The keys come from a
// loader (the ones kept in the database, or the one given by config), active first; the public halves
// are published as a JWKS so the other services verify tokens without a shared secret, and a token
// verifies while its key is listed, so adding a new active key (rotation) signs nobody out.
import {
  calculateJwkThumbprint,
  errors,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

const JWT_ISSUER = 'overlook';
const JWT_AUDIENCE = 'overlook-api';
const ALG = 'ES256';

/** How long a loaded key set is used before the loader is asked again (a rotation reaches every node within it). */
export const JWT_KEYS_REFRESH_MS = 1000;
/** A token naming an unknown key makes the loader be asked again, but not more often than this. */
const UNKNOWN_KID_RELOAD_MS = 100;

export interface PlatformClaims {
  sub: string;
  sid: string;
  iat: number;
  exp: number;
  /**
   * Impersonation (RFC 8693 `act` claim, `{"sub": <admin id>}`): the platform admin acting as `sub`.
   * Absent on ordinary sign-ins. The session row is the authority; the claim lets every verifier see it.
   */
  act?: string;
}

export interface JwtSigner {
  /** The public keys that verify tokens (every listed key, each with its `kid`): what `/.well-known/jwks.json` serves. */
  jwks(): Promise<{ keys: JWK[] }>;
  /** Signs with the active key; the header carries its `kid`. */
  sign(claims: { sub: string; sid: string; act?: string }, expiresAt: Date): Promise<string>;
  verify(token: string): Promise<PlatformClaims>;
  /**
   * Signs a purpose-bound token (e.g. a media token) with the same key but its own audience, so it is
   * never accepted as a platform JWT, and a platform JWT never as one of these.
   */
  signFor(audience: string, claims: Record<string, unknown> & { sub: string }, expiresAt: Date): Promise<string>;
  /** Verifies a token signed by `signFor` for `audience`; throws on anything wrong (signature, expiry, audience). */
  verifyFor(audience: string, token: string): Promise<JWTPayload>;
}

export interface SigningKey {
  /** The RFC 7638 thumbprint of the public key. */
  kid: string;
  privateKey: KeyObject;
  /** The public JWK, with `kid`, `alg` and `use`. */
  jwk: JWK;
  publicKey: KeyObject;
}

/** A new ES256 private key, as PKCS#8 PEM. */
export async function generateSigningKeyPem(): Promise<string> {
  const { privateKey } = await generateKeyPair(ALG, { extractable: true });
  return exportPKCS8(privateKey);
}

export async function signingKeyFromPem(pem: string): Promise<SigningKey> {
  // Node's own KeyObject: jose signs with it, and Node derives the public key from it.
  const privateKey = createPrivateKey(pem);
  const publicKey = createPublicKey(privateKey);
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  return { kid, privateKey, publicKey, jwk: { ...publicJwk, kid, alg: ALG, use: 'sig' } };
}

/**
 * A signer over the keys `load` returns (PKCS#8 PEMs, the active one first), asked again at most every
 * JWT_KEYS_REFRESH_MS. When the loader fails (database unreachable) the keys loaded last stay in use.
 */
export function jwtSigner(load: () => Promise<string[]>, opts: { refreshMs?: number } = {}): JwtSigner {
  const refreshMs = opts.refreshMs ?? JWT_KEYS_REFRESH_MS;
  const parsed = new Map<string, Promise<SigningKey>>();
  let current: { keys: SigningKey[]; at: number } | undefined;
  let loading: Promise<SigningKey[]> | undefined;

  const parse = (pem: string) => {
    let key = parsed.get(pem);
    if (!key) {
      key = signingKeyFromPem(pem);
      parsed.set(pem, key);
    }
    return key;
  };
  const reload = async (): Promise<SigningKey[]> => {
    try {
      const keys = await Promise.all((await load()).map(parse));
      if (keys.length === 0) throw new Error('no JWT signing key');
      current = { keys, at: Date.now() };
    } catch (err) {
      if (!current) throw err;
      current = { keys: current.keys, at: Date.now() };
    }
    return current.keys;
  };
  /** `unknownKid`: a token names a key not loaded, perhaps one another node just added: ask again unless just asked. */
  const keys = (unknownKid = false): Promise<SigningKey[]> => {
    const fresh = unknownKid ? UNKNOWN_KID_RELOAD_MS : refreshMs;
    if (current && Date.now() - current.at < fresh) return Promise.resolve(current.keys);
    loading ??= reload().finally(() => {
      loading = undefined;
    });
    return loading;
  };
  const active = async () => (await keys())[0]!;
  /** The key a token names by `kid` (one without a kid: the active key). */
  const byKid: JWTVerifyGetKey = async (header) => {
    const find = (listed: SigningKey[]) => (header.kid === undefined ? listed[0] : listed.find((k) => k.kid === header.kid));
    const key = find(await keys()) ?? find(await keys(true));
    if (!key) throw new errors.JWKSNoMatchingKey();
    return key.publicKey;
  };

  return {
    jwks: async () => ({ keys: (await keys()).map((k) => k.jwk) }),
    sign: async (claims, expiresAt) => {
      const key = await active();
      return new SignJWT(claims.act ? { sid: claims.sid, act: { sub: claims.act } } : { sid: claims.sid })
        .setProtectedHeader({ alg: ALG, kid: key.kid, typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuer(JWT_ISSUER)
        .setAudience(JWT_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(key.privateKey);
    },
    verify: (token) => verifyPlatformJwt(token, byKid),
    signFor: async (audience, { sub, ...claims }, expiresAt) => {
      if (audience === JWT_AUDIENCE) throw new Error('platform JWTs are signed by sign()');
      const key = await active();
      return new SignJWT(claims)
        .setProtectedHeader({ alg: ALG, kid: key.kid, typ: 'JWT' })
        .setSubject(sub)
        .setIssuer(JWT_ISSUER)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(key.privateKey);
    },
    verifyFor: async (audience, token) => {
      if (audience === JWT_AUDIENCE) throw new Error('the platform audience is verified by verify()');
      const { payload } = await jwtVerify(token, byKid, { algorithms: [ALG], issuer: JWT_ISSUER, audience, requiredClaims: ['sub', 'exp'] });
      return payload;
    },
  };
}

/** Verifies a platform JWT with a local public key or a remote JWKS (other services). Throws on anything wrong. */
export async function verifyPlatformJwt(token: string, key: KeyObject | JWTVerifyGetKey): Promise<PlatformClaims> {
  const { payload } = await jwtVerify(token, key as KeyObject, {
    algorithms: [ALG],
    issuer: JWT_ISSUER,
    audience: JWT_AUDIENCE,
    requiredClaims: ['sub', 'sid', 'exp', 'iat'],
  });
  if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') throw new Error('malformed claims');
  const claims: PlatformClaims = { sub: payload.sub, sid: payload.sid, iat: payload.iat!, exp: payload.exp! };
  if (payload.act !== undefined) {
    const act = payload.act as { sub?: unknown } | null;
    if (!act || typeof act !== 'object' || typeof act.sub !== 'string') throw new Error('malformed act claim');
    claims.act = act.sub;
  }
  return claims;
}

/** A compact JWS has three base64url parts; anything else is not worth verifying. */
export const looksLikeJwt = (t: string) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(t) && t.length < 4096;
