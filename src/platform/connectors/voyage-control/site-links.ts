// Which remote site (Voyage Control venue) or device (doorbell) feeds which project and camera, read
// through whose connection, with the webhook secret the provider signs its calls with (sealed by the
// connector vault: a copy of the database alone cannot forge a webhook), and the log of delivered event
// ids that refuses replays. Shared by the voyage-control and doorbell connectors.
import { randomBytes } from 'node:crypto';
import type { PlatformDb } from '../../database.js';
import { ApiError, validation } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { TokenVault } from '../framework/token-vault.js';
import type { ConnectorHost } from '../framework/connector-host.js';
import * as repo from './site-links-repository.js';
import { cameraRefByExid, cameraRefsByIds } from '../../cameras/index.js';
import { adminsOf } from '../../members/index.js';
import { projectRowByIdOrThrow } from '../../projects/index.js';

export interface SiteLink {
  id: string;
  provider: string;
  projectId: string;
  cameraId: string | null;
  userId: string;
  remoteId: string;
  remoteName: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Delivered event ids are kept this long: far beyond the signature's five-minute window. */
const DELIVERY_MEMORY_MS = 2 * 86_400_000;

export class SiteLinks {
  constructor(
    private readonly db: PlatformDb,
    private readonly vault: TokenVault,
  ) {}

  /** With the vault key the framework uses (kept in the database, sealed; docs/deploy.md, Secrets). */
  static from(host: Pick<ConnectorHost, 'db' | 'vaultKey'>): SiteLinks {
    return new SiteLinks(host.db, new TokenVault(host.vaultKey));
  }

  /**
   * Links a remote site or device to a project (replacing the same remote's earlier link, or with
   * `onePerProject` every earlier link of the provider in the project) with a fresh webhook secret,
   * returned in clear this once.
   */
  async link(l: {
    provider: string;
    projectId: string;
    cameraId: string | null;
    userId: string;
    remoteId: string;
    remoteName: string | null;
    onePerProject: boolean;
  }): Promise<{ link: SiteLink; secret: string }> {
    const secret = `whsec_${randomBytes(24).toString('base64url')}`;
    const now = new Date().toISOString();
    const id = newId();
    const row = {
      id,
      provider: l.provider,
      project_id: l.projectId,
      camera_id: l.cameraId,
      user_id: l.userId,
      remote_id: l.remoteId,
      remote_name: l.remoteName,
      webhook_secret_enc: this.vault.encrypt(secret),
      created_at: now,
      updated_at: now,
    };
    await repo.replaceLink(this.db, row, l.onePerProject);
    return { link: (await this.get(id))!.link, secret };
  }

  async get(id: string): Promise<{ link: SiteLink; secret: string } | null> {
    const r = await repo.linkById(this.db, id);
    return r ? { link: toLink(r), secret: this.vault.decrypt(r.webhook_secret_enc) } : null;
  }

  async ofProject(provider: string, projectId: string): Promise<SiteLink[]> {
    const rows = await repo.linksOf(this.db, provider, projectId);
    return rows.map(toLink);
  }

  async unlink(provider: string, projectId: string, remoteId: string): Promise<boolean> {
    return repo.deleteLink(this.db, provider, projectId, remoteId);
  }

  /** Notes an event id as delivered; false when it was delivered before (a replay). */
  async firstDelivery(linkId: string, eventId: string): Promise<boolean> {
    const now = new Date();
    await repo.deleteDeliveriesBefore(this.db, new Date(now.getTime() - DELIVERY_MEMORY_MS).toISOString());
    return repo.insertDelivery(this.db, linkId, eventId, now.toISOString());
  }

  /** The project a link feeds, for messages and payloads. */
  async project(projectId: string): Promise<{ exid: string; name: string }> {
    const { exid, name } = await projectRowByIdOrThrow(this.db, projectId);
    return { exid, name };
  }

  /** The exid of a linked camera (null when the link has none). */
  async cameraExid(cameraId: string | null): Promise<string | null> {
    if (!cameraId) return null;
    return (await cameraRefsByIds(this.db, [cameraId])).get(cameraId)?.exid ?? null;
  }

  /** A camera of the project, by exid: 404 when unknown, 400 when it belongs to another project. */
  async cameraOfProject(projectId: string, cameraExid: string): Promise<{ id: string; exid: string }> {
    const row = await cameraRefByExid(this.db, cameraExid);
    if (!row) throw new ApiError('NOT_FOUND', 'Camera not found');
    if (row.project_id !== projectId) throw validation('camera_exid', 'is not a camera of this project');
    return { id: row.id, exid: row.exid };
  }

  /** The people told about a project's site events: its admins and owner. */
  async projectAdmins(projectId: string): Promise<string[]> {
    return adminsOf(this.db, projectId);
  }
}

type Row = {
  id: string;
  provider: string;
  project_id: string;
  camera_id: string | null;
  user_id: string;
  remote_id: string;
  remote_name: string | null;
  created_at: string;
  updated_at: string;
};
const toLink = (r: Row): SiteLink => ({
  id: r.id,
  provider: r.provider,
  projectId: r.project_id,
  cameraId: r.camera_id,
  userId: r.user_id,
  remoteId: r.remote_id,
  remoteName: r.remote_name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
