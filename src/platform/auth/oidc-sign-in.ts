// Sign-in with an external OpenID Connect provider (authorization code flow with state, nonce and
// PKCE S256), through openid-client: discovery, the authorization URL, the code exchange and the
// ID token checks (signature, issuer, audience, nonce) are the library's, not ours. What is ours:
// the pending sign-in kept server-side and used once, linking the provider account to a person by
// its verified e-mail, and the session at the end, like any other.
import * as oidc from 'openid-client';
import type { Cache, CacheRegistry } from '../../lib/cache/index.js';
import type { PlatformDb } from '../database.js';
import { ApiError, validation } from '../../lib/errors.js';
import type { AdminConfig, OidcProviderConfig } from '../../lib/config/admin-config.js';
import { randomBytes } from 'node:crypto';
import type { SessionStore } from './session-store.js';
import type { AuditContext, AuditLog } from '../audit/index.js';
import { createUser, normaliseEmail, toUserRecord, type UserRecord, findUserByEmail, findUserById } from '../users/index.js';
import * as identities from './identities-repository.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export class OidcSignIn {
  /** Each configured provider's discovered configuration, by provider id (docs/architecture.md, Caches). */
  private readonly configs: Cache<string, oidc.Configuration>;

  constructor(
    private readonly db: PlatformDb,
    private readonly sessions: SessionStore,
    private readonly audit: AuditLog,
    private readonly cfg: Pick<AdminConfig, 'oidcProviders' | 'oidcLoginSeconds'>,
    private readonly publicUrl: string,
    caches: CacheRegistry,
  ) {
    this.configs = caches.create('auth.oidc-configurations', { max: Math.max(1, cfg.oidcProviders.length) });
  }

  /** What `/v2/auth/options` and `/signup_options` list. */
  list(filter: { signup?: boolean } = {}): { provider: string; name: string }[] {
    return this.cfg.oidcProviders.filter((p) => !filter.signup || p.signup).map((p) => ({ provider: p.id, name: p.name }));
  }

  describe(id: string) {
    const p = this.provider(id);
    return { provider: p.id, name: p.name, login_url: `${this.base()}/v2/auth/provider/${p.id}/login` };
  }

  private base() {
    return this.publicUrl.replace(/\/+$/, '');
  }

  private provider(id: string): OidcProviderConfig {
    const p = this.cfg.oidcProviders.find((x) => x.id === id);
    if (!p) throw new ApiError('NOT_FOUND', `No sign-in provider named ${id} is configured`);
    return p;
  }

  redirectUri(id: string): string {
    return `${this.base()}/v2/auth/provider/${id}/callback`;
  }

  /** The provider's discovered configuration, fetched once (again after a failure). */
  private configuration(p: OidcProviderConfig): Promise<oidc.Configuration> {
    const c = this.configs.load(p.id, () => {
      const issuer = new URL(p.issuer);
      // Plain HTTP only for a provider on this machine (development and tests).
      const insecure = issuer.protocol === 'http:' && LOOPBACK.has(issuer.hostname);
      return oidc.discovery(issuer, p.clientId, p.clientSecret, undefined, insecure ? { execute: [oidc.allowInsecureRequests], timeout: 10 } : { timeout: 10 });
    });
    return c.catch((err: unknown) => {
      throw new ApiError('BAD_GATEWAY', `The sign-in provider ${p.id} could not be reached: ${(err as Error).message}`);
    });
  }

  /** Starts a sign-in: the URL to send the browser to, and the state to bind to that browser. */
  async begin(id: string): Promise<{ url: string; state: string }> {
    const p = this.provider(id);
    const config = await this.configuration(p);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const verifier = oidc.randomPKCECodeVerifier();
    const now = Date.now();
    await identities.deleteLoginStatesExpiredBefore(this.db, new Date(now).toISOString());
    await identities.insertLoginState(this.db, {
      state,
      provider: p.id,
      code_verifier: verifier,
      nonce,
      return_to: null,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + this.cfg.oidcLoginSeconds * 1000).toISOString(),
    });
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri(p.id),
      scope: 'openid email profile',
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state };
  }

  /**
   * Finishes a sign-in from the provider's redirect: `query` is the callback's query string,
   * `browserState` the state cookie set by `begin` (login CSRF: the callback must come back to the
   * browser that started it).
   */
  async complete(
    ctx: AuditContext,
    id: string,
    query: string,
    browserState: string | undefined,
    client: { ip?: string; userAgent?: string },
  ): Promise<{ user: UserRecord; token: string; sessionId: string }> {
    const p = this.provider(id);
    const params = new URLSearchParams(query);
    const state = params.get('state');
    if (!state) throw validation('state', 'is missing');
    const row = await identities.loginState(this.db, state);
    // Used once, whatever happens next.
    if (row) await identities.deleteLoginState(this.db, state);
    if (!row || row.provider !== p.id || Date.parse(row.expires_at) <= Date.now()) {
      throw validation('state', 'is unknown or expired; start the sign-in again');
    }
    if (browserState !== state) throw validation('state', 'does not belong to this browser; start the sign-in again');
    const failed = async (reason: string, status: ApiError) => {
      await this.audit.record(ctx, { action: 'auth.login', outcome: 'failure', subjectUserId: null, details: { method: 'oidc', provider: p.id, reason } });
      return status;
    };
    const error = params.get('error');
    if (error)
      throw await failed(
        `provider answered ${error}`,
        new ApiError('UNAUTHORIZED', `The provider refused the sign-in: ${error}`, { headers: { 'www-authenticate': 'Bearer realm="overlook"' } }),
      );

    const config = await this.configuration(p);
    let claims: oidc.IDToken | undefined;
    try {
      const current = new URL(`${this.redirectUri(p.id)}?${params.toString()}`);
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: row.code_verifier,
        expectedState: state,
        expectedNonce: row.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
      // Providers that keep the e-mail out of the ID token give it at the UserInfo endpoint
      // (openid-client checks its `sub` is the ID token's).
      if (claims && claims.email === undefined && tokens.access_token) {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
        claims = { ...claims, email: info.email, email_verified: info.email_verified, given_name: info.given_name, family_name: info.family_name };
      }
    } catch (err) {
      if (err instanceof oidc.ResponseBodyError || err instanceof oidc.AuthorizationResponseError) {
        throw await failed(
          `code exchange refused: ${err.error}`,
          new ApiError('UNAUTHORIZED', `The provider refused the sign-in: ${err.error}`, { headers: { 'www-authenticate': 'Bearer realm="overlook"' } }),
        );
      }
      const code = (err as { code?: string }).code ?? '';
      if (code.startsWith('OAUTH_') && !/TIMEOUT|FETCH|NETWORK/.test(code)) {
        throw await failed(
          `response rejected: ${code}`,
          new ApiError('UNAUTHORIZED', `The provider's answer was rejected (${code})`, { headers: { 'www-authenticate': 'Bearer realm="overlook"' } }),
        );
      }
      throw await failed('provider unreachable', new ApiError('BAD_GATEWAY', `The sign-in provider ${p.id} could not be reached`));
    }
    if (!claims) throw await failed('no ID token', new ApiError('BAD_GATEWAY', 'The provider sent no ID token'));

    const user = await this.link(ctx, p, claims, failed);
    if (user.disabled_at) throw await failed('account disabled', new ApiError('ACCOUNT_DISABLED', 'This account is disabled'));
    // The sign-in itself is recorded (activity and audit) by the caller, as for password sign-ins.
    const session = await this.sessions.create(user.id, client);
    return { user: toUserRecord(user), token: session.token, sessionId: session.sessionId };
  }

  /** The person behind the provider account: by an earlier link, else by verified e-mail (linked now). */
  private async link(ctx: AuditContext, p: OidcProviderConfig, claims: oidc.IDToken, failed: (reason: string, e: ApiError) => Promise<ApiError>) {
    const linked = await identities.linkedIdentity(this.db, p.id, claims.sub);
    const now = new Date().toISOString();
    if (linked) {
      await identities.touchIdentity(this.db, p.id, claims.sub, now);
      return (await findUserById(this.db, linked.user_id))!;
    }
    const email = typeof claims.email === 'string' ? normaliseEmail(claims.email) : '';
    if (!email || claims.email_verified !== true) {
      throw await failed(
        'e-mail not verified',
        new ApiError('PERMISSION_DENIED', 'The provider did not confirm a verified e-mail address, so the account cannot be linked'),
      );
    }
    let user = await findUserByEmail(this.db, email);
    if (!user) {
      if (!p.signup) throw await failed('no account', new ApiError('PERMISSION_DENIED', `No account uses ${email}; ask an administrator to create one`));
      // A password nobody knows: this person signs in through the provider (or resets it later).
      await createUser(this.db, {
        email,
        password: randomBytes(24).toString('base64url'),
        firstname: typeof claims.given_name === 'string' ? claims.given_name.slice(0, 100) : '',
        lastname: typeof claims.family_name === 'string' ? claims.family_name.slice(0, 100) : '',
      });
      user = (await findUserByEmail(this.db, email))!;
    }
    await identities.insertIdentity(this.db, { provider: p.id, subject: claims.sub, user_id: user.id, email, created_at: now, last_login_at: now });
    await this.audit.record(
      { ...ctx, actorUserId: user.id },
      {
        action: 'auth.identity_linked',
        subjectUserId: user.id,
        target: { type: 'identity', id: `${p.id}:${claims.sub}` },
        details: { provider: p.id, email },
      },
    );
    return user;
  }
}
