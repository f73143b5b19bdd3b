// The snapshots and snapshot_buckets tables: the index of a camera's cloud recordings, one row per stored
// JPEG plus per-15-minute counts kept in the same transactions (snapshot-index.ts: key layout, buckets).
//
// The rows found by exact time are cached (`recordings.index-rows`, docs/architecture.md, Caches): a
// frame's URL names its millisecond, so a player or dashboard asking for it again is answered without
// the database. Only a row found at the very start of the span asked for is kept: no row added later
// can come before it in that span (a second row at the same time is refused), so adding frames changes
// no kept answer, and rows are never updated. Removing rows can: `remove` forgets the camera's
// `camera-snapshots` fact itself, after its transaction, and so do the deletions of a camera and of a
// project, whose rows go by cascade. Forgets reach the other nodes over the invalidation bus; the ttl
// bounds what a node that missed one serves.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Cache, CacheFact, CacheRegistry } from '../../lib/cache/index.js';
import type { PlatformDatabase, PlatformDb } from '../database.js';
import type { SnapshotSource } from './recordings-tables.js';
import { ApiError } from '../../lib/errors.js';
import { BUCKET_MS, bucketOf, checkedIso, type BucketRange, type ListQuery, type NewSnapshot, type SnapshotEntry } from './snapshot-index.js';

const CHUNK = 500;
const MAX_INDEX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** About 0.5 kB each: at most ~5 MB of index rows. */
const CACHED_ROWS = 10_000;
const CACHED_ROW_TTL_MS = 60_000;

/** What forgets a camera's cached index rows: any removal of its frames (retention, deletion). */
const cameraSnapshotsFact = (cameraId: string): CacheFact => ({ kind: 'camera-snapshots', id: cameraId });

export class SnapshotIndex {
  private readonly k: Kysely<PlatformDatabase>;
  /** Index rows by camera id and their exact taken_at (see the top of this file for what may be kept). */
  private readonly rows: Cache<string, SnapshotEntry>;

  constructor(
    db: PlatformDb,
    private readonly caches: CacheRegistry,
  ) {
    this.k = db.kysely;
    this.rows = caches.create('recordings.index-rows', {
      max: CACHED_ROWS,
      ttlMs: CACHED_ROW_TTL_MS,
      facts: (key) => [cameraSnapshotsFact(key.slice(0, key.indexOf('\u0000')))],
    });
  }

  /**
   * Inserts one stored JPEG (and keeps its summary counts) in one transaction. Duplicate (camera, taken_at): throws ApiError CONFLICT.
   * Forgets nothing: a new row changes no cached answer (see the top of this file).
   */
  async add(e: NewSnapshot): Promise<void> {
    const takenAt = checkedIso(e.takenAt);
    try {
      await this.k.transaction().execute(async (trx) => {
        const res = await trx
          .insertInto('snapshots')
          .values({
            camera_id: e.cameraId,
            taken_at: takenAt,
            object_key: e.objectKey,
            size: e.size,
            source: e.source,
            note: e.note ?? null,
            created_by: e.createdBy ?? null,
            created_at: new Date().toISOString(),
          })
          .onConflict((oc) => oc.columns(['camera_id', 'taken_at']).doNothing())
          .executeTakeFirst();
        if (Number(res.numInsertedOrUpdatedRows ?? 0) === 0) {
          throw new ApiError('CONFLICT', `A snapshot at ${takenAt} already exists for this camera`);
        }
        await bump(trx, e.cameraId, bucketOf(e.takenAt.getTime()), 1);
      });
    } catch (err) {
      if (isForeignKeyViolation(err)) throw new ApiError('NOT_FOUND', 'Camera (or creating user) not found');
      throw err;
    }
  }

  /** Oldest-first entries taken before `before`, at most `limit`. */
  async expiredBefore(cameraId: string, before: Date, limit: number): Promise<{ takenAt: string; objectKey: string }[]> {
    const rows = await this.k
      .selectFrom('snapshots')
      .select(['taken_at', 'object_key'])
      .where('camera_id', '=', cameraId)
      .where('taken_at', '<', before.toISOString())
      .orderBy('taken_at', 'asc')
      .limit(Math.max(0, Math.floor(limit)))
      .execute();
    return rows.map((r) => ({ takenAt: r.taken_at, objectKey: r.object_key }));
  }

  /** Removes these entries (and their summary counts) in one transaction, and forgets the camera's cached rows. */
  async remove(cameraId: string, takenAts: readonly string[]): Promise<void> {
    if (takenAts.length === 0) return;
    try {
      await this.removeRows(cameraId, takenAts);
    } finally {
      // Also after a failure: the commit may have happened all the same.
      await this.caches.forget([cameraSnapshotsFact(cameraId)]);
    }
  }

