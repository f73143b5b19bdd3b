// The cloud recordings index (the contract the recorder and retention write through): entries and
// their 15-minute summary counts stay in step on add/remove, duplicates conflict, the camera's rows
// go with it, and the local-calendar ranges are right across DST and in a +05:45 zone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ApiError } from '../../../src/lib/errors.js';
import * as migration from '../../../src/platform/db/migrations/20261123_0001_snapshot_index.js';
import { BUCKET_MS, snapshotKey } from '../../../src/platform/recordings/snapshot-index.js';
import type { SnapshotIndex } from '../../../src/platform/recordings/snapshot-index-repository.js';
import { dayRanges, hourRanges } from '../../../src/platform/recordings/local-calendar.js';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

let tp: TestPlatform;
let index: SnapshotIndex;
let cameraId: string;

async function newCamera(): Promise<string> {
  const owner = await tp.person('owner');
  const project = await tp.project(owner);
  const cam = await tp.camera(owner, project.exid);
  return (await servicesOf(tp.app).cameras.row(cam.exid)).id;
}

const entry = (takenAt: Date, id = cameraId) => ({ cameraId: id, takenAt, objectKey: snapshotKey(id, takenAt), size: 1234, source: 'schedule' as const });

async function bucketCounts(id: string): Promise<Record<string, number>> {
  const rows = await tp.t.db.kysely.selectFrom('snapshot_buckets').select(['bucket', 'count']).where('camera_id', '=', id).orderBy('bucket').execute();
  return Object.fromEntries(rows.map((r) => [new Date(Number(r.bucket) * BUCKET_MS).toISOString(), Number(r.count)]));
}

beforeAll(async () => {
  tp = await buildTestPlatform(); // only the frames this file stores
  index = servicesOf(tp.app).snapshotIndex;
  cameraId = await newCamera();
});
afterAll(async () => tp.close());

describe('snapshotKey', () => {
  it('lays frames out by UTC date, hour and time with milliseconds', () => {
    expect(snapshotKey('cam1', new Date('2026-03-08T07:05:09.042Z'))).toBe('cameras/cam1/snapshots/2026/03/08/07/05_09_042.jpg');
  });
});

