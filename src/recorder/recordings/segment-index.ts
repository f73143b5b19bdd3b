// The index of stored segments and runs (continuous recording periods): what the recorder writes as
// segments are finished, and what HLS, footage export, snapshots and the listings read.
import type { Transaction } from 'kysely';
import type { RecorderDb } from '../db/recorder-db.js';
import type { RecorderDatabase, SegmentsTable } from '../db/schema.js';
import { newId } from '../../lib/ids.js';
import { pageMeta, pageOffset } from '../../lib/http/pagination.js';

export type Segment = SegmentsTable;

/** What else happens when a segment is indexed: inside the same transaction, then once it is committed. */
export interface IndexedHook {
  inTransaction(trx: Transaction<RecorderDatabase>, segment: Segment): Promise<void>;
  committed(segment: Segment): void;
}

export class SegmentIndex {
  /** Segments added since the process started (docs/deploy.md, Metrics). */
  written = 0;

  constructor(
    private readonly db: RecorderDb,
    /** The upload queue's rows are written with the segment's, so a crash between the two loses nothing. */
    private readonly indexed?: IndexedHook,
  ) {}

  async openRun(deviceId: string, stream: string, start: Date): Promise<string> {
    const id = newId();
    const at = start.toISOString();
    await this.db.kysely.insertInto('runs').values({ id, device_id: deviceId, stream, start_date: at, end_date: at, active: 1 }).execute();
    return id;
  }

  async closeRun(runId: string): Promise<void> {
    await this.db.kysely.updateTable('runs').set({ active: 0 }).where('id', '=', runId).execute();
  }

  /** Runs still marked active: after a crash, none of them is. */
  async closeAllRuns(): Promise<void> {
    await this.db.kysely.updateTable('runs').set({ active: 0 }).where('active', '=', 1).execute();
  }

  async add(s: Omit<Segment, 'id'>): Promise<Segment> {
    const row = { id: newId(), ...s };
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx.insertInto('segments').values(row).execute();
      // The run spans its segments: its first segment sets the start, every later one moves the end.
      const run = await trx.selectFrom('runs').select(['start_date', 'end_date']).where('id', '=', s.run_id).executeTakeFirst();
      if (run) {
        const first = run.end_date === run.start_date;
        await trx
          .updateTable('runs')
          .set({ start_date: first ? s.start_date : run.start_date, end_date: s.end_date > run.end_date || first ? s.end_date : run.end_date })
          .where('id', '=', s.run_id)
          .execute();
      }
      await this.indexed?.inTransaction(trx, row);
    });
    this.written++;
    this.indexed?.committed(row);
    return row;
  }

  async lastOfRun(runId: string): Promise<Segment | undefined> {
    return this.db.kysely.selectFrom('segments').selectAll().where('run_id', '=', runId).orderBy('end_date', 'desc').limit(1).executeTakeFirst();
  }

  async get(deviceId: string, id: string): Promise<Segment | undefined> {
    return this.db.kysely.selectFrom('segments').selectAll().where('device_id', '=', deviceId).where('id', '=', id).executeTakeFirst();
  }

  async hasPath(path: string): Promise<boolean> {
    return (await this.db.kysely.selectFrom('segments').select('id').where('path', '=', path).executeTakeFirst()) !== undefined;
  }

  /** Segments overlapping [from, to), oldest first. */
  overlapping(deviceId: string, stream: string, from: string, to: string, limit = 10_000): Promise<Segment[]> {
    return this.db.kysely
      .selectFrom('segments')
      .selectAll()
      .where('device_id', '=', deviceId)
      .where('stream', '=', stream)
      .where('end_date', '>', from)
      .where('start_date', '<', to)
      .orderBy('start_date')
      .limit(limit)
      .execute();
  }

  /** The newest `n` segments, oldest first. */
  async latest(deviceId: string, stream: string, n: number): Promise<Segment[]> {
    const rows = await this.db.kysely
      .selectFrom('segments')
      .selectAll()
      .where('device_id', '=', deviceId)
      .where('stream', '=', stream)
      .orderBy('start_date', 'desc')
      .limit(n)
      .execute();
    return rows.reverse();
  }

  async countBefore(deviceId: string, stream: string, start: string): Promise<number> {
    const { n } = await this.db.kysely
      .selectFrom('segments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('device_id', '=', deviceId)
      .where('stream', '=', stream)
      .where('start_date', '<', start)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  runs(deviceId: string, stream: string, range: { from?: string; to?: string }) {
    let q = this.db.kysely
      .selectFrom('runs')
      .select(['id', 'start_date', 'end_date', 'active', 'stream'])
      .where('device_id', '=', deviceId)
      .where('stream', '=', stream);
    if (range.from) q = q.where('end_date', '>=', range.from);
    if (range.to) q = q.where('start_date', '<=', range.to);
    // A run that never stored a segment has nothing to show.
    return q
      .where((eb) => eb('end_date', '>', eb.ref('start_date')))
      .orderBy('start_date')
      .execute();
  }

  async chunks(filter: { deviceId?: string; stream?: string; from?: string; to?: string; page: number; pageSize: number }) {
    let q = this.db.kysely.selectFrom('segments');
    if (filter.deviceId) q = q.where('device_id', '=', filter.deviceId);
    if (filter.stream) q = q.where('stream', '=', filter.stream);
    if (filter.from) q = q.where('end_date', '>', filter.from);
    if (filter.to) q = q.where('start_date', '<', filter.to);
    const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const data = await q.selectAll().orderBy('start_date').orderBy('id').limit(filter.pageSize).offset(pageOffset(filter.page, filter.pageSize)).execute();
    return { meta: pageMeta(filter.page, filter.pageSize, Number(total)), data };
  }

  oldest(limit: number) {
    return this.db.kysely.selectFrom('segments').selectAll().orderBy('start_date').limit(limit).execute();
  }

  async remove(id: string): Promise<void> {
    await this.db.kysely.deleteFrom('segments').where('id', '=', id).execute();
  }
}
