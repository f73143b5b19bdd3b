// The index of a camera's cloud recordings: one row per stored JPEG (the bytes live in the object
// store under `snapshotKey`) plus per-15-minute counts kept in the same transactions. The recorder
// writes through `add`, retention through `expiredBefore`/`remove`; the read endpoints query the rest
// (the SnapshotIndex of snapshot-index-repository.ts; here its key layout, buckets and types).
// Every real time-zone offset is a multiple of 15 minutes, so the counts answer "which local days /
// hours have recordings" exactly, in any zone, without touching the (millions of) snapshot rows.
import type { SnapshotSource } from './recordings-tables.js';
import { ApiError } from '../../lib/errors.js';

export const BUCKET_MS = 15 * 60 * 1000;

export interface SnapshotEntry {
  /** ISO-8601 UTC with milliseconds. */
  takenAt: string;
  objectKey: string;
  size: number;
  source: SnapshotSource;
  note: string | null;
  createdBy: string | null;
}

export interface NewSnapshot {
  cameraId: string;
  takenAt: Date;
  objectKey: string;
  size: number;
  source: SnapshotSource;
  note?: string | null;
  createdBy?: string | null;
}

/** A range of UTC buckets [lo, hi) labelled with the local day or hour it belongs to. */
export interface BucketRange {
  key: number;
  lo: number;
  hi: number;
}

export interface ListQuery {
  /** Inclusive lower bound (ISO text). */
  from?: string;
  /** Inclusive upper bound (ISO text). */
  to?: string;
  order: 'asc' | 'desc';
  /** Continue strictly after (asc) / before (desc) this taken_at. */
  after?: string;
  limit: number;
}

/** The object key of a camera's JPEG: cameras/<camera id>/snapshots/YYYY/MM/DD/HH/MM_SS_mmm.jpg (UTC). */
export function snapshotKey(cameraId: string, takenAt: Date): string {
  const iso = checkedIso(takenAt); // YYYY-MM-DDTHH:MM:SS.mmmZ
  const [y, mo, d, h, mi, s, ms] = [
    iso.slice(0, 4),
    iso.slice(5, 7),
    iso.slice(8, 10),
    iso.slice(11, 13),
    iso.slice(14, 16),
    iso.slice(17, 19),
    iso.slice(20, 23),
  ];
  return `cameras/${cameraId}/snapshots/${y}/${mo}/${d}/${h}/${mi}_${s}_${ms}.jpg`;
}

export const bucketOf = (ms: number) => Math.floor(ms / BUCKET_MS);

/** Four-digit years only: their ISO text sorts in time order, which the index relies on. */
export function checkedIso(d: Date): string {
  const t = d.getTime();
  if (!Number.isFinite(t) || d.getUTCFullYear() < 1970 || d.getUTCFullYear() > 9999) {
    throw new ApiError('VALIDATION_ERROR', `snapshot time out of range: ${String(d)}`);
  }
  return d.toISOString();
}
