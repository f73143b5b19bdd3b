// The connectors' rows: connections (secrets sealed by the vault on the way in, opened on the way out),
// OAuth states in progress, uploads made to providers, and events providers pushed. The only file of
// the framework that touches the database.
import type { Db } from '../../../lib/db/index.js';
import { newId } from '../../../lib/ids.js';
import type { AuthKind } from './provider.js';
import type { TokenVault } from './token-vault.js';

export interface Connection {
  id: string;
  userId: string;
  provider: string;
  authKind: AuthKind;
  accessToken: string | null;
  refreshToken: string | null;
  expiresAt: string | null;
  credentials: Record<string, string> | null;
  account: Record<string, unknown>;
  scopes: string[];
  createdAt: string;
  updatedAt: string;
}

export interface NewConnection {
  authKind: AuthKind;
  accessToken?: string | null;
  refreshToken?: string | null;
  expiresAt?: string | null;
  credentials?: Record<string, string> | null;
  account?: Record<string, unknown>;
  scopes?: string[];
}

export interface OAuthState {
  state: string;
  userId: string;
  provider: string;
  codeVerifier: string | null;
  projectExid: string | null;
  redirectAfter: string | null;
  expiresAt: string;
}

export interface Upload {
  id: string;
  provider: string;
  project_exid: string;
  camera_exid: string | null;
  remote_project_id: string;
  remote_id: string;
  name: string;
  details: Record<string, unknown>;
  uploaded_by: string | null;
  created_at: string;
}

export interface ConnectorEvent {
  id: string;
  provider: string;
  user_id: string | null;
  project_id: string | null;
  payload: Record<string, unknown>;
  received_at: string;
}