  private async removeRows(cameraId: string, takenAts: readonly string[]): Promise<void> {
    await this.k.transaction().execute(async (trx) => {
      const perBucket = new Map<number, number>();
      for (let i = 0; i < takenAts.length; i += CHUNK) {
        const deleted = await trx
          .deleteFrom('snapshots')
          .where('camera_id', '=', cameraId)
          .where('taken_at', 'in', takenAts.slice(i, i + CHUNK))
          .returning('taken_at')
          .execute();
        for (const { taken_at } of deleted) {
          const b = bucketOf(Date.parse(taken_at));
          perBucket.set(b, (perBucket.get(b) ?? 0) + 1);
        }
      }
      for (const [bucket, n] of perBucket) await bump(trx, cameraId, bucket, -n);
      if (perBucket.size > 0) {
        const buckets = [...perBucket.keys()];
        for (let i = 0; i < buckets.length; i += CHUNK) {
          await trx
            .deleteFrom('snapshot_buckets')
            .where('camera_id', '=', cameraId)
            .where('bucket', 'in', buckets.slice(i, i + CHUNK))
            .where('count', '<=', 0)
            .execute();
        }
      }
    });
  }

  /** Whether a frame of the camera is stored at exactly this millisecond (never cached: it decides a write). */
  async has(cameraId: string, takenAt: Date): Promise<boolean> {
    const row = await this.k
      .selectFrom('snapshots')
      .select('taken_at')
      .where('camera_id', '=', cameraId)
      .where('taken_at', '=', checkedIso(takenAt))
      .executeTakeFirst();
    return row !== undefined;
  }

  async latest(cameraId: string): Promise<SnapshotEntry | null> {
    return this.edge(cameraId, 'desc');
  }

  async oldest(cameraId: string): Promise<SnapshotEntry | null> {
    return this.edge(cameraId, 'asc');
  }

  /** The first entry taken in [fromIso, toIso); one taken at `fromIso` itself from memory once found. */
  async firstIn(cameraId: string, fromIso: string, toIso: string): Promise<SnapshotEntry | null> {
    if (!(fromIso < toIso)) return null; // ISO texts of four-digit years sort in time order
    // Concurrent lookups from the same time share one query; its answer is kept only when it is the
    // row at `fromIso`, which is then the answer for any span starting there. Otherwise (nothing at
    // `fromIso`) a lookup whose own query did not run asks for its own span.
    const own: { entry?: SnapshotEntry | null } = {};
    const exact = await this.rows.load(`${cameraId}\u0000${fromIso}`, async () => {
      own.entry = await this.queryFirstIn(cameraId, fromIso, toIso);
      return own.entry?.takenAt === fromIso ? own.entry : undefined;
    });
    if (exact) return exact;
    return own.entry !== undefined ? own.entry : this.queryFirstIn(cameraId, fromIso, toIso);
  }

  private async queryFirstIn(cameraId: string, fromIso: string, toIso: string): Promise<SnapshotEntry | null> {
    const row = await this.k
      .selectFrom('snapshots')
      .selectAll()
      .where('camera_id', '=', cameraId)
      .where('taken_at', '>=', fromIso)
      .where('taken_at', '<', toIso)
      .orderBy('taken_at', 'asc')
      .limit(1)
      .executeTakeFirst();
    return row ? toEntry(row) : null;
  }

  /** The entry closest in time to `at` on either side (the earlier one on a tie). */
  async nearest(cameraId: string, at: Date): Promise<SnapshotEntry | null> {
    const iso = at.toISOString();
    // One round trip: the last entry at or before `at` and the first after it, each one index probe.
    const before = this.k
      .selectFrom('snapshots')
      .selectAll()
      .where('camera_id', '=', cameraId)
      .where('taken_at', '<=', iso)
      .orderBy('taken_at', 'desc')
      .limit(1);
    const after = this.k.selectFrom('snapshots').selectAll().where('camera_id', '=', cameraId).where('taken_at', '>', iso).orderBy('taken_at', 'asc').limit(1);
    const rows = await this.k
      .selectFrom(before.as('b'))
      .selectAll()
      .unionAll(this.k.selectFrom(after.as('a')).selectAll())
      .execute();
    if (rows.length === 0) return null;
    const t = at.getTime();
    const best = rows.reduce((x, y) => {
      const dx = Math.abs(Date.parse(x.taken_at) - t);
      const dy = Math.abs(Date.parse(y.taken_at) - t);
      return dy < dx || (dy === dx && y.taken_at < x.taken_at) ? y : x;
    });
    return toEntry(best);
  }

