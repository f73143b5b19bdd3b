// The OAuth 2.0 authorization-code flow (RFC 6749) with state and PKCE (RFC 7636) against a provider,
// through openid-client v6 with the provider's endpoints given by hand (these providers publish no
// discovery document, and openid-client works without one for plain OAuth 2.0: no id_token is
// expected unless asked for). Also the refresh-token grant and RFC 7009 revocation.
import * as oidc from 'openid-client';
import { ApiError } from '../../../lib/errors.js';
import { envStem, joinUrl, type ProviderDescription, type ProviderSettings } from './provider-description.js';

export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  /** ISO-8601; null when the provider says nothing about expiry. */
  expiresAt: string | null;
  scopes: string[];
}

export class OAuthFlow {
  constructor(
    private readonly provider: ProviderDescription,
    private readonly settings: ProviderSettings,
    private readonly redirectUri: string,
    private readonly timeoutMs: number,
  ) {}

  private configuration(): oidc.Configuration {
    const o = this.provider.oauth;
    const { clientId, clientSecret, authUrl } = this.settings;
    if (!o) throw new Error(`${this.provider.id} is not an OAuth provider`);
    if (!clientId) {
      throw new ApiError(
        'CONNECTOR_NOT_CONFIGURED',
        `${this.provider.name} is not configured on this server (OVERLOOK_${envStem(this.provider.id)}_CLIENT_ID)`,
      );
    }
    const server: oidc.ServerMetadata = {
      issuer: authUrl,
      authorization_endpoint: joinUrl(authUrl, o.authorizePath),
      token_endpoint: joinUrl(authUrl, o.tokenPath),
      ...(o.revokePath ? { revocation_endpoint: joinUrl(authUrl, o.revokePath) } : {}),
    };
    const auth = !clientSecret ? oidc.None() : o.clientAuth === 'basic' ? oidc.ClientSecretBasic(clientSecret) : oidc.ClientSecretPost(clientSecret);
    const config = new oidc.Configuration(server, clientId, clientSecret ? { client_secret: clientSecret } : undefined, auth);
    config.timeout = Math.max(1, Math.ceil(this.timeoutMs / 1000));
    // Plain http only for loopback (test fakes, a local proxy); real providers are https.
    if (/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:|\/|$)/.test(authUrl)) oidc.allowInsecureRequests(config);
    return config;
  }

  /** Checks the provider is configured before anything is stored. */
  assertConfigured(): void {
    this.configuration();
  }

  /** The URL to send the person to, and the secret half of PKCE to keep until the callback. */
  async authorizationUrl(state: string): Promise<{ url: string; codeVerifier: string | null }> {
    const o = this.provider.oauth!;
    const config = this.configuration();
    const params: Record<string, string> = { redirect_uri: this.redirectUri, response_type: 'code', state, ...(o.extraAuthorizeParams ?? {}) };
    if (o.scopes.length) params.scope = o.scopes.join(' ');
    let codeVerifier: string | null = null;
    if (o.pkce) {
      codeVerifier = oidc.randomPKCECodeVerifier();
      params.code_challenge = await oidc.calculatePKCECodeChallenge(codeVerifier);
      params.code_challenge_method = 'S256';
    }
    return { url: oidc.buildAuthorizationUrl(config, params).href, codeVerifier };
  }

  /** Exchanges the code the provider sent back (the whole callback URL, so openid-client checks state). */
  async exchange(callbackUrl: URL, state: string, codeVerifier: string | null): Promise<TokenSet> {
    const config = this.configuration();
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        expectedState: state,
        ...(codeVerifier ? { pkceCodeVerifier: codeVerifier } : {}),
      });
      return this.tokenSet(tokens);
    } catch (err) {
      throw this.failure('exchange the authorization code', err);
    }
  }

  async refresh(refreshToken: string): Promise<TokenSet> {
    const config = this.configuration();
    try {
      return this.tokenSet(await oidc.refreshTokenGrant(config, refreshToken));
    } catch (err) {
      throw this.failure('refresh the access token', err, true);
    }
  }

  /** The client-credentials grant: a token of the app itself (no person), e.g. for a viewer. */
  async clientCredentials(scopes: readonly string[]): Promise<TokenSet> {
    const config = this.configuration();
    try {
      return this.tokenSet(await oidc.clientCredentialsGrant(config, scopes.length ? { scope: scopes.join(' ') } : {}));
    } catch (err) {
      throw this.failure('get an application token', err);
    }
  }

  /** RFC 7009; true when the provider confirmed. Providers without a revocation endpoint: false. */
  async revoke(token: string): Promise<boolean> {
    if (!this.provider.oauth?.revokePath) return false;
    try {
      await oidc.tokenRevocation(this.configuration(), token);
      return true;
    } catch {
      return false;
    }
  }

  private tokenSet(t: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers): TokenSet {
    const expiresIn = t.expiresIn();
    return {
      accessToken: t.access_token,
      refreshToken: t.refresh_token ?? null,
      expiresAt: expiresIn === undefined ? null : new Date(Date.now() + expiresIn * 1000).toISOString(),
      scopes: typeof t.scope === 'string' && t.scope ? t.scope.split(' ') : [...(this.provider.oauth?.scopes ?? [])],
    };
  }

  /** Maps openid-client's errors: the provider refusing (invalid_grant…) vs. not answering. */
  private failure(what: string, err: unknown, isRefresh = false): ApiError {
    const e = err as Error & { code?: string; error?: string; error_description?: string; cause?: unknown };
    if (e instanceof oidc.ResponseBodyError) {
      if (isRefresh) return new ApiError('CONNECTOR_AUTH_EXPIRED', `${this.provider.name} refused to renew the connection (${e.error}); connect again`);
      return new ApiError('BAD_REQUEST', `${this.provider.name} refused to ${what}: ${e.error}${e.error_description ? ` (${e.error_description})` : ''}`);
    }
    const name = e.name ?? '';
    const causeName = (e.cause as Error | undefined)?.name ?? '';
    if ([name, causeName].some((n) => n === 'TimeoutError' || n === 'AbortError')) {
      return new ApiError('GATEWAY_TIMEOUT', `${this.provider.name} did not answer in time when trying to ${what}`);
    }
    return new ApiError('BAD_GATEWAY', `Could not ${what} with ${this.provider.name}: ${e.message}`);
  }
}
