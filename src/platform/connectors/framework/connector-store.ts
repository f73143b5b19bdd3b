// The connectors' rows: connections (secrets sealed by the vault on the way in, opened on the way out),
// OAuth states in progress, uploads made to providers, and events providers pushed. Its rows are read and
// written through connector-repository.ts.
import type { PlatformDb } from '../../database.js';
import { newId } from '../../../lib/ids.js';
import type { AuthKind } from './connectors-tables.js';
import type { TokenVault } from './token-vault.js';
import * as repo from './connector-repository.js';
import { cameraRefsByIds } from '../../cameras/index.js';
import { projectExidsOf } from '../../projects/index.js';
import { emailsOf } from '../../users/index.js';

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
    private readonly db: PlatformDb,
    private readonly vault: TokenVault,
  ) {}

  // ---- connections

  async connection(userId: string, provider: string): Promise<Connection | null> {
    const r = await repo.connectionRow(this.db, userId, provider);
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
    await repo.upsertConnection(this.db, { id: newId(), user_id: userId, provider, created_at: now, ...values }, values);
  }

  /** After a refresh: new tokens only (a provider that sends no new refresh token keeps the old one). */
  async updateTokens(userId: string, provider: string, t: { accessToken: string; refreshToken?: string | null; expiresAt: string | null }): Promise<void> {
    await repo.updateConnection(this.db, userId, provider, {
      access_token_enc: this.vault.encrypt(t.accessToken),
      ...(t.refreshToken ? { refresh_token_enc: this.vault.encrypt(t.refreshToken) } : {}),
      expires_at: t.expiresAt,
      updated_at: new Date().toISOString(),
    });
  }

  async updateAccount(userId: string, provider: string, account: Record<string, unknown>): Promise<void> {
    await repo.updateConnection(this.db, userId, provider, { account: JSON.stringify(account) });
  }

  async deleteConnection(userId: string, provider: string): Promise<boolean> {
    return repo.deleteConnection(this.db, userId, provider);
  }

  /** What `GET /v2/oauth2-tokens/providers` lists. */
  async listConnections(userId: string): Promise<{ provider: string; auth_kind: string; scopes: string[]; created_at: string; expires_at: string | null }[]> {
    const rows = await repo.connectionsOf(this.db, userId);
    return rows.map((r) => ({ ...r, scopes: json<string[]>(r.scopes, []) }));
  }

  // ---- OAuth states

  async saveState(s: OAuthState): Promise<void> {
    await repo.insertOauthState(this.db, {
      state: s.state,
      user_id: s.userId,
      provider: s.provider,
      code_verifier_enc: this.vault.encryptNullable(s.codeVerifier),
      project_exid: s.projectExid,
      redirect_after: s.redirectAfter,
      expires_at: s.expiresAt,
    });
    // Abandoned authorizations: cleared whenever a new one starts.
    await repo.deleteOauthStatesExpiredBefore(this.db, new Date().toISOString());
  }

  /** Takes the state out (single use); null when unknown, of another provider, or expired. */
  async takeState(state: string, provider: string): Promise<OAuthState | null> {
    const r = await repo.oauthState(this.db, state);
    if (!r || r.provider !== provider) return null;
    await repo.deleteOauthState(this.db, state);
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
    await repo.insertUpload(this.db, {
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
    });
    return id;
  }

  /** Uploads of one project to one provider, newest first. */
  async listUploads(
    provider: string,
    projectId: string,
    opts: { limit: number; offset: number; remoteProjectId?: string },
  ): Promise<{ items: Upload[]; total: number }> {
    const { total, rows } = await repo.uploadsOf(this.db, provider, projectId, opts);
    // The project's exid, the cameras' exids and the uploaders' e-mails, each asked once.
    const [projectExids, cameras, emails] = await Promise.all([
      projectExidsOf(
        this.db,
        rows.map((r) => r.project_id),
      ),
      cameraRefsByIds(
        this.db,
        rows.flatMap((r) => (r.camera_id ? [r.camera_id] : [])),
      ),
      emailsOf(
        this.db,
        rows.flatMap((r) => (r.user_id ? [r.user_id] : [])),
      ),
    ]);
    return {
      total,
      items: rows.flatMap((r) => {
        const projectExid = projectExids.get(r.project_id);
        if (projectExid === undefined) return [];
        return [
          {
            id: r.id,
            provider: r.provider,
            project_exid: projectExid,
            camera_exid: (r.camera_id && cameras.get(r.camera_id)?.exid) || null,
            remote_project_id: r.remote_project_id,
            remote_id: r.remote_id,
            name: r.name,
            details: json(r.details, {}),
            uploaded_by: (r.user_id && emails.get(r.user_id)) || null,
            created_at: r.created_at,
          },
        ];
      }),
    };
  }

  // ---- events

  async recordEvent(e: { provider: string; userId?: string | null; projectId?: string | null; payload: Record<string, unknown> }): Promise<ConnectorEvent> {
    const row = {
      id: newId(),
      provider: e.provider,
      user_id: e.userId ?? null,
      project_id: e.projectId ?? null,
      payload: JSON.stringify(e.payload),
      received_at: new Date().toISOString(),
    };
    await repo.insertEvent(this.db, row);
    return { ...row, payload: e.payload };
  }

  async listEvents(provider: string, filter: { projectId?: string; userId?: string; limit: number; offset: number }): Promise<ConnectorEvent[]> {
    const rows = await repo.eventsOf(this.db, provider, filter);
    return rows.map((r) => ({ ...r, payload: json(r.payload, {}) }));
  }
}
