// The picture checks' queries (picture-checks-tables.ts): the camera's memory and thresholds, check
// states, and the activity scores with their quarter-hour sums, kept in one transaction per frame.
import { sql } from 'kysely';
import type { PlatformDb } from '../database.js';
import type { CameraMemory, CheckChange, Picture } from './frame-analysis.js';

export const QUARTER_MS = 15 * 60_000;

interface StoredPicture {
  gray: string;
  p05: number;
  p50: number;
  p95: number;
}

const encode = (p: Picture | null): string | null =>
  p ? JSON.stringify({ gray: Buffer.from(p.gray).toString('base64'), p05: p.p05, p50: p.p50, p95: p.p95 } satisfies StoredPicture) : null;

function decode(text: string | null): Picture | null {
  if (!text) return null;
  const s = JSON.parse(text) as StoredPicture;
  return { gray: new Uint8Array(Buffer.from(s.gray, 'base64')), p05: s.p05, p50: s.p50, p95: s.p95 };
}

/** The camera's memory and stored thresholds (null: no frame analysed and no threshold set yet). */
export async function memoryOf(db: PlatformDb, cameraId: string): Promise<{ memory: CameraMemory; thresholds: string | null } | null> {
  const row = await db.kysely.selectFrom('picture_cameras').selectAll().where('camera_id', '=', cameraId).executeTakeFirst();
  if (!row) return null;
  const states = await statesOf(db, cameraId);
  return {
    thresholds: row.thresholds,
    memory: {
      reference: decode(row.reference),
      referenceAt: row.reference_at,
      previous: decode(row.previous),
      previousAt: row.previous_at,
      detailLevel: row.detail_level,
      unchangedRun: row.unchanged_run,
      unchangedSince: row.unchanged_since,
      checks: Object.fromEntries(states.map((s) => [s.check_name, { state: s.state, since: s.since }])),
    },
  };
}

export const statesOf = (db: PlatformDb, cameraId: string) =>
  db.kysely.selectFrom('picture_check_states').select(['check_name', 'state', 'since']).where('camera_id', '=', cameraId).execute();

interface FrameResult {
  cameraId: string;
  takenAt: string;
  memory: CameraMemory;
  changes: readonly CheckChange[];
  activity: number | null;
}

