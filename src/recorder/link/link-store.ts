// The recorder's side of its platform link, as stored: the link (platform URL, ids, the sealed
// credential, whether the platform revoked it) and the platform's last cloud-frame schedules.
import type { FrameSchedule, PairAnswer } from '../../lib/site-link/protocol.js';
import type { RecorderDb } from '../db/recorder-db.js';
import type { RecorderSecrets } from '../db/sealed-secrets.js';

export interface StoredLink {
  platformUrl: string;
  linkId: string;
  projectExid: string;
  credential: string;
  revokedAt: string | null;
  lastError: string | null;
}

const ROW = 1;

export class LinkStore {
  constructor(
    private readonly db: RecorderDb,
    private readonly secrets: RecorderSecrets,
  ) {}

  async get(): Promise<StoredLink | null> {
    const row = await this.db.kysely.selectFrom('platform_link').selectAll().where('id', '=', ROW).executeTakeFirst();
    if (!row) return null;
    return {
      platformUrl: row.platform_url,
      linkId: row.link_id,
      projectExid: row.project_exid,
      credential: this.secrets.openLinkCredential(row.link_id, row.credential),
      revokedAt: row.revoked_at,
      lastError: row.last_error,
    };
  }

  /** Keeps a new link in place of any earlier one; what was owed to another link is dropped with it. */
  async save(platformUrl: string, answer: PairAnswer): Promise<void> {
    await this.db.kysely.transaction().execute(async (tx) => {
      await tx.deleteFrom('platform_link').execute();
      await tx.deleteFrom('link_schedules').execute();
      await tx
        .insertInto('platform_link')
        .values({
          id: ROW,
          platform_url: platformUrl,
          link_id: answer.link_id,
          project_exid: answer.project_exid,
          credential: this.secrets.sealLinkCredential(answer.link_id, answer.credential),
          revoked_at: null,
          last_error: null,
          created_at: new Date().toISOString(),
        })
        .execute();
    });
  }

  /** Forgets the link and its schedules; returns whether there was one. */
  async remove(): Promise<boolean> {
    const res = await this.db.kysely.deleteFrom('platform_link').executeTakeFirst();
    await this.db.kysely.deleteFrom('link_schedules').execute();
    return Number(res.numDeletedRows) > 0;
  }

  async markRevoked(linkId: string): Promise<void> {
    await this.db.kysely
      .updateTable('platform_link')
      .set({ revoked_at: new Date().toISOString(), last_error: 'the platform revoked this link; link again with a new code' })
      .where('link_id', '=', linkId)
      .execute();
  }

  async setLastError(linkId: string, message: string | null): Promise<void> {
    await this.db.kysely
      .updateTable('platform_link')
      .set({ last_error: message?.slice(0, 500) ?? null })
      .where('link_id', '=', linkId)
      .execute();
  }

  async schedules(): Promise<FrameSchedule[]> {
    const rows = await this.db.kysely.selectFrom('link_schedules').selectAll().orderBy('device_id').execute();
    return rows.map((r) => ({
      device_id: r.device_id,
      camera_exid: r.camera_exid,
      frequency: r.frequency,
      schedule: r.schedule === null ? null : (JSON.parse(r.schedule) as Record<string, string[]>),
      timezone: r.timezone,
    }));
  }

  async replaceSchedules(schedules: FrameSchedule[]): Promise<void> {
    await this.db.kysely.transaction().execute(async (tx) => {
      await tx.deleteFrom('link_schedules').execute();
      for (const s of schedules) {
        await tx
          .insertInto('link_schedules')
          .values({
            device_id: s.device_id,
            camera_exid: s.camera_exid,
            frequency: s.frequency,
            schedule: s.schedule === null ? null : JSON.stringify(s.schedule),
            timezone: s.timezone,
          })
          .onConflict((oc) => oc.column('device_id').doUpdateSet({ frequency: s.frequency }))
          .execute();
      }
    });
  }
}
