// What the recordings read endpoints ask of the cloud recordings: the camera's frames by time (exact,
// nearest, first, last, a page), which local days and hours hold any (in the camera's time zone), the
// JPEG bytes from the object store, and a small cached thumbnail of the latest frame.
import sharp from 'sharp';
import type { Cache, CacheRegistry } from '../../lib/cache/index.js';
import { ApiError, validation } from '../../lib/errors.js';
import { isTimeZone } from '../../lib/time-zone.js';
import type { CamerasService } from '../cameras/index.js';
import type { ObjectStore, StoredObject } from '../storage/index.js';
import { dayRanges, hourRanges } from './local-calendar.js';
import type { SnapshotEntry } from './snapshot-index.js';
import type { SnapshotIndex } from './snapshot-index-repository.js';
import { parseTimestamp, type Instant } from '../../lib/time/read-time.js';
import { daysInMonth, parseCalendarPart } from './timestamps.js';

const THUMBNAIL_WIDTH = 320;
const THUMBNAIL_CACHE = 500;
/** Frames up to this size are kept in memory once read: a frame asked for once is often asked for again (players, dashboards). */
export const HOT_FRAME_MAX_BYTES = 256 * 1024;
/** At most 128 × 256 kB = 32 MB of frames. */
const HOT_FRAMES = 128;
export const MAX_LIST_LIMIT = 1000;

export interface ListRequest {
  from?: string;
  to?: string;
  order: 'asc' | 'desc';
  cursor?: string;
  limit: number;
}

export interface ListPage {
  entries: SnapshotEntry[];
  totalCount: number;
  nextCursor: string | null;
}

const noSnapshot = () => new ApiError('NOT_FOUND', 'No snapshot recorded for this camera at that time');

export class SnapshotReader {
  /** Thumbnails by the object key of the frame they were made from (so a new frame makes a new one). */
  private readonly thumbnails: Cache<string, Buffer>;
  /** Small frames' bytes by object key and size: one read from the store, then none. */
  private readonly frames: Cache<string, Buffer>;

  /** Reads the other services from the platform at call time, so a store swapped in later is used. */
  constructor(
    private readonly deps: { cameras: CamerasService; snapshotIndex: SnapshotIndex; storage: ObjectStore },
    caches: CacheRegistry,
  ) {
    // No facts: an object key names one frame's bytes for good (docs/architecture.md, Caches).
    this.thumbnails = caches.create('recordings.thumbnails', { max: THUMBNAIL_CACHE });
    this.frames = caches.create('recordings.frames', { max: HOT_FRAMES });
  }

  private get index(): SnapshotIndex {
    return this.deps.snapshotIndex;
  }

  private get storage(): ObjectStore {
    return this.deps.storage;
  }

  private async camera(exid: string): Promise<{ id: string; tz: string }> {
    const row = await this.deps.cameras.row(exid);
    return { id: row.id, tz: isTimeZone(row.timezone) ? row.timezone : 'UTC' };
  }

  async latest(exid: string): Promise<SnapshotEntry> {
    return (await this.index.latest((await this.camera(exid)).id)) ?? throwNone('No snapshot recorded for this camera yet');
  }

  async oldest(exid: string): Promise<SnapshotEntry> {
    return (await this.index.oldest((await this.camera(exid)).id)) ?? throwNone('No snapshot recorded for this camera yet');
  }

  /** The first frame within the span the caller named (that millisecond, that second, that minute, that day). */
  async at(exid: string, timestamp: string): Promise<SnapshotEntry> {
    const t: Instant = parseTimestamp('timestamp', timestamp);
    const { id } = await this.camera(exid);
    const found = await this.index.firstIn(id, new Date(t.ms).toISOString(), new Date(t.ms + t.precisionMs).toISOString());
    if (!found) throw noSnapshot();
    return found;
  }

  async nearest(exid: string, timestamp: string): Promise<SnapshotEntry> {
    const t = parseTimestamp('timestamp', timestamp);
    const { id } = await this.camera(exid);
    return (await this.index.nearest(id, new Date(t.ms))) ?? throwNone('No snapshot recorded for this camera yet');
  }