describe('SnapshotIndex writes', () => {
  it('adds entries, keeps per-15-minute counts, and refuses a duplicate time with CONFLICT', async () => {
    const id = await newCamera();
    const times = ['2026-05-01T10:00:00.000Z', '2026-05-01T10:14:59.999Z', '2026-05-01T10:15:00.000Z', '2026-05-01T11:00:00.500Z'];
    for (const t of times) await index.add({ ...entry(new Date(t), id), note: t.endsWith('500Z') ? 'gate open' : null, createdBy: null });
    expect(await bucketCounts(id)).toEqual({ '2026-05-01T10:00:00.000Z': 2, '2026-05-01T10:15:00.000Z': 1, '2026-05-01T11:00:00.000Z': 1 });

    const dup = await index.add(entry(new Date(times[0]!), id)).catch((e: unknown) => e);
    expect(dup).toBeInstanceOf(ApiError);
    expect((dup as ApiError).code).toBe('CONFLICT');
    expect(await bucketCounts(id)).toEqual({ '2026-05-01T10:00:00.000Z': 2, '2026-05-01T10:15:00.000Z': 1, '2026-05-01T11:00:00.000Z': 1 });

    const latest = await index.latest(id);
    expect(latest).toMatchObject({ takenAt: '2026-05-01T11:00:00.500Z', note: 'gate open', source: 'schedule', size: 1234 });
    expect(latest!.objectKey).toBe(`cameras/${id}/snapshots/2026/05/01/11/00_00_500.jpg`);
    expect((await index.oldest(id))!.takenAt).toBe(times[0]);
  });

  it('refuses an unknown camera with NOT_FOUND and a time outside 1970–9999 with a validation error', async () => {
    const e1 = await index.add(entry(new Date('2026-05-01T10:00:00Z'), 'no-such-camera')).catch((e: unknown) => e);
    expect((e1 as ApiError).code).toBe('NOT_FOUND');
    const e2 = await index.add({ ...entry(new Date('2026-01-01T00:00:00Z')), takenAt: new Date('1969-12-31T23:59:59Z') }).catch((e: unknown) => e);
    expect((e2 as ApiError).code).toBe('VALIDATION_ERROR');
  });

  it('lists expired entries oldest first and removes them with their counts (unknown times ignored)', async () => {
    const id = await newCamera();
    const base = Date.parse('2026-06-01T00:00:00Z');
    for (let i = 0; i < 10; i++) await index.add(entry(new Date(base + i * 10 * 60_000), id)); // every 10 min
    const expired = await index.expiredBefore(id, new Date(base + 45 * 60_000), 3);
    expect(expired.map((e) => e.takenAt)).toEqual(['2026-06-01T00:00:00.000Z', '2026-06-01T00:10:00.000Z', '2026-06-01T00:20:00.000Z']);
    expect(expired[0]!.objectKey).toBe(snapshotKey(id, new Date(base)));
    const all = await index.expiredBefore(id, new Date(base + 45 * 60_000), 100);
    expect(all).toHaveLength(5);

    await index.remove(id, [...all.map((e) => e.takenAt), '2026-06-01T00:01:00.000Z']);
    expect(await index.expiredBefore(id, new Date(base + 45 * 60_000), 100)).toEqual([]);
    // 00:00 and 00:10 gone (bucket row deleted), 00:20 and 00:40 gone from theirs, 00:30 (before 00:45) too.
    expect(await bucketCounts(id)).toEqual({
      '2026-06-01T00:45:00.000Z': 1,
      '2026-06-01T01:00:00.000Z': 2,
      '2026-06-01T01:15:00.000Z': 1,
      '2026-06-01T01:30:00.000Z': 1,
    });
    await index.remove(id, []);
  });

  it('counts entries in a range from the summary plus the edges, exactly', async () => {
    const id = await newCamera();
    const base = Date.parse('2026-07-01T00:00:00Z');
    const times: number[] = [];
    for (let i = 0; i < 200; i++) times.push(base + i * 97_000 + (i % 7) * 13);
    for (const t of times) await index.add(entry(new Date(t), id));
    const brute = (from?: number, to?: number) => times.filter((t) => (from === undefined || t >= from) && (to === undefined || t <= to)).length;
    for (const [from, to] of [
      [undefined, undefined],
      [base + 1_234_567, undefined],
      [undefined, base + 9_876_543],
      [base + 1_234_567, base + 9_876_543],
      [base + 60_000, base + 70_000],
      [base + 900_000, base + 1_800_000 - 1],
    ] as [number | undefined, number | undefined][]) {
      const n = await index.count(id, from === undefined ? undefined : new Date(from), to === undefined ? undefined : new Date(to));
      expect(n, `${from}..${to}`).toBe(brute(from, to));
    }
    expect(await index.count(id, new Date(base + 10), new Date(base))).toBe(0);
  });

  it('finds the nearest entry on either side and pages in both orders', async () => {
    const id = await newCamera();
    for (const t of ['2026-08-01T10:00:00.000Z', '2026-08-01T10:00:10.000Z', '2026-08-01T10:00:30.000Z']) await index.add(entry(new Date(t), id));
    expect((await index.nearest(id, new Date('2026-08-01T10:00:04Z')))!.takenAt).toBe('2026-08-01T10:00:00.000Z');
    expect((await index.nearest(id, new Date('2026-08-01T10:00:06Z')))!.takenAt).toBe('2026-08-01T10:00:10.000Z');
    expect((await index.nearest(id, new Date('2026-08-01T10:00:05Z')))!.takenAt).toBe('2026-08-01T10:00:00.000Z');
    expect((await index.nearest(id, new Date('2030-01-01T00:00:00Z')))!.takenAt).toBe('2026-08-01T10:00:30.000Z');
    expect((await index.nearest(id, new Date('2020-01-01T00:00:00Z')))!.takenAt).toBe('2026-08-01T10:00:00.000Z');
    const page = await index.list(id, { order: 'desc', limit: 2, after: '2026-08-01T10:00:30.000Z' });
    expect(page.map((e) => e.takenAt)).toEqual(['2026-08-01T10:00:10.000Z', '2026-08-01T10:00:00.000Z']);
    expect(await index.nearest(await newCamera(), new Date())).toBeNull();
  });

  it('removes a camera’s entries and counts with the camera', async () => {
    const id = await newCamera();
    await index.add(entry(new Date('2026-09-01T00:00:00Z'), id));
    await tp.t.db.kysely.deleteFrom('cameras').where('id', '=', id).execute();
    const left = await sql<{
      n: number;
    }>`SELECT (SELECT count(*) FROM snapshots WHERE camera_id = ${id}) + (SELECT count(*) FROM snapshot_buckets WHERE camera_id = ${id}) AS n`.execute(
      tp.t.db.kysely,
    );
    expect(Number(left.rows[0]!.n)).toBe(0);
  });

  it('has a migration that goes down and up again', async () => {
    await migration.down(tp.t.db.kysely);
    await expect(tp.t.db.kysely.selectFrom('snapshots').selectAll().execute()).rejects.toThrow();
    await migration.up(tp.t.db.kysely);
    await index.add(entry(new Date('2026-10-01T00:00:00Z')));
    expect((await index.latest(cameraId))!.takenAt).toBe('2026-10-01T00:00:00.000Z');
  });
});

