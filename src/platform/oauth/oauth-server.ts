// The OAuth 2.1 authorization server of the main API, built on oidc-provider (no protocol code of our
// own): authorization code with PKCE (S256 only), refresh tokens rotated on every use, dynamic client
// registration (RFC 7591), RFC 8414 metadata, and Resource Indicators (RFC 8707) so a token asked for
// the MCP server is a JWT whose audience is that server. Storage is the platform database.
import type { default as Provider, GrantInstance } from 'oidc-provider';
import { createLocalJWKSet, jwtVerify, type JWK, type JWTVerifyGetKey } from 'jose';
import type { FastifyBaseLogger } from 'fastify';
import type { PlatformConfig } from '../../lib/config.js';
import type { PlatformDb } from '../database.js';
import { toBool } from '../../lib/db/index.js';
import { findUserById } from '../users/index.js';
import type { LiveSession } from '../auth/index.js';
import { createOauthAdapter } from './oauth-adapter.js';
import { CLIENT_AUTH_METHODS, checkClientSecretsByDigest } from './oauth-secrets-at-rest.js';
import { deleteRecordsOfAccount } from './oauth-records-repository.js';
import type { OauthKeys } from './oauth-keys.js';
import { MCP_SCOPE } from './scopes.js';
import { renderErrorPage } from './pages.js';
import { CHECKED_METADATA, ClientRegistrations, checkClientMetadata } from './client-registration.js';
import { showAuthorizationErrors } from './authorization-errors.js';
import type { OidcProviderModule } from './load-oidc-provider.js';
/** The session id an OAuth access token's principal carries: the grant it belongs to. */
const OAUTH_SESSION_PREFIX = 'oauth:';

/** Where oidc-provider's own endpoints are mounted in the main API. */
export const OAUTH_PREFIX = '/oauth';

const HOUR = 3600;
const DAY = 24 * HOUR;

export class OauthServer {
  readonly provider: Provider;
  readonly issuer: string;
  /** The main API's audience in access tokens (its `/v2` base URL). */
  readonly apiAudience: string;
  /** The MCP server's resource identifier (its `/mcp` URL). */
  readonly mcpResource: string;
  private readonly publicKeys: JWTVerifyGetKey;
  /** Open registration's throttle and the deletion of clients nobody authorized. */
  readonly registrations: ClientRegistrations;