  async list(exid: string, q: ListRequest): Promise<ListPage> {
    const from = q.from === undefined ? undefined : new Date(parseTimestamp('from', q.from).ms);
    // `to` names a span (a second, a day…): everything inside it is included.
    const toInstant = q.to === undefined ? undefined : parseTimestamp('to', q.to);
    const to = toInstant && new Date(Math.min(toInstant.ms + toInstant.precisionMs - 1, Date.UTC(9999, 11, 31, 23, 59, 59, 999)));
    if (from && to && to < from) throw validation('to', 'must not be before from');
    const after = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
    const { id } = await this.camera(exid);
    const [entries, totalCount] = await Promise.all([
      this.index.list(id, { from: from?.toISOString(), to: to?.toISOString(), order: q.order, after, limit: q.limit + 1 }),
      this.index.count(id, from, to),
    ]);
    const more = entries.length > q.limit;
    if (more) entries.pop();
    return { entries, totalCount, nextCursor: more ? encodeCursor(entries[entries.length - 1]!.takenAt) : null };
  }

  async days(exid: string, yearRaw: string, monthRaw: string): Promise<number[]> {
    const year = parseCalendarPart('year', yearRaw, 9999, 1970);
    const month = parseCalendarPart('month', monthRaw, 12);
    const { id, tz } = await this.camera(exid);
    return this.index.keysWithData(id, dayRanges(tz, year, month));
  }

  async hours(exid: string, yearRaw: string, monthRaw: string, dayRaw: string): Promise<number[]> {
    const year = parseCalendarPart('year', yearRaw, 9999, 1970);
    const month = parseCalendarPart('month', monthRaw, 12);
    const day = parseCalendarPart('day', dayRaw, daysInMonth(year, month));
    const { id, tz } = await this.camera(exid);
    return this.index.keysWithData(id, hourRanges(tz, year, month, day));
  }

  /** The frame's JPEG as a stream; 404 when the object is gone (e.g. removed by retention meanwhile). */
  async image(entry: SnapshotEntry): Promise<StoredObject> {
    return (await this.storage.get(entry.objectKey)) ?? throwNone('The snapshot image is no longer stored');
  }

  /**
   * The frame's JPEG: a small one (by the size the index holds) whole, from memory after the first read,
   * with no stat and no stream; a larger one as a stream. Serving a frame still needs its index row
   * (looked up first by every caller), so a frame removed by retention is not served from here.
   */
  async jpeg(entry: SnapshotEntry): Promise<Buffer | StoredObject> {
    return entry.size <= HOT_FRAME_MAX_BYTES ? this.bytes(entry) : this.image(entry);
  }

  async bytes(entry: SnapshotEntry): Promise<Buffer> {
    const read = async () => (await this.storage.getBytes(entry.objectKey)) ?? undefined;
    // The size is in the key: a different frame stored under the same key (which the index refuses) is not mistaken for it.
    const bytes = entry.size <= HOT_FRAME_MAX_BYTES ? await this.frames.load(`${entry.objectKey}\u0000${entry.size}`, read) : await read();
    return bytes ?? throwNone('The snapshot image is no longer stored');
  }

  /** The latest frame, THUMBNAIL_WIDTH pixels wide (never enlarged), made once per frame. */
  async thumbnail(exid: string): Promise<{ entry: SnapshotEntry; jpeg: Buffer }> {
    const entry = await this.latest(exid);
    // Made once however many ask at the same time; a failure is not kept: the next request tries again.
    const made = this.thumbnails.load(entry.objectKey, async () =>
      sharp(await this.bytes(entry))
        .rotate()
        .resize({ width: THUMBNAIL_WIDTH, withoutEnlargement: true })
        .jpeg({ quality: 75, mozjpeg: false })
        .toBuffer(),
    );
    try {
      return { entry, jpeg: await made };
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw new ApiError('NOT_FOUND', 'The latest snapshot could not be read as an image');
    }
  }
}

function throwNone(message: string): never {
  throw new ApiError('NOT_FOUND', message);
}

const encodeCursor = (takenAt: string) => Buffer.from(takenAt).toString('base64url');

function decodeCursor(cursor: string): string {
  const text = /^[A-Za-z0-9_-]{1,64}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : '';
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(text) || Number.isNaN(Date.parse(text))) {
    throw validation('cursor', 'is not a cursor this endpoint returned');
  }
  return text;
}
