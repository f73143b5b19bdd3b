// The battery_readings table: readings recorded by health checks of battery-powered cameras, listed per camera
// or per project, and summarised per day (computed in SQL on both databases).
import { sql } from 'kysely';
import type { PlatformDb } from '../database.js';
import { validation } from '../../lib/errors.js';
import { pageMeta, pageOffset } from '../../lib/http/pagination.js';
import { newId } from '../../lib/ids.js';
import { parseRfc3339 } from '../../lib/time/read-time.js';

export interface ReadingFilter {
  from?: string;
  to?: string;
  page: number;
  pageSize: number;
}

/** At most one reading a minute per camera, so frequent health checks do not flood the table. */
export async function recordReading(db: PlatformDb, cameraId: string, at: Date, voltage: number, percentage: number | null): Promise<boolean> {
  const since = new Date(at.getTime() - 60_000).toISOString();
  const recent = await db.kysely
    .selectFrom('battery_readings')
    .select('id')
    .where('camera_id', '=', cameraId)
    .where('recorded_at', '>', since)
    .executeTakeFirst();
  if (recent) return false;
  await db.kysely.insertInto('battery_readings').values({ id: newId(), camera_id: cameraId, voltage, percentage, recorded_at: at.toISOString() }).execute();
  return true;
}

function checkRange(from?: string, to?: string): { from?: string; to?: string } {
  const parse = (v: string | undefined, field: string) => {
    if (v === undefined) return undefined;
    const t = parseRfc3339(v);
    if (!t) throw validation(field, 'must be an RFC 3339 date-time, e.g. 2026-05-01T08:00:00Z');
    return t.toISOString();
  };
  const range = { from: parse(from, 'from'), to: parse(to, 'to') };
  if (range.from && range.to && range.from > range.to) throw validation('from', 'must not be after to');
  return range;
}

export async function listReadings(db: PlatformDb, cameraIds: string[], f: ReadingFilter) {
  const { from, to } = checkRange(f.from, f.to);
  if (cameraIds.length === 0) return { meta: pageMeta(f.page, f.pageSize, 0), data: [] };
  let q = db.kysely
    .selectFrom('battery_readings')
    .innerJoin('cameras', 'cameras.id', 'battery_readings.camera_id')
    .where('battery_readings.camera_id', 'in', cameraIds);
  if (from) q = q.where('battery_readings.recorded_at', '>=', from);
  if (to) q = q.where('battery_readings.recorded_at', '<=', to);
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await q
    .select(['cameras.exid as camera_exid', 'battery_readings.voltage', 'battery_readings.percentage', 'battery_readings.recorded_at'])
    .orderBy('battery_readings.recorded_at', 'desc')
    .orderBy('battery_readings.id')
    .limit(f.pageSize)
    .offset(pageOffset(f.page, f.pageSize))
    .execute();
  return { meta: pageMeta(f.page, f.pageSize, Number(total)), data: rows };
}

export async function voltageSummary(db: PlatformDb, cameraId: string, range: { from?: string; to?: string }) {
  const { from, to } = checkRange(range.from, range.to);
  let q = db.kysely.selectFrom('battery_readings').where('camera_id', '=', cameraId);
  if (from) q = q.where('recorded_at', '>=', from);
  if (to) q = q.where('recorded_at', '<=', to);
  // The day is the first ten characters of the ISO timestamp (UTC), on SQLite and PostgreSQL alike.
  const day = sql<string>`substr(recorded_at, 1, 10)`;
  const days = await q
    .select((eb) => [
      day.as('day'),
      eb.fn.min<number>('voltage').as('min_voltage'),
      eb.fn.max<number>('voltage').as('max_voltage'),
      eb.fn.avg<number>('voltage').as('avg_voltage'),
      eb.fn.countAll<number>().as('count'),
    ])
    .groupBy(day)
    .orderBy(day)
    .execute();
  const latest = await q.select(['voltage', 'percentage', 'recorded_at']).orderBy('recorded_at', 'desc').executeTakeFirst();
  const all = await q
    .select((eb) => [
      eb.fn.min<number>('voltage').as('min'),
      eb.fn.max<number>('voltage').as('max'),
      eb.fn.avg<number>('voltage').as('avg'),
      eb.fn.countAll<number>().as('count'),
    ])
    .executeTakeFirstOrThrow();
  const round = (v: unknown) => (v === null || v === undefined ? null : Number(Number(v).toFixed(3)));
  return {
    count: Number(all.count),
    min_voltage: round(all.min),
    max_voltage: round(all.max),
    avg_voltage: round(all.avg),
    latest: latest ?? null,
    days: days.map((d) => ({
      day: d.day,
      min_voltage: round(d.min_voltage)!,
      max_voltage: round(d.max_voltage)!,
      avg_voltage: round(d.avg_voltage)!,
      count: Number(d.count),
    })),
  };
}
