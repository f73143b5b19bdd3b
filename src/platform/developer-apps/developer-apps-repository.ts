// The OAuth clients people register under /v2/developer/apps: rows of `oauth_records` (model Client,
// the same rows oidc-provider reads) with the person in `owner_id`, kept by the oauth feature's
// repository; this gives them the shape the developer apps speak. A confidential app's secret is stored
// as its digest, as the authorization server checks it (oauth-secrets-at-rest.ts).
import type { PlatformDb } from '../database.js';
import * as clients from '../oauth/index.js';
import { withHashedSecret } from '../oauth/index.js';

export interface StoredApp {
  id: string;
  ownerId: string;
  metadata: Record<string, unknown>;
  createdAt: string;
}

export class DeveloperAppsRepository {
  constructor(private readonly db: PlatformDb) {}

  async listByOwner(ownerId: string): Promise<StoredApp[]> {
    const rows = await clients.clientsOwnedBy(this.db, ownerId);
    return rows.map((r) => ({ id: r.id, ownerId: r.owner_id!, metadata: JSON.parse(r.payload), createdAt: r.created_at }));
  }

  async findOwned(ownerId: string, id: string): Promise<StoredApp | undefined> {
    const r = await clients.clientOwnedBy(this.db, ownerId, id);
    return r ? { id: r.id, ownerId: r.owner_id!, metadata: JSON.parse(r.payload), createdAt: r.created_at } : undefined;
  }

  async insert(ownerId: string, id: string, metadata: Record<string, unknown>): Promise<StoredApp> {
    const createdAt = new Date().toISOString();
    const stored = withHashedSecret(metadata);
    await clients.insertClient(this.db, ownerId, id, JSON.stringify(stored), createdAt);
    return { id, ownerId, metadata: stored, createdAt };
  }

  async update(ownerId: string, id: string, metadata: Record<string, unknown>): Promise<void> {
    await clients.updateClient(this.db, ownerId, id, JSON.stringify(withHashedSecret(metadata)));
  }

  /** Deletes the client and everything issued to it (grants, codes, refresh tokens, sessions' grants). */
  delete(ownerId: string, id: string): Promise<boolean> {
    return clients.deleteClient(this.db, ownerId, id);
  }
}