/** Stores what one frame's analysis produced; `tx` is the transaction that makes it all or nothing. */
export async function saveFrame(tx: PlatformDb, r: FrameResult): Promise<void> {
  const now = new Date().toISOString();
  const trx = tx.kysely;
  // The reference is written only when this frame set it, so a reset made meanwhile is never undone.
  const setsReference = r.memory.referenceAt === r.takenAt;
  const memory = {
    ...(setsReference ? { reference: encode(r.memory.reference), reference_at: r.memory.referenceAt } : {}),
    previous: encode(r.memory.previous),
    previous_at: r.memory.previousAt,
    detail_level: r.memory.detailLevel,
    unchanged_run: r.memory.unchangedRun,
    unchanged_since: r.memory.unchangedSince,
    updated_at: now,
  };
  await trx
    .insertInto('picture_cameras')
    .values({ camera_id: r.cameraId, thresholds: null, reference: encode(r.memory.reference), reference_at: r.memory.referenceAt, ...memory })
    .onConflict((oc) => oc.column('camera_id').doUpdateSet(memory))
    .execute();
  for (const c of r.changes) {
    await trx
      .insertInto('picture_check_states')
      .values({ camera_id: r.cameraId, check_name: c.check, state: c.state, since: c.since })
      .onConflict((oc) => oc.columns(['camera_id', 'check_name']).doUpdateSet({ state: c.state, since: c.since }))
      .execute();
  }
  if (r.activity === null) return;
  const inserted = await trx
    .insertInto('picture_frame_activity')
    .values({ camera_id: r.cameraId, taken_at: r.takenAt, score: r.activity })
    .onConflict((oc) => oc.columns(['camera_id', 'taken_at']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return;
  const score = r.activity;
  await trx
    .insertInto('picture_activity_quarters')
    .values({ camera_id: r.cameraId, bucket: Math.floor(Date.parse(r.takenAt) / QUARTER_MS), score, frames: 1, peak_at: r.takenAt, peak_score: score })
    .onConflict((oc) =>
      oc.columns(['camera_id', 'bucket']).doUpdateSet({
        score: sql`picture_activity_quarters.score + ${score}`,
        frames: sql`picture_activity_quarters.frames + 1`,
        peak_at: sql`case when ${score} > picture_activity_quarters.peak_score then ${r.takenAt} else picture_activity_quarters.peak_at end`,
        peak_score: sql`case when ${score} > picture_activity_quarters.peak_score then ${score} else picture_activity_quarters.peak_score end`,
      }),
    )
    .execute();
}

/** Replaces the camera's memory after a reference reset, and the moved check's state (`tx`: a transaction). */
export async function saveReset(tx: PlatformDb, cameraId: string, memory: CameraMemory): Promise<void> {
  const trx = tx.kysely;
  await trx
    .updateTable('picture_cameras')
    .set({ reference: encode(memory.reference), reference_at: memory.referenceAt, updated_at: new Date().toISOString() })
    .where('camera_id', '=', cameraId)
    .execute();
  const moved = memory.checks.moved;
  if (moved) {
    await trx
      .updateTable('picture_check_states')
      .set({ state: moved.state, since: moved.since })
      .where('camera_id', '=', cameraId)
      .where('check_name', '=', 'moved')
      .execute();
  }
}

/** Stores the camera's changed thresholds (JSON of the fields that differ from the defaults, or null). */
export async function saveThresholds(db: PlatformDb, cameraId: string, thresholds: string | null): Promise<void> {
  const now = new Date().toISOString();
  await db.kysely
    .insertInto('picture_cameras')
    .values({
      camera_id: cameraId,
      thresholds,
      reference: null,
      reference_at: null,
      previous: null,
      previous_at: null,
      detail_level: null,
      unchanged_run: 0,
      unchanged_since: null,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('camera_id').doUpdateSet({ thresholds, updated_at: now }))
    .execute();
}

export const thresholdsOfCamera = async (db: PlatformDb, cameraId: string): Promise<string | null> =>
  (await db.kysely.selectFrom('picture_cameras').select('thresholds').where('camera_id', '=', cameraId).executeTakeFirst())?.thresholds ?? null;

/** The quarter hours [fromBucket, toBucket) of these cameras that have activity, in time order. */
export async function quartersOf(db: PlatformDb, cameraIds: readonly string[], fromBucket: number, toBucket: number) {
  if (cameraIds.length === 0) return [];
  return db.kysely
    .selectFrom('picture_activity_quarters')
    .select(['camera_id', 'bucket', 'score', 'frames', 'peak_at', 'peak_score'])
    .where('camera_id', 'in', [...cameraIds])
    .where('bucket', '>=', fromBucket)
    .where('bucket', '<', toBucket)
    .orderBy('bucket')
    .orderBy('camera_id')
    .execute();
}

/** The busiest quarter hours of these cameras in [fromBucket, toBucket): highest score first. */
export async function busiestOf(db: PlatformDb, cameraIds: readonly string[], fromBucket: number, toBucket: number, limit: number) {
  if (cameraIds.length === 0) return [];
  return db.kysely
    .selectFrom('picture_activity_quarters')
    .select(['camera_id', 'bucket', 'score', 'frames', 'peak_at', 'peak_score'])
    .where('camera_id', 'in', [...cameraIds])
    .where('bucket', '>=', fromBucket)
    .where('bucket', '<', toBucket)
    .orderBy('score', 'desc')
    .orderBy('bucket')
    .limit(limit)
    .execute();
}

/** Removes the activity of a camera's frames taken before `cutoff`, and the quarter hours that ended by then (retention). */
export async function deleteActivityBefore(db: PlatformDb, cameraId: string, cutoff: Date): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('picture_frame_activity').where('camera_id', '=', cameraId).where('taken_at', '<', cutoff.toISOString()).execute();
    await trx
      .deleteFrom('picture_activity_quarters')
      .where('camera_id', '=', cameraId)
      .where('bucket', '<', Math.floor(cutoff.getTime() / QUARTER_MS))
      .execute();
  });
}
