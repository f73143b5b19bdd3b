// Developer apps: a person's own OAuth clients (list, create, get, edit, delete). Their metadata is
// validated by oidc-provider itself (redirect URIs, grant and auth-method consistency), so what is
// stored here is exactly what dynamic registration would accept.
import { randomBytes } from 'node:crypto';
import { notFound, validation } from '../../lib/errors.js';
import type { OauthServer } from '../oauth/index.js';
import { DeveloperAppsRepository, type StoredApp } from './developer-apps-repository.js';

export interface AppInput {
  name: string;
  redirect_uris: string[];
  client_uri?: string;
  confidential?: boolean;
}

export interface AppRecord {
  id: string;
  client_id: string;
  name: string;
  redirect_uris: string[];
  client_uri: string | null;
  confidential: boolean;
  token_endpoint_auth_method: string;
  grant_types: string[];
  created_at: string;
  /** Only in the answer to create: the secret of a confidential app, shown this once. */
  client_secret?: string;
}

const toRecord = (a: StoredApp): AppRecord => {
  const m = a.metadata as { client_name?: string; redirect_uris?: string[]; client_uri?: string; token_endpoint_auth_method?: string; grant_types?: string[] };
  return {
    id: a.id,
    client_id: a.id,
    name: m.client_name ?? '',
    redirect_uris: m.redirect_uris ?? [],
    client_uri: m.client_uri ?? null,
    confidential: m.token_endpoint_auth_method !== 'none',
    token_endpoint_auth_method: m.token_endpoint_auth_method ?? 'none',
    grant_types: m.grant_types ?? [],
    created_at: a.createdAt,
  };
};

export class DeveloperAppsService {
  private readonly repo: DeveloperAppsRepository;

  constructor(
    db: ConstructorParameters<typeof DeveloperAppsRepository>[0],
    private readonly oauth: OauthServer,
  ) {
    this.repo = new DeveloperAppsRepository(db);
  }

  list(userId: string): Promise<AppRecord[]> {
    return this.repo.listByOwner(userId).then((apps) => apps.map(toRecord));
  }

  async get(userId: string, id: string): Promise<AppRecord> {
    const app = await this.repo.findOwned(userId, id);
    if (!app) throw notFound('App');
    return toRecord(app);
  }

  async create(userId: string, input: AppInput): Promise<AppRecord> {
    const id = randomBytes(16).toString('base64url');
    const secret = input.confidential ? randomBytes(32).toString('base64url') : undefined;
    const metadata: Record<string, unknown> = {
      client_id: id,
      client_id_issued_at: Math.floor(Date.now() / 1000),
      client_name: input.name,
      redirect_uris: input.redirect_uris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: secret ? 'client_secret_basic' : 'none',
      ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
      ...(input.client_uri ? { client_uri: input.client_uri } : {}),
    };
    await this.validate(metadata);
    const stored = await this.repo.insert(userId, id, metadata);
    return { ...toRecord(stored), ...(secret ? { client_secret: secret } : {}) };
  }

  async edit(userId: string, id: string, changes: Partial<Omit<AppInput, 'confidential'>>): Promise<AppRecord> {
    const app = await this.repo.findOwned(userId, id);
    if (!app) throw notFound('App');
    const metadata = { ...app.metadata };
    if (changes.name !== undefined) metadata.client_name = changes.name;
    if (changes.redirect_uris !== undefined) metadata.redirect_uris = changes.redirect_uris;
    if (changes.client_uri !== undefined) metadata.client_uri = changes.client_uri;
    await this.validate(metadata);
    await this.repo.update(userId, id, metadata);
    return toRecord({ ...app, metadata });
  }

  async delete(userId: string, id: string): Promise<void> {
    if (!(await this.repo.delete(userId, id))) throw notFound('App');
  }

  private async validate(metadata: Record<string, unknown>): Promise<void> {
    try {
      await this.oauth.provider.Client.validate(metadata);
    } catch (err) {
      const e = err as { error?: string; error_description?: string; message?: string };
      const field =
        e.error === 'invalid_redirect_uri' || /redirect_uri/.test(e.error_description ?? '')
          ? 'redirect_uris'
          : /client_uri/.test(e.error_description ?? '')
            ? 'client_uri'
            : 'body';
      if (e.error) throw validation(field, e.error_description ?? e.error);
      throw err;
    }
  }
}