  /** One page of entries in time order; `after` is the last taken_at of the previous page. */
  async list(cameraId: string, q: ListQuery): Promise<SnapshotEntry[]> {
    let query = this.k.selectFrom('snapshots').selectAll().where('camera_id', '=', cameraId);
    if (q.from) query = query.where('taken_at', '>=', q.from);
    if (q.to) query = query.where('taken_at', '<=', q.to);
    if (q.after) query = query.where('taken_at', q.order === 'asc' ? '>' : '<', q.after);
    const rows = await query.orderBy('taken_at', q.order).limit(q.limit).execute();
    return rows.map(toEntry);
  }

  /** How many entries were taken in [from, to] (both inclusive; either open): whole buckets from the summary, the edges counted. */
  async count(cameraId: string, from?: Date, to?: Date): Promise<number> {
    const fromMs = from?.getTime() ?? 0;
    const toMs = to?.getTime() ?? Number.MAX_SAFE_INTEGER - BUCKET_MS;
    if (toMs < fromMs) return 0;
    const fullLo = Math.ceil(fromMs / BUCKET_MS);
    const fullHi = Math.floor((toMs + 1) / BUCKET_MS); // exclusive
    if (fullHi <= fullLo) return this.countRows(cameraId, fromMs, toMs + 1);
    let q = this.k
      .selectFrom('snapshot_buckets')
      .select((eb) => eb.fn.sum<number>('count').as('n'))
      .where('camera_id', '=', cameraId);
    if (from) q = q.where('bucket', '>=', fullLo);
    if (to) q = q.where('bucket', '<', fullHi);
    const whole = Number((await q.executeTakeFirst())?.n ?? 0);
    const head = from ? await this.countRows(cameraId, fromMs, fullLo * BUCKET_MS) : 0;
    const tail = to ? await this.countRows(cameraId, fullHi * BUCKET_MS, toMs + 1) : 0;
    return whole + head + tail;
  }

  private async countRows(cameraId: string, fromMs: number, toMsExclusive: number): Promise<number> {
    if (toMsExclusive <= fromMs) return 0;
    const row = await this.k
      .selectFrom('snapshots')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('camera_id', '=', cameraId)
      .where('taken_at', '>=', new Date(fromMs).toISOString())
      .where('taken_at', '<', new Date(Math.min(toMsExclusive, MAX_INDEX_MS + 1)).toISOString())
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The keys of the ranges that hold at least one snapshot (one index probe per range), ascending. */
  async keysWithData(cameraId: string, ranges: readonly BucketRange[]): Promise<number[]> {
    if (ranges.length === 0) return [];
    for (const r of ranges) {
      if (![r.key, r.lo, r.hi].every(Number.isSafeInteger)) throw new Error('bucket ranges must be integers');
    }
    // Literal integers (checked above), so PostgreSQL types the VALUES columns as integers.
    const values = sql.join(ranges.map((r) => sql`(${sql.lit(r.key)}, ${sql.lit(r.lo)}, ${sql.lit(r.hi)})`));
    const { rows } = await sql<{ k: number }>`
      WITH r(k, lo, hi) AS (VALUES ${values})
      SELECT DISTINCT r.k AS k FROM r
      WHERE EXISTS (SELECT 1 FROM snapshot_buckets b WHERE b.camera_id = ${cameraId} AND b.bucket >= r.lo AND b.bucket < r.hi)
      ORDER BY k`.execute(this.k);
    return rows.map((r) => Number(r.k));
  }

  private async edge(cameraId: string, order: 'asc' | 'desc'): Promise<SnapshotEntry | null> {
    const row = await this.k.selectFrom('snapshots').selectAll().where('camera_id', '=', cameraId).orderBy('taken_at', order).limit(1).executeTakeFirst();
    return row ? toEntry(row) : null;
  }
}

async function bump(trx: Transaction<PlatformDatabase>, cameraId: string, bucket: number, by: number): Promise<void> {
  await trx
    .insertInto('snapshot_buckets')
    .values({ camera_id: cameraId, bucket, count: by })
    .onConflict((oc) => oc.columns(['camera_id', 'bucket']).doUpdateSet({ count: sql`snapshot_buckets.count + ${by}` }))
    .execute();
}

function toEntry(r: PlatformDatabase['snapshots']): SnapshotEntry {
  return {
    takenAt: r.taken_at,
    objectKey: r.object_key,
    size: Number(r.size),
    source: r.source as SnapshotSource,
    note: r.note,
    createdBy: r.created_by,
  };
}

function isForeignKeyViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}
