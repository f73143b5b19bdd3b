// The connectors as one service (the `connectors` service of connectors-plugin.ts): the registered providers, and for each
// its OAuth flow and HTTP client; connect (an authorization URL, or credentials checked against the
// provider), the callback that finishes an authorization, status and disconnect.
import { randomBytes } from 'node:crypto';
import type { PlatformDb } from '../../database.js';
import { ApiError, validation } from '../../../lib/errors.js';
import { ConnectorStore } from './connector-store.js';
import { OAuthFlow } from './oauth-flow.js';
import { ProviderClient } from './provider-client.js';
import { providerSettings, type ConnectorProvider } from './provider.js';
import { TokenVault } from './token-vault.js';

/** How long a person has to finish an authorization at the provider. */
const STATE_TTL_MS = 15 * 60_000;

export interface ConnectorsOptions {
  /** The platform's public URL: redirect URIs are `<publicUrl>/v2/connectors/<id>/callback`. */
  publicUrl: string;
  /** OVERLOOK_* variables: provider URLs and client ids/secrets. */
  env: Readonly<Record<string, string | undefined>>;
  timeoutMs: number;
  vaultKey: Buffer;
}

export interface ConnectionStatus {
  provider: string;
  name: string;
  auth_kind: string;
  connected: boolean;
  account: Record<string, unknown> | null;
  scopes: string[];
  connected_at: string | null;
  expires_at: string | null;
}

interface Entry {
  provider: ConnectorProvider;
  flow: OAuthFlow | null;
  client: ProviderClient;
}

export class ConnectorsService {
  readonly store: ConnectorStore;
  private readonly entries = new Map<string, Entry>();

  constructor(
    db: PlatformDb,
    providers: readonly ConnectorProvider[],
    private readonly opts: ConnectorsOptions,
  ) {
    this.store = new ConnectorStore(db, new TokenVault(opts.vaultKey));
    for (const p of providers) {
      if (this.entries.has(p.id)) throw new Error(`connector ${p.id} registered twice`);
      const settings = providerSettings(p, opts.env);
      const flow = p.authKind === 'oauth' ? new OAuthFlow(p, settings, this.redirectUri(p.id), opts.timeoutMs) : null;
      this.entries.set(p.id, { provider: p, flow, client: new ProviderClient(p, settings, this.store, flow, opts.timeoutMs) });
    }
  }

  redirectUri(providerId: string): string {
    return `${this.opts.publicUrl.replace(/\/+$/, '')}/v2/connectors/${providerId}/callback`;
  }

  providers(): ConnectorProvider[] {
    return [...this.entries.values()].map((e) => e.provider);
  }

  private entry(providerId: string): Entry {
    const e = this.entries.get(providerId);
    if (!e) throw new ApiError('NOT_FOUND', `No connector named ${providerId}`);
    return e;
  }

  client(providerId: string): ProviderClient {
    return this.entry(providerId).client;
  }

  /** OAuth providers: a fresh state (and PKCE verifier) bound to the person; returns where to send them. */
  async startAuthorization(
    providerId: string,
    userId: string,
    opts: { redirectAfter?: string; projectExid?: string },
  ): Promise<{ authorization_url: string; state: string; expires_at: string }> {
    const { provider, flow } = this.entry(providerId);
    if (!flow) throw new ApiError('BAD_REQUEST', `${provider.name} connects with credentials, not OAuth`);
    if (opts.redirectAfter !== undefined && !isLocalPath(opts.redirectAfter)) {
      throw validation('redirect_after', 'must be a path on this site, starting with a single /');
    }
    flow.assertConfigured();
    const state = randomBytes(24).toString('base64url');
    const { url, codeVerifier } = await flow.authorizationUrl(state);
    const expiresAt = new Date(Date.now() + STATE_TTL_MS).toISOString();
    await this.store.saveState({
      state,
      userId,
      provider: providerId,
      codeVerifier,
      projectExid: opts.projectExid ?? null,
      redirectAfter: opts.redirectAfter ?? null,
      expiresAt,
    });
    return { authorization_url: url, state, expires_at: expiresAt };
  }

