// Which remote site (Voyage Control venue) or device (doorbell) feeds which project and camera, read
// through whose connection, with the webhook secret the provider signs its calls with (sealed by the
// connector vault: a copy of the database alone cannot forge a webhook), and the log of delivered event
// ids that refuses replays. Shared by the voyage-control and doorbell connectors.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../../lib/db/index.js';
import { ApiError, validation } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { loadVaultKey, TokenVault } from '../framework/token-vault.js';
import type { PlatformServices } from '../../services.js';

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
    private readonly db: Db,
    private readonly vault: TokenVault,
  ) {}

  /** The vault the framework uses (same key: OVERLOOK_SECRET_KEY or the data dir's key file). */
  static from(platform: PlatformServices): SiteLinks {
    const key = loadVaultKey({ secretKeyBase64: platform.config.connectors.secretKey, dataDir: platform.config.dataDir });
    return new SiteLinks(platform.db, new TokenVault(key));
  }

  /**
   * Links a remote site or device to a project (replacing the same remote's earlier link, or with
   * `onePerProject` every earlier link of the provider in the project) with a fresh webhook secret,
   * returned in clear this once.
   */
  async link(l: { provider: string; projectId: string; cameraId: string | null; userId: string; remoteId: string; remoteName: string | null; onePerProject: boolean }): Promise<{ link: SiteLink; secret: string }> {
    const secret = `whsec_${randomBytes(24).toString('base64url')}`;
    const now = new Date().toISOString();
    const id = newId();
    await this.db.kysely.transaction().execute(async (trx) => {
      let del = trx.deleteFrom('site_connector_links').where('provider', '=', l.provider).where('project_id', '=', l.projectId);
      if (!l.onePerProject) del = del.where('remote_id', '=', l.remoteId);
      await del.execute();
      await trx
        .insertInto('site_connector_links')
        .values({
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
        })
        .execute();
    });
    return { link: (await this.get(id))!.link, secret };
  }

  async get(id: string): Promise<{ link: SiteLink; secret: string } | null> {
    const r = await this.db.kysely.selectFrom('site_connector_links').selectAll().where('id', '=', id).executeTakeFirst();
    return r ? { link: toLink(r), secret: this.vault.decrypt(r.webhook_secret_enc) } : null;
  }

  async ofProject(provider: string, projectId: string): Promise<SiteLink[]> {
    const rows = await this.db.kysely
      .selectFrom('site_connector_links')
      .selectAll()
      .where('provider', '=', provider)
      .where('project_id', '=', projectId)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
    return rows.map(toLink);
  }

  async unlink(provider: string, projectId: string, remoteId: string): Promise<boolean> {
    const r = await this.db.kysely.deleteFrom('site_connector_links').where('provider', '=', provider).where('project_id', '=', projectId).where('remote_id', '=', remoteId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Notes an event id as delivered; false when it was delivered before (a replay). */
  async firstDelivery(linkId: string, eventId: string): Promise<boolean> {
    const now = new Date();
    await this.db.kysely.deleteFrom('site_connector_deliveries').where('received_at', '<', new Date(now.getTime() - DELIVERY_MEMORY_MS).toISOString()).execute();
    const r = await this.db.kysely
      .insertInto('site_connector_deliveries')
      .values({ link_id: linkId, event_id: eventId, received_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['link_id', 'event_id']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** The project a link feeds, for messages and payloads. */
  async project(projectId: string): Promise<{ exid: string; name: string }> {
    return this.db.kysely.selectFrom('projects').select(['exid', 'name']).where('id', '=', projectId).executeTakeFirstOrThrow();
  }

  /** The exid of a linked camera (null when the link has none). */
  async cameraExid(cameraId: string | null): Promise<string | null> {
    if (!cameraId) return null;
    const row = await this.db.kysely.selectFrom('cameras').select('exid').where('id', '=', cameraId).executeTakeFirst();
    return row?.exid ?? null;
  }

  /** A camera of the project, by exid: 404 when unknown, 400 when it belongs to another project. */
  async cameraOfProject(projectId: string, cameraExid: string): Promise<{ id: string; exid: string }> {
    const row = await this.db.kysely.selectFrom('cameras').select(['id', 'exid', 'project_id']).where('exid', '=', cameraExid).executeTakeFirst();
    if (!row) throw new ApiError('NOT_FOUND', 'Camera not found');
    if (row.project_id !== projectId) throw validation('camera_exid', 'is not a camera of this project');
    return { id: row.id, exid: row.exid };
  }

  /** The people told about a project's site events: its admins and owner. */
  async projectAdmins(projectId: string): Promise<string[]> {
    const rows = await this.db.kysely.selectFrom('project_members').select('user_id').where('project_id', '=', projectId).where('role', 'in', ['admin', 'owner']).execute();
    return rows.map((r) => r.user_id);
  }
}

type Row = { id: string; provider: string; project_id: string; camera_id: string | null; user_id: string; remote_id: string; remote_name: string | null; created_at: string; updated_at: string };
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
