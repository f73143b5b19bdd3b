// The media_hub_items table: items of a project, the list's filters, and the job queue's state changes
// (claim, finish, fail, requeue). The only file that touches the table; projects', cameras' and people's
// details come from their own repositories.
import type { Kysely } from 'kysely';
import { inTransaction } from '../../lib/db/transaction.js';
import type { PlatformDatabase, PlatformDb } from '../database.js';
import type { MediaHubItemsTable } from './media-hub-tables.js';
import type { ItemRow } from './media-item-record.js';
import type { Kind } from './media-hub-tables.js';
import { cameraRefByExid, cameraRefsByIds } from '../cameras/index.js';
import { projectExidsOf, projectRefById } from '../projects/index.js';
import { emailsOf, profilesOf } from '../users/index.js';

export interface ListFilter {
  kind?: Kind;
  cameraId?: string;
  requesterEmail?: string;
  from?: string;
  to?: string;
  sort: 'created_at_desc' | 'created_at_asc' | 'title_asc' | 'title_desc';
  limit: number;
  offset: number;
}

export class MediaItemsRepository {
  private readonly k: Kysely<PlatformDatabase>;

  constructor(private readonly db: PlatformDb) {
    this.k = db.kysely;
  }

  /** The items with their project's and camera's exids, each owner asked once (an item whose project is gone is left out). */
  private async withExids(rows: MediaHubItemsTable[]): Promise<ItemRow[]> {
    const [projects, cameras] = await Promise.all([
      projectExidsOf(
        this.db,
        rows.map((r) => r.project_id),
      ),
      cameraRefsByIds(
        this.db,
        rows.flatMap((r) => (r.camera_id ? [r.camera_id] : [])),
      ),
    ]);
    return rows.flatMap((r) => {
      const projectExid = projects.get(r.project_id);
      if (projectExid === undefined) return [];
      return [{ ...r, project_exid: projectExid, camera_exid: (r.camera_id && cameras.get(r.camera_id)?.exid) || null }];
    });
  }

  async insert(row: MediaHubItemsTable): Promise<void> {
    await this.k.insertInto('media_hub_items').values(row).execute();
  }

  async get(id: string): Promise<ItemRow | null> {
    const row = await this.k.selectFrom('media_hub_items').selectAll().where('id', '=', id).executeTakeFirst();
    return (row && (await this.withExids([row]))[0]) ?? null;
  }

  async projectOf(id: string): Promise<{ id: string; exid: string } | null> {
    const item = await this.k.selectFrom('media_hub_items').select('project_id').where('id', '=', id).executeTakeFirst();
    return (item && (await projectRefById(this.db, item.project_id))) ?? null;
  }

  async list(projectId: string, f: ListFilter): Promise<{ rows: ItemRow[]; total: number }> {
    let q = this.k.selectFrom('media_hub_items').where('project_id', '=', projectId);
    if (f.kind) q = q.where('kind', '=', f.kind);
    if (f.cameraId) q = q.where('camera_id', '=', f.cameraId);
    if (f.requesterEmail) q = q.where('requester_email', '=', f.requesterEmail.toLowerCase());
    if (f.from) q = q.where('created_at', '>=', f.from);
    if (f.to) q = q.where('created_at', '<=', f.to);
    const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
    const [col, dir] =
      f.sort === 'title_asc'
        ? (['title', 'asc'] as const)
        : f.sort === 'title_desc'
          ? (['title', 'desc'] as const)
          : (['created_at', f.sort === 'created_at_asc' ? 'asc' : 'desc'] as const);
    const rows = await q.selectAll().orderBy(col, dir).orderBy('id', dir).limit(f.limit).offset(f.offset).execute();
    return { rows: await this.withExids(rows), total };
  }

  /** The people who asked for the project's items, with how many each. */
  async requesters(projectId: string): Promise<{ email: string; name: string | null; count: number }[]> {
    const rows = await this.k
      .selectFrom('media_hub_items')
      .select((eb) => ['requester_email as email', 'requester_id', eb.fn.countAll<number>().as('n')])
      .where('project_id', '=', projectId)
      .groupBy(['requester_email', 'requester_id'])
      .orderBy('requester_email')
      .execute();
    const people = await profilesOf(
      this.db,
      rows.flatMap((r) => (r.requester_id ? [r.requester_id] : [])),
    );
    // One entry per e-mail (rows come grouped by it): the items counted, the name the greatest of its people's.
    const byEmail = new Map<string, { email: string; firstname?: string; lastname?: string; count: number }>();
    const greatest = (a: string | undefined, b: string | undefined) => (a === undefined || (b !== undefined && b > a) ? b : a);
    for (const r of rows) {
      const entry = byEmail.get(r.email) ?? { email: r.email, count: 0 };
      const person = r.requester_id ? people.get(r.requester_id) : undefined;
      entry.firstname = greatest(entry.firstname, person?.firstname);
      entry.lastname = greatest(entry.lastname, person?.lastname);
      entry.count += Number(r.n);
      byEmail.set(r.email, entry);
    }
    return [...byEmail.values()].map((r) => ({ email: r.email, name: [r.firstname, r.lastname].filter(Boolean).join(' ') || null, count: r.count }));
  }