  /**
   * The provider sent the person back: check the state (single use, unexpired, this provider, and the
   * same person when the browser is signed in), exchange the code, store the tokens sealed.
   */
  async completeAuthorization(
    providerId: string,
    callbackUrl: URL,
    signedInUserId: string | null,
  ): Promise<{ redirectAfter: string | null; projectExid: string | null; status: ConnectionStatus }> {
    const { provider, flow, client } = this.entry(providerId);
    if (!flow) throw new ApiError('NOT_FOUND', `${provider.name} has no OAuth callback`);
    const q = callbackUrl.searchParams;
    const stateParam = q.get('state');
    if (!stateParam || stateParam.length > 200) throw validation('state', 'missing or malformed');
    const state = await this.store.takeState(stateParam, providerId);
    if (!state) throw new ApiError('BAD_REQUEST', 'Unknown or expired authorization state: start connecting again');
    if (signedInUserId && signedInUserId !== state.userId) throw new ApiError('PERMISSION_DENIED', 'This authorization was started by someone else');
    const error = q.get('error');
    if (error)
      throw new ApiError('BAD_REQUEST', `${provider.name} did not authorize the connection: ${error.slice(0, 100)}`, {
        details: { error: error.slice(0, 100) },
      });
    if (!q.get('code')) throw validation('code', 'missing');
    const tokens = await flow.exchange(callbackUrl, stateParam, state.codeVerifier);
    await this.store.saveConnection(state.userId, providerId, {
      authKind: 'oauth',
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      expiresAt: tokens.expiresAt,
      scopes: tokens.scopes,
    });
    if (provider.describeAccount) {
      // Nice to have: a provider that fails to say who we are still leaves a working connection.
      const account = await provider.describeAccount(client, state.userId).catch(() => null);
      if (account) await this.store.updateAccount(state.userId, providerId, account);
    }
    return { redirectAfter: state.redirectAfter, projectExid: state.projectExid, status: await this.status(providerId, state.userId) };
  }

  /** Credentials providers: check them with the provider (describeAccount), then store them sealed. */
  async connectWithCredentials(providerId: string, userId: string, credentials: Record<string, string>): Promise<ConnectionStatus> {
    const { provider, client } = this.entry(providerId);
    if (provider.authKind !== 'credentials') throw new ApiError('BAD_REQUEST', `${provider.name} connects with OAuth`);
    const previous = await this.store.connection(userId, providerId);
    await this.store.saveConnection(userId, providerId, { authKind: 'credentials', credentials });
    try {
      const account = provider.describeAccount ? await provider.describeAccount(client, userId) : {};
      await this.store.updateAccount(userId, providerId, account);
    } catch (err) {
      // Refused credentials never replace working ones.
      if (previous) await this.store.saveConnection(userId, providerId, { ...previous, credentials: previous.credentials });
      else await this.store.deleteConnection(userId, providerId);
      if (err instanceof ApiError && err.code === 'CONNECTOR_AUTH_EXPIRED') throw new ApiError('BAD_REQUEST', `${provider.name} refused these credentials`);
      throw err;
    }
    return this.status(providerId, userId);
  }

  async status(providerId: string, userId: string): Promise<ConnectionStatus> {
    const { provider } = this.entry(providerId);
    const c = await this.store.connection(userId, providerId);
    return {
      provider: provider.id,
      name: provider.name,
      auth_kind: provider.authKind,
      connected: !!c,
      account: c?.account ?? null,
      scopes: c?.scopes ?? [],
      connected_at: c?.createdAt ?? null,
      expires_at: c?.expiresAt ?? null,
    };
  }

  /** Revokes the tokens at the provider when it can (best effort), then forgets them. */
  async disconnect(providerId: string, userId: string): Promise<{ provider: string; connected: false; revoked: boolean }> {
    const { provider, flow } = this.entry(providerId);
    const c = await this.store.connection(userId, providerId);
    if (!c) throw new ApiError('NOT_FOUND', `${provider.name} is not connected`);
    let revoked = false;
    if (flow) {
      // The refresh token first: revoking it ends the whole grant at most providers.
      if (c.refreshToken) revoked = await flow.revoke(c.refreshToken);
      if (c.accessToken) revoked = (await flow.revoke(c.accessToken)) || revoked;
    }
    await this.store.deleteConnection(userId, providerId);
    return { provider: providerId, connected: false, revoked };
  }
}

/** A path on this site (`/app/settings`), never another site (`//evil`, `https://…`, `/\evil`). */
export const isLocalPath = (p: string): boolean => p.length <= 500 && /^\/(?![/\\])[^\s]*$/.test(p);