  /** `oidc`: the oidc-provider module, imported only when the server is built (load-oidc-provider.ts). */
  constructor(
    oidc: OidcProviderModule,
    config: PlatformConfig,
    private readonly db: PlatformDb,
    keys: OauthKeys,
    log: FastifyBaseLogger,
  ) {
    this.issuer = config.publicUrl.replace(/\/+$/, '');
    this.apiAudience = `${this.issuer}/v2`;
    this.mcpResource = config.mcpUrl;
    const publicJwks = keys.jwks.keys.map(({ d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub }) => pub as JWK);
    this.publicKeys = createLocalJWKSet({ keys: publicJwks });
    const mcpResource = this.mcpResource;
    const apiAudience = this.apiAudience;

    this.provider = new oidc.default(this.issuer, {
      adapter: createOauthAdapter(db),
      jwks: keys.jwks,
      cookies: { keys: keys.cookieKeys },
      async findAccount(_ctx: unknown, id: string) {
        const user = await findUserById(db, id);
        if (!user || user.disabled_at) return undefined;
        return {
          accountId: id,
          claims: async () => ({ sub: id, email: user.email, email_verified: false, name: `${user.firstname} ${user.lastname}`.trim() }),
        };
      },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      scopes: ['openid', 'offline_access', 'email', 'profile', MCP_SCOPE],
      responseTypes: ['code'],
      pkce: { required: () => true },
      // Client secrets are stored as digests: only methods that compare the secret (docs/security.md).
      clientAuthMethods: CLIENT_AUTH_METHODS,
      // Bounds on what a client registers (client-registration.ts), before oidc-provider's own checks.
      extraClientMetadata: {
        properties: CHECKED_METADATA,
        validator: (_ctx: unknown, key: string, value: unknown) => checkClientMetadata(oidc.errors, key, value),
      },
      clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], id_token_signed_response_alg: 'ES256' },
      features: {
        devInteractions: { enabled: false },
        // Open registration (RFC 7591), as MCP clients expect; such clients have no owner.
        registration: { enabled: true },
        revocation: { enabled: true },
        resourceIndicators: {
          enabled: true,
          // A request naming no resource is for the MCP server: the only resource this server issues for.
          defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string) => oneOf ?? mcpResource,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx: unknown, indicator: string) => {
            if (normaliseResource(indicator) !== normaliseResource(mcpResource)) throw new oidc.errors.InvalidTarget(`unknown resource ${indicator}`);
            return { scope: MCP_SCOPE, audience: mcpResource, accessTokenFormat: 'jwt', accessTokenTTL: HOUR, jwt: { sign: { alg: 'ES256' } } };
          },
        },
      },
      formats: {
        customizers: {
          // The MCP server calls the main API as the person with the same token (docs/decisions.md):
          // the token names both audiences and the grant it belongs to, so revoking the grant ends it.
          jwt(_ctx: unknown, token: { grantId?: string }, jwt: { payload: Record<string, unknown> }) {
            const aud = jwt.payload.aud;
            if (aud === mcpResource) jwt.payload.aud = [mcpResource, apiAudience];
            if (token.grantId) jwt.payload.gid = token.grantId;
          },
        },
      },
      // Every client allowed the refresh_token grant gets one (not only with offline_access), rotated on each use.
      issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(t: string): boolean }) => client.grantTypeAllowed('refresh_token'),
      rotateRefreshToken: true,
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${OAUTH_PREFIX}/interaction/${interaction.uid}` },
      ttl: {
        AccessToken: HOUR,
        AuthorizationCode: 60,
        ClientCredentials: 10 * 60,
        IdToken: HOUR,
        Interaction: HOUR,
        Session: 14 * DAY,
        Grant: 30 * DAY,
        RefreshToken: 30 * DAY,
      },
      async renderError(ctx: { type: string; body: string }, out: Record<string, string>) {
        ctx.type = 'html';
        ctx.body = renderErrorPage(out.error_description ?? out.error ?? 'The request could not be completed');
      },
    });
    // Behind a TLS-terminating proxy (OVERLOOK_TRUST_PROXY=1, as for the main API) cookies are marked secure.
    this.provider.proxy = config.trustProxy;
    showAuthorizationErrors(this.provider);
    this.registrations = new ClientRegistrations(db, { perHour: config.oauthRegistrationsPerHour, unusedDays: config.oauthUnusedClientDays }, log);
    checkClientSecretsByDigest(this.provider);
    this.provider.on('server_error', (_ctx: unknown, err: Error) => log.error({ err }, 'oauth server error'));
  }

  /**
   * The main API's side of the MCP design: an OAuth access token whose audience includes the main API,
   * signed by this server, of a grant that still exists, of a person who still exists, acts as that person.
   */
  async verifyAccessToken(token: string): Promise<LiveSession | null> {
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.publicKeys, {
        issuer: this.issuer,
        audience: this.apiAudience,
        typ: 'at+jwt',
        requiredClaims: ['sub', 'exp', 'gid'],
      }));
    } catch {
      return null;
    }
    const { sub, gid, exp } = payload as { sub: unknown; gid: unknown; exp: number };
    if (typeof sub !== 'string' || typeof gid !== 'string') return null;
    const grant = await this.findGrant(gid);
    if (!grant || grant.accountId !== sub) return null;
    const user = await findUserById(this.db, sub);
    // A disabled account's tokens stop working at once, like its sessions.
    if (!user || user.disabled_at) return null;
    return { id: `${OAUTH_SESSION_PREFIX}${gid}`, userId: sub, isAdmin: toBool(user.is_admin), expiresAt: exp * 1000, delegated: true };
  }

  /** Whether an OAuth principal's session id (`oauth:<grant>`) names a grant that is still the person's. */
  async grantIsLive(sessionId: string, userId: string): Promise<boolean> {
    if (!sessionId.startsWith(OAUTH_SESSION_PREFIX)) return false;
    const grant = await this.findGrant(sessionId.slice(OAUTH_SESSION_PREFIX.length));
    return !!grant && grant.accountId === userId;
  }

  /** Ends every grant (and so every token) the person holds: their account was disabled or lost its admin flag. */
  revokeGrantsOf(userId: string): Promise<number> {
    return deleteRecordsOfAccount(this.db, userId);
  }

  private findGrant(id: string): Promise<GrantInstance | undefined> {
    return this.provider.Grant.find(id);
  }
}

/** Resource URLs compare without a trailing slash. */
const normaliseResource = (u: string) => u.replace(/\/+$/, '');
