// Platform JWTs: ES256, signed by a key generated on first start (kept in the data dir) or given by config.
// The public half is published as a JWKS so the other services verify tokens without a shared secret.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  calculateJwkThumbprint,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  importPKCS8,
  jwtVerify,
  SignJWT,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { createPublicKey, type KeyObject } from 'node:crypto';

export const JWT_ISSUER = 'overlook';
export const JWT_AUDIENCE = 'overlook-api';
const ALG = 'ES256';

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
  kid: string;
  jwks: { keys: JWK[] };
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

const KEY_FILE = 'jwt-signing-key.pem';

/** Loads the signing key from config or the data dir, generating and saving one on first start. */
export async function loadJwtSigner(opts: { dataDir: string; privateKeyPem?: string }): Promise<JwtSigner> {
  let pem = opts.privateKeyPem;
  const file = join(opts.dataDir, KEY_FILE);
  if (!pem && existsSync(file)) pem = readFileSync(file, 'utf8');
  if (!pem) {
    const { privateKey } = await generateKeyPair(ALG, { extractable: true });
    pem = await exportPKCS8(privateKey);
    writeFileSync(file, pem, { mode: 0o600, flag: 'wx' });
  }
  const privateKey = (await importPKCS8(pem, ALG, { extractable: true })) as unknown as KeyObject;
  const publicKey = createPublicKey(privateKey);
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const jwk: JWK = { ...publicJwk, kid, alg: ALG, use: 'sig' };

  return {
    kid,
    jwks: { keys: [jwk] },
    sign: (claims, expiresAt) =>
      new SignJWT(claims.act ? { sid: claims.sid, act: { sub: claims.act } } : { sid: claims.sid })
        .setProtectedHeader({ alg: ALG, kid, typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuer(JWT_ISSUER)
        .setAudience(JWT_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(privateKey),
    verify: (token) => verifyPlatformJwt(token, publicKey),
    signFor: async (audience, { sub, ...claims }, expiresAt) => {
      if (audience === JWT_AUDIENCE) throw new Error('platform JWTs are signed by sign()');
      return new SignJWT(claims)
        .setProtectedHeader({ alg: ALG, kid, typ: 'JWT' })
        .setSubject(sub)
        .setIssuer(JWT_ISSUER)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(privateKey);
    },
    verifyFor: async (audience, token) => {
      if (audience === JWT_AUDIENCE) throw new Error('the platform audience is verified by verify()');
      const { payload } = await jwtVerify(token, publicKey, { algorithms: [ALG], issuer: JWT_ISSUER, audience, requiredClaims: ['sub', 'exp'] });
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