const json = <T>(text: string | null, fallback: T): T => {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

export class ConnectorStore {
  constructor(
    private readonly db: Db,
    private readonly vault: TokenVault,
  ) {}

  // ---- connections

  async connection(userId: string, provider: string): Promise<Connection | null> {
    const r = await this.db.kysely.selectFrom('connector_connections').selectAll().where('user_id', '=', userId).where('provider', '=', provider).executeTakeFirst();
    if (!r) return null;
    return {
      id: r.id,
      userId: r.user_id,
      provider: r.provider,
      authKind: r.auth_kind as AuthKind,
      accessToken: this.vault.decryptNullable(r.access_token_enc),
      refreshToken: this.vault.decryptNullable(r.refresh_token_enc),
      expiresAt: r.expires_at,
      credentials: r.credentials_enc ? json<Record<string, string>>(this.vault.decrypt(r.credentials_enc), {}) : null,
      account: json(r.account, {}),
      scopes: json(r.scopes, []),
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    };
  }

  /** Creates or replaces the person's connection to the provider (reconnecting keeps `created_at`). */
  async saveConnection(userId: string, provider: string, c: NewConnection): Promise<void> {
    const now = new Date().toISOString();
    const values = {
      auth_kind: c.authKind,
      access_token_enc: this.vault.encryptNullable(c.accessToken),
      refresh_token_enc: this.vault.encryptNullable(c.refreshToken),
      expires_at: c.expiresAt ?? null,
      credentials_enc: c.credentials ? this.vault.encrypt(JSON.stringify(c.credentials)) : null,
      account: JSON.stringify(c.account ?? {}),
      scopes: JSON.stringify(c.scopes ?? []),
      updated_at: now,
    };
    await this.db.kysely
      .insertInto('connector_connections')
      .values({ id: newId(), user_id: userId, provider, created_at: now, ...values })
      .onConflict((oc) => oc.columns(['user_id', 'provider']).doUpdateSet(values))
      .execute();
  }

  /** After a refresh: new tokens only (a provider that sends no new refresh token keeps the old one). */
  async updateTokens(userId: string, provider: string, t: { accessToken: string; refreshToken?: string | null; expiresAt: string | null }): Promise<void> {
    await this.db.kysely
      .updateTable('connector_connections')
      .set({
        access_token_enc: this.vault.encrypt(t.accessToken),
        ...(t.refreshToken ? { refresh_token_enc: this.vault.encrypt(t.refreshToken) } : {}),
        expires_at: t.expiresAt,
        updated_at: new Date().toISOString(),
      })
      .where('user_id', '=', userId)
      .where('provider', '=', provider)
      .execute();
  }

  async updateAccount(userId: string, provider: string, account: Record<string, unknown>): Promise<void> {
    await this.db.kysely.updateTable('connector_connections').set({ account: JSON.stringify(account) }).where('user_id', '=', userId).where('provider', '=', provider).execute();
  }

  async deleteConnection(userId: string, provider: string): Promise<boolean> {
    const r = await this.db.kysely.deleteFrom('connector_connections').where('user_id', '=', userId).where('provider', '=', provider).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** What `GET /v2/oauth2-tokens/providers` lists. */
  async listConnections(userId: string): Promise<{ provider: string; auth_kind: string; scopes: string[]; created_at: string; expires_at: string | null }[]> {
    const rows = await this.db.kysely
      .selectFrom('connector_connections')
      .select(['provider', 'auth_kind', 'scopes', 'created_at', 'expires_at'])
      .where('user_id', '=', userId)
      .orderBy('provider')
      .execute();
    return rows.map((r) => ({ ...r, scopes: json<string[]>(r.scopes, []) }));
  }

  // ---- OAuth states

  async saveState(s: OAuthState): Promise<void> {
    await this.db.kysely
      .insertInto('connector_oauth_states')
      .values({
        state: s.state,
        user_id: s.userId,
        provider: s.provider,
        code_verifier_enc: this.vault.encryptNullable(s.codeVerifier),
        project_exid: s.projectExid,
        redirect_after: s.redirectAfter,
        expires_at: s.expiresAt,
      })
      .execute();
    // Abandoned authorizations: cleared whenever a new one starts.
    await this.db.kysely.deleteFrom('connector_oauth_states').where('expires_at', '<', new Date().toISOString()).execute();
  }

  /** Takes the state out (single use); null when unknown, of another provider, or expired. */
  async takeState(state: string, provider: string): Promise<OAuthState | null> {
    const r = await this.db.kysely.selectFrom('connector_oauth_states').selectAll().where('state', '=', state).executeTakeFirst();
    if (!r || r.provider !== provider) return null;
    await this.db.kysely.deleteFrom('connector_oauth_states').where('state', '=', state).execute();
    if (r.expires_at < new Date().toISOString()) return null;
    return {
      state: r.state,
      userId: r.user_id,
      provider: r.provider,
      codeVerifier: this.vault.decryptNullable(r.code_verifier_enc),
      projectExid: r.project_exid,
      redirectAfter: r.redirect_after,
      expiresAt: r.expires_at,
    };
  }

  // ---- uploads

  async recordUpload(u: {
    provider: string;
    userId: string;
    projectId: string;
    cameraId?: string | null;
    remoteProjectId: string;
    remoteId: string;
    name: string;
    details?: Record<string, unknown>;
  }): Promise<string> {
    const id = newId();
    await this.db.kysely
      .insertInto('connector_uploads')
      .values({
        id,
        user_id: u.userId,
        provider: u.provider,
        project_id: u.projectId,
        camera_id: u.cameraId ?? null,
        remote_project_id: u.remoteProjectId,
        remote_id: u.remoteId,
        name: u.name,
        details: JSON.stringify(u.details ?? {}),
        created_at: new Date().toISOString(),
      })
      .execute();
    return id;
  }

  /** Uploads of one project to one provider, newest first. */
  async listUploads(provider: string, projectId: string, opts: { limit: number; offset: number; remoteProjectId?: string }): Promise<{ items: Upload[]; total: number }> {
    let q = this.db.kysely
      .selectFrom('connector_uploads as u')
      .innerJoin('projects as p', 'p.id', 'u.project_id')
      .leftJoin('cameras as c', 'c.id', 'u.camera_id')
      .leftJoin('users as us', 'us.id', 'u.user_id')
      .where('u.provider', '=', provider)
      .where('u.project_id', '=', projectId);
    if (opts.remoteProjectId) q = q.where('u.remote_project_id', '=', opts.remoteProjectId);
    const { n } = await q.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
    const rows = await q
      .select(['u.id', 'u.provider', 'p.exid as project_exid', 'c.exid as camera_exid', 'u.remote_project_id', 'u.remote_id', 'u.name', 'u.details', 'us.email', 'u.created_at'])
      .orderBy('u.created_at', 'desc')
      .orderBy('u.id', 'desc')
      .limit(opts.limit)
      .offset(opts.offset)
      .execute();
    return {
      total: Number(n),
      items: rows.map((r) => ({
        id: r.id,
        provider: r.provider,
        project_exid: r.project_exid,
        camera_exid: r.camera_exid ?? null,
        remote_project_id: r.remote_project_id,
        remote_id: r.remote_id,
        name: r.name,
        details: json(r.details, {}),
        uploaded_by: r.email ?? null,
        created_at: r.created_at,
      })),
    };
  }

  // ---- events

  async recordEvent(e: { provider: string; userId?: string | null; projectId?: string | null; payload: Record<string, unknown> }): Promise<ConnectorEvent> {
    const row = { id: newId(), provider: e.provider, user_id: e.userId ?? null, project_id: e.projectId ?? null, payload: JSON.stringify(e.payload), received_at: new Date().toISOString() };
    await this.db.kysely.insertInto('connector_events').values(row).execute();
    return { ...row, payload: e.payload };
  }

  async listEvents(provider: string, filter: { projectId?: string; userId?: string; limit: number; offset: number }): Promise<ConnectorEvent[]> {
    let q = this.db.kysely.selectFrom('connector_events').selectAll().where('provider', '=', provider);
    if (filter.projectId) q = q.where('project_id', '=', filter.projectId);
    if (filter.userId) q = q.where('user_id', '=', filter.userId);
    const rows = await q.orderBy('received_at', 'desc').orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute();
    return rows.map((r) => ({ ...r, payload: json(r.payload, {}) }));
  }
}
