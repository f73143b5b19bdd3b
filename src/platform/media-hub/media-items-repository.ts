// The media_hub_items table: items of a project, the list's filters, and the job queue's state changes
// (claim, finish, fail, requeue). The only file that touches the table.
import type { Kysely } from 'kysely';
import type { Db } from '../../lib/db/index.js';
import type { Database, MediaHubItemsTable } from '../../lib/db/schema.js';
import type { ItemRow, Kind } from './media-item-record.js';

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
  private readonly k: Kysely<Database>;

  constructor(db: Db) {
    this.k = db.kysely;
  }

  private select() {
    return this.k
      .selectFrom('media_hub_items as m')
      .innerJoin('projects as p', 'p.id', 'm.project_id')
      .leftJoin('cameras as c', 'c.id', 'm.camera_id')
      .selectAll('m')
      .select(['p.exid as project_exid', 'c.exid as camera_exid']);
  }

  async insert(row: MediaHubItemsTable): Promise<void> {
    await this.k.insertInto('media_hub_items').values(row).execute();
  }

  async get(id: string): Promise<ItemRow | null> {
    return ((await this.select().where('m.id', '=', id).executeTakeFirst()) as ItemRow | undefined) ?? null;
  }

  async projectOf(id: string): Promise<{ id: string; exid: string } | null> {
    const r = await this.k.selectFrom('media_hub_items as m').innerJoin('projects as p', 'p.id', 'm.project_id').select(['p.id', 'p.exid']).where('m.id', '=', id).executeTakeFirst();
    return r ?? null;
  }

  async list(projectId: string, f: ListFilter): Promise<{ rows: ItemRow[]; total: number }> {
    let q = this.select().where('m.project_id', '=', projectId);
    if (f.kind) q = q.where('m.kind', '=', f.kind);
    if (f.cameraId) q = q.where('m.camera_id', '=', f.cameraId);
    if (f.requesterEmail) q = q.where('m.requester_email', '=', f.requesterEmail.toLowerCase());
    if (f.from) q = q.where('m.created_at', '>=', f.from);
    if (f.to) q = q.where('m.created_at', '<=', f.to);
    const total = Number((await q.clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
    const [col, dir] = f.sort === 'title_asc' ? (['m.title', 'asc'] as const) : f.sort === 'title_desc' ? (['m.title', 'desc'] as const) : (['m.created_at', f.sort === 'created_at_asc' ? 'asc' : 'desc'] as const);
    const rows = await q.orderBy(col, dir).orderBy('m.id', dir).limit(f.limit).offset(f.offset).execute();
    return { rows: rows as ItemRow[], total };
  }

  /** The people who asked for the project's items, with how many each. */
  async requesters(projectId: string): Promise<{ email: string; name: string | null; count: number }[]> {
    const rows = await this.k
      .selectFrom('media_hub_items as m')
      .leftJoin('users as u', 'u.id', 'm.requester_id')
      .select((eb) => ['m.requester_email as email', eb.fn.max('u.firstname').as('firstname'), eb.fn.max('u.lastname').as('lastname'), eb.fn.countAll<number>().as('n')])
      .where('m.project_id', '=', projectId)
      .groupBy('m.requester_email')
      .orderBy('m.requester_email')
      .execute();
    return rows.map((r) => ({ email: r.email, name: [r.firstname, r.lastname].filter(Boolean).join(' ') || null, count: Number(r.n) }));
  }

  async camera(cameraId: string): Promise<{ id: string; exid: string; timezone: string } | null> {
    return (await this.k.selectFrom('cameras').select(['id', 'exid', 'timezone']).where('id', '=', cameraId).executeTakeFirst()) ?? null;
  }

  async cameraByExid(exid: string): Promise<{ id: string; exid: string; project_id: string } | null> {
    return (await this.k.selectFrom('cameras').select(['id', 'exid', 'project_id']).where('exid', '=', exid).executeTakeFirst()) ?? null;
  }

  async userEmail(userId: string): Promise<string | null> {
    return (await this.k.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst())?.email ?? null;
  }

  async update(id: string, patch: Partial<MediaHubItemsTable>): Promise<void> {
    await this.k.updateTable('media_hub_items').set({ ...patch, updated_at: new Date().toISOString() }).where('id', '=', id).execute();
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

  /** Jobs a stopped process left half-done go back to the queue. */
  async requeueProcessing(): Promise<number> {
    const r = await this.k.updateTable('media_hub_items').set({ status: 'pending', updated_at: new Date().toISOString() }).where('status', '=', 'processing').executeTakeFirst();
    return Number(r.numUpdatedRows ?? 0);
  }

  /** Takes the oldest pending job (a conditional update, so two runners never take the same one). */
  async claimNext(): Promise<ItemRow | null> {
    for (let i = 0; i < 5; i++) {
      const next = await this.k.selectFrom('media_hub_items').select('id').where('status', '=', 'pending').orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
      if (!next) return null;
      const r = await this.k
        .updateTable('media_hub_items')
        .set((eb) => ({ status: 'processing', error: null, attempts: eb('attempts', '+', 1), updated_at: new Date().toISOString() }))
        .where('id', '=', next.id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(r.numUpdatedRows ?? 0) === 1) return this.get(next.id);
    }
    return null;
  }

  /** Writes a job's result only while it is still the job this runner took (not deleted, not re-queued by an edit). */
  async finishIfProcessing(id: string, attempts: number, patch: Partial<MediaHubItemsTable>): Promise<boolean> {
    const r = await this.k
      .updateTable('media_hub_items')
      .set({ ...patch, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('status', '=', 'processing')
      .where('attempts', '=', attempts)
      .executeTakeFirst();
    return Number(r.numUpdatedRows ?? 0) === 1;
  }
}
