// How a service other than the main API (AI, Labs, MCP) trusts a platform JWT: the signature is checked
// locally against the main API's published JWKS (no shared secret), then the session behind it is asked
// for at the main API on every request, so a logged-out or revoked session is refused at once.
import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import { JWT_KEYS_REFRESH_MS, looksLikeJwt, verifyPlatformJwt } from './jwt.js';

export interface PlatformUser {
  id: string;
  email: string;
  firstname: string;
  lastname: string;
  is_admin: boolean;
  created_at: string;
}

export type SessionCheck = { ok: true; user: PlatformUser; sessionId: string } | { ok: false; reason: 'malformed' | 'invalid' | 'ended' | 'unreachable' };

export class PlatformSessionCheck {
  private readonly jwks: JWTVerifyGetKey;

  constructor(private readonly apiUrl: string) {
    // jose caches the key set and refetches it when it meets an unknown key id (key rotation: a token
    // signed by a key added since), at most once a second rather than jose's default 30 s.
    this.jwks = createRemoteJWKSet(new URL('/.well-known/jwks.json', apiUrl), { timeoutDuration: 5000, cooldownDuration: JWT_KEYS_REFRESH_MS });
  }

  async check(token: string): Promise<SessionCheck> {
    if (!looksLikeJwt(token)) return { ok: false, reason: 'malformed' };
    let sessionId: string;
    try {
      sessionId = (await verifyPlatformJwt(token, this.jwks)).sid;
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      return { ok: false, reason: code === 'ERR_JWKS_TIMEOUT' || code === 'ERR_JOSE_GENERIC' ? 'unreachable' : 'invalid' };
    }
    let res: Response;
    try {
      res = await fetch(new URL('/v2/auth/users/me', this.apiUrl), { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(5000) });
    } catch {
      return { ok: false, reason: 'unreachable' };
    }
    if (res.status === 401) return { ok: false, reason: 'ended' };
    if (!res.ok) return { ok: false, reason: 'unreachable' };
    return { ok: true, user: (await res.json()) as PlatformUser, sessionId };
  }
}