describe('local calendar ranges', () => {
  const B = BUCKET_MS;
  const iso = (b: number) => new Date(b * B).toISOString();
  const spans = (ranges: { key: number; lo: number; hi: number }[], key: number) => ranges.filter((r) => r.key === key).map((r) => `${iso(r.lo)}/${iso(r.hi)}`);

  it('gives a 23-hour and a 25-hour local day on the DST changes (America/New_York)', () => {
    const spring = hourRanges('America/New_York', 2026, 3, 8);
    expect(spring.map((r) => r.key)).not.toContain(2);
    expect(spans(spring, 0)).toEqual(['2026-03-08T05:00:00.000Z/2026-03-08T06:00:00.000Z']);
    expect(spans(spring, 3)).toEqual(['2026-03-08T07:00:00.000Z/2026-03-08T08:00:00.000Z']);
    const fall = hourRanges('America/New_York', 2026, 11, 1);
    expect(spans(fall, 1)).toEqual(['2026-11-01T05:00:00.000Z/2026-11-01T07:00:00.000Z']); // 01:00 happens twice
    expect(spans(fall, 23)).toEqual(['2026-11-02T04:00:00.000Z/2026-11-02T05:00:00.000Z']);
    const march = dayRanges('America/New_York', 2026, 3);
    expect(spans(march, 8)).toEqual(['2026-03-08T05:00:00.000Z/2026-03-09T04:00:00.000Z']);
    expect(spans(march, 1)).toEqual(['2026-03-01T05:00:00.000Z/2026-03-02T05:00:00.000Z']);
    expect(new Set(march.map((r) => r.key)).size).toBe(31);
  });

  it('handles a +05:45 zone (Asia/Kathmandu) to the quarter hour', () => {
    const hours = hourRanges('Asia/Kathmandu', 2026, 11, 23);
    expect(spans(hours, 0)).toEqual(['2026-11-22T18:15:00.000Z/2026-11-22T19:15:00.000Z']);
    expect(spans(dayRanges('Asia/Kathmandu', 2026, 2), 28)).toEqual(['2026-02-27T18:15:00.000Z/2026-02-28T18:15:00.000Z']);
    expect(
      dayRanges('Asia/Kathmandu', 2026, 2)
        .map((r) => r.key)
        .at(-1),
    ).toBe(28);
  });
});