  async camera(cameraId: string): Promise<{ id: string; exid: string; timezone: string } | null> {
    const c = (await cameraRefsByIds(this.db, [cameraId])).get(cameraId);
    return c ? { id: c.id, exid: c.exid, timezone: c.timezone } : null;
  }

  async cameraByExid(exid: string): Promise<{ id: string; exid: string; project_id: string } | null> {
    const c = await cameraRefByExid(this.db, exid);
    return c ? { id: c.id, exid: c.exid, project_id: c.project_id } : null;
  }

  async userEmail(userId: string): Promise<string | null> {
    return (await emailsOf(this.db, [userId])).get(userId) ?? null;
  }

  async update(id: string, patch: Partial<MediaHubItemsTable>): Promise<void> {
    await this.k
      .updateTable('media_hub_items')
      .set({ ...patch, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: string): Promise<void> {
    await this.k.deleteFrom('media_hub_items').where('id', '=', id).execute();
  }

  /** Every stored object key of the items matching (for deletion hooks). */
  async objectKeys(where: { projectId?: string; cameraId?: string }): Promise<string[]> {
    let q = this.k.selectFrom('media_hub_items').select(['object_key', 'gif_key', 'thumbnail_key', 'logo_key']);
    if (where.projectId) q = q.where('project_id', '=', where.projectId);
    if (where.cameraId) q = q.where('camera_id', '=', where.cameraId);
    const rows = await q.execute();
    return rows.flatMap((r) => [r.object_key, r.gif_key, r.thumbnail_key, r.logo_key]).filter((k): k is string => !!k);
  }

  // The job queue.

  /** The jobs being rendered (or left so by a stopped node), with the claim each is on. */
  async processing(): Promise<{ id: string; attempts: number }[]> {
    const rows = await this.k.selectFrom('media_hub_items').select(['id', 'attempts']).where('status', '=', 'processing').execute();
    return rows.map((r) => ({ id: r.id, attempts: Number(r.attempts) }));
  }

  /** Puts a job left half-done back in the queue, unless it was claimed again since (`attempts` moved on). */
  async requeue(id: string, attempts: number): Promise<boolean> {
    const r = await this.k
      .updateTable('media_hub_items')
      .set({ status: 'pending', updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('status', '=', 'processing')
      .where('attempts', '=', attempts)
      .executeTakeFirst();
    return Number(r.numUpdatedRows ?? 0) === 1;
  }

  /** How many jobs are pending, counting no further than `cap` (the status index keeps it cheap). */
  async pendingCount(cap: number): Promise<number> {
    const row = await this.k
      .selectFrom((eb) => eb.selectFrom('media_hub_items').select('id').where('status', '=', 'pending').limit(cap).as('queued'))
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The oldest pending job, leaving out `skip`. */
  async nextPending(skip: readonly string[] = []): Promise<string | null> {
    let q = this.k.selectFrom('media_hub_items').select('id').where('status', '=', 'pending');
    if (skip.length > 0) q = q.where('id', 'not in', skip);
    const next = await q.orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
    return next?.id ?? null;
  }

  /** Takes a pending job (a conditional update, so two runners never take the same one); null when it is no longer pending. */
  async claim(id: string): Promise<ItemRow | null> {
    const r = await this.k
      .updateTable('media_hub_items')
      .set((eb) => ({ status: 'processing', error: null, attempts: eb('attempts', '+', 1), updated_at: new Date().toISOString() }))
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(r.numUpdatedRows ?? 0) === 1 ? this.get(id) : null;
  }

  /** Writes a job's result only while it is still the job this runner took (not deleted, not re-queued by an edit). */
  /**
   * Ends a render that is still this attempt's; `then` runs in the same transaction when it did (the
   * outbox records the outcome there).
   */
  async finishIfProcessing(id: string, attempts: number, patch: Partial<MediaHubItemsTable>, then?: (tx: PlatformDb) => Promise<void>): Promise<boolean> {
    return inTransaction(this.db, async (tx) => {
      const r = await tx.kysely
        .updateTable('media_hub_items')
        .set({ ...patch, updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .where('status', '=', 'processing')
        .where('attempts', '=', attempts)
        .executeTakeFirst();
      const done = Number(r.numUpdatedRows ?? 0) === 1;
      if (done && then) await then(tx);
      return done;
    });
  }
}

/** Who asked for a media item (the mail feature tells them when it is ready or failed); undefined when it is gone. */
export const requesterOfMediaItem = (db: PlatformDb, id: string) =>
  db.kysely.selectFrom('media_hub_items').select(['requester_id', 'requester_email']).where('id', '=', id).executeTakeFirst();
