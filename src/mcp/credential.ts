// Who is calling the MCP server, resolved on every request (docs/oauth-mcp.md, docs/access-model.md):
// `Authorization: Bearer` with either an OAuth access token issued for this server by the main API's
// authorization server (signature against its JWKS, issuer, audience = this server's resource URL,
// then the person and the grant confirmed live at the main API), or a platform JWT (checked as AI and
// Labs check it: JWKS, then the live session). API keys, in any header, are refused.
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { looksLikeApiKey } from '../lib/auth/api-key-format.js';
import { bearerToken } from '../lib/auth/bearer.js';
import { looksLikeJwt } from '../lib/auth/jwt.js';
import { PlatformSessionCheck, type PlatformUser } from '../lib/auth/platform-session-check.js';

export type Caller = { user: PlatformUser; token: string; kind: 'oauth' | 'jwt'; clientId?: string; scopes: string[]; expiresAt?: number };

export type Resolution = { ok: true; caller: Caller } | { ok: false; status: 401 | 503; message: string; error?: 'invalid_request' | 'invalid_token' };

interface AuthServerMetadata {
  issuer: string;
  jwks_uri: string;
}

const header = (headers: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v.join(',') : v;
};

export class CredentialResolver {
  private readonly sessions: PlatformSessionCheck;
  private metadata: Promise<{ meta: AuthServerMetadata; jwks: JWTVerifyGetKey }> | null = null;

  constructor(
    private readonly apiUrl: string,
    /** This server's resource identifier: the audience its OAuth tokens must carry. */
    private readonly resource: () => string,
  ) {
    this.sessions = new PlatformSessionCheck(apiUrl);
  }

  /** The authorization server's metadata (RFC 8414) and key set, fetched once and kept (jose refetches on unknown kids). */
  private authServer(): Promise<{ meta: AuthServerMetadata; jwks: JWTVerifyGetKey }> {
    this.metadata ??= (async () => {
      const res = await fetch(new URL('/.well-known/oauth-authorization-server', this.apiUrl), { signal: AbortSignal.timeout(5000) });
      if (!res.ok) throw new Error(`authorization server metadata: ${res.status}`);
      const meta = (await res.json()) as AuthServerMetadata;
      return { meta, jwks: createRemoteJWKSet(new URL(meta.jwks_uri), { timeoutDuration: 5000 }) };
    })().catch((err) => {
      this.metadata = null;
      throw err;
    });
    return this.metadata;
  }

  async resolve(headers: Record<string, string | string[] | undefined>): Promise<Resolution> {
    const refuse = (message: string, error?: 'invalid_request' | 'invalid_token'): Resolution => ({ ok: false, status: 401, message, error });
    if (header(headers, 'x-access-key') !== undefined || header(headers, 'x-api-key') !== undefined) {
      return refuse('API keys are not accepted by the MCP server; sign in with OAuth or send a platform JWT as Authorization: Bearer', 'invalid_request');
    }
    const auth = header(headers, 'authorization');
    if (auth === undefined) return refuse('Sign in: send an OAuth access token or a platform JWT as Authorization: Bearer');
    const token = bearerToken(auth);
    if (token === undefined) return refuse('Authorization must be "Bearer <token>"', 'invalid_request');
    if (looksLikeApiKey(token)) return refuse('API keys are not accepted by the MCP server', 'invalid_token');
    if (!looksLikeJwt(token)) return refuse('The bearer token is not valid', 'invalid_token');

    let typ: string | undefined;
    try {
      typ = decodeProtectedHeader(token).typ;
    } catch {
      return refuse('The bearer token is not valid', 'invalid_token');
    }
    return typ?.toLowerCase() === 'at+jwt' ? this.oauth(token) : this.platformJwt(token);
  }

  private async oauth(token: string): Promise<Resolution> {
    let server: { meta: AuthServerMetadata; jwks: JWTVerifyGetKey };
    try {
      server = await this.authServer();
    } catch {
      return { ok: false, status: 503, message: 'The authorization server could not be reached; try again' };
    }
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, server.jwks, {
        issuer: server.meta.issuer,
        audience: this.resource(),
        typ: 'at+jwt',
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      if (code === 'ERR_JWKS_TIMEOUT') return { ok: false, status: 503, message: 'The authorization server could not be reached; try again' };
      return {
        ok: false,
        status: 401,
        message: 'The access token is not valid for this server (signature, issuer, audience or expiry)',
        error: 'invalid_token',
      };
    }
    // The person and the grant, live: a revoked grant or a deleted app is refused from the next request on.
    let res: Response;
    try {
      res = await fetch(new URL('/v2/auth/users/me', this.apiUrl), { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(5000) });
    } catch {
      return { ok: false, status: 503, message: 'The main API could not be reached; try again' };
    }
    if (res.status === 401) return { ok: false, status: 401, message: 'The access token was revoked', error: 'invalid_token' };
    if (!res.ok) return { ok: false, status: 503, message: 'The main API could not confirm the token; try again' };
    const user = (await res.json()) as PlatformUser;
    const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
    return { ok: true, caller: { user, token, kind: 'oauth', clientId: payload.client_id as string | undefined, scopes, expiresAt: payload.exp as number } };
  }

  private async platformJwt(token: string): Promise<Resolution> {
    const r = await this.sessions.check(token);
    if (r.ok) return { ok: true, caller: { user: r.user, token, kind: 'jwt', scopes: [] } };
    if (r.reason === 'unreachable') return { ok: false, status: 503, message: 'The main API could not confirm the session; try again' };
    return {
      ok: false,
      status: 401,
      message: r.reason === 'ended' ? 'The token belongs to a session that has ended' : 'The bearer token is not valid',
      error: 'invalid_token',
    };
  }
}
