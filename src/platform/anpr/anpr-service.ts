// ANPR events of cameras (docs/cameras.md): pushed by cameras and recorders with an ingestion token, read by
// people and keys with camera:recordings. Plates are compared in their normalised form; plate images
// are checked JPEGs in the object store under cameras/<camera id>/anpr/<event id>.jpg.
import type { PlatformConfig } from '../../lib/config.js';
import type { PlatformDb } from '../database.js';
import { inTransaction } from '../../lib/db/transaction.js';
import type { Outbox } from '../outbox/index.js';
import { ApiError, validation } from '../../lib/errors.js';
import { pageMeta, pageOffset } from '../../lib/http/pagination.js';
import { newId } from '../../lib/ids.js';
import type { CamerasService } from '../cameras/index.js';
import type { ObjectStore } from '../storage/index.js';
import { toEventRecord, type AnprEventRecord } from './anpr-record.js';
import type { Direction } from './anpr-tables.js';
import * as repo from './anpr-repository.js';
import { checkPlateJpeg, decodePlateImage } from './plate-image.js';
import { normalisePlate, plateFilter, plateOrFail } from './plate.js';
import { instantOrFail, rangeOrFail } from '../../lib/time/read-time.js';

/** The JSON body a camera or recorder posts (see docs/cameras.md, "ANPR"). */
export interface IngestInput {
  plate_number?: string;
  plate?: string;
  capture_time?: string | number;
  captured_at?: string | number;
  direction?: Direction;
  confidence?: number;
  bounding_box?: number[];
  bounding_box_units?: 'pixels' | 'normalized';
  plate_image?: string;
  metadata?: Record<string, unknown>;
  [vendorField: string]: unknown;
}

/** Fields of the body that are not vendor extras (everything else is kept in metadata). */
const KNOWN = new Set([
  'plate_number',
  'plate',
  'capture_time',
  'captured_at',
  'direction',
  'confidence',
  'bounding_box',
  'bounding_box_units',
  'plate_image',
  'metadata',
]);
/** Metadata is a small record of facts, not a document: deeper nesting is refused (and never recursed into). */
const MAX_METADATA_DEPTH = 8;

function tooDeep(value: unknown, depth = 0): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (depth >= MAX_METADATA_DEPTH) return true;
  return Object.values(value as Record<string, unknown>).some((v) => tooDeep(v, depth + 1));
}

/** Capture times further ahead than this are a camera clock gone wrong, not an event. */
const FUTURE_SLACK_MS = 24 * 3_600_000;

export interface ListQuery {
  plate?: string;
  direction?: Direction;
  from?: string;
  to?: string;
  min_confidence?: number;
  page?: number;
  limit?: number;
  sort?: 'asc' | 'desc';
}

export interface PlatesQuery extends Omit<ListQuery, 'sort'> {
  sort?: repo.PlateSort;
}

const imageKey = (cameraId: string, eventId: string) => `cameras/${cameraId}/anpr/${eventId}.jpg`;

function one<T>(a: T | undefined, b: T | undefined, names: [string, string]): T | undefined {
  if (a !== undefined && b !== undefined) throw validation(names[1], `send either ${names[0]} or ${names[1]}, not both`);
  return a ?? b;
}

function captureTime(value: string | number | undefined, now: number): string {
  if (value === undefined) return new Date(now).toISOString();
  let at: string;
  if (typeof value === 'number') {
    // Epoch milliseconds (what Axis-style pushes send).
    if (!Number.isInteger(value) || value < 0 || value > 8.64e15) throw validation('captured_at', 'must be an ISO 8601 date-time or epoch milliseconds');
    at = new Date(value).toISOString();
  } else {
    at = instantOrFail(value, 'captured_at');
  }
  if (Date.parse(at) > now + FUTURE_SLACK_MS) throw validation('captured_at', 'is more than a day in the future (check the camera clock)');
  return at;
}

function boundingBox(box: number[] | undefined, units: 'pixels' | 'normalized' | undefined) {
  if (box === undefined) {
    if (units !== undefined) throw validation('bounding_box_units', 'is given without a bounding_box');
    return { bbox: null, bbox_units: null };
  }
  if (box.length !== 4) throw validation('bounding_box', 'must be [x1, y1, x2, y2]');
  const [x1, y1, x2, y2] = box as [number, number, number, number];
  const u = units ?? 'pixels';
  if (box.some((v) => !Number.isFinite(v) || v < 0)) throw validation('bounding_box', 'values must be non-negative numbers');
  if (u === 'normalized' && box.some((v) => v > 1)) throw validation('bounding_box', 'normalized values must be between 0 and 1');
  if (x2 <= x1 || y2 <= y1) throw validation('bounding_box', 'must be [x1, y1, x2, y2] with x2 > x1 and y2 > y1');
  return { bbox: JSON.stringify(box), bbox_units: u };
}

export class AnprService {
  constructor(
    private readonly db: PlatformDb,
    private readonly config: Pick<PlatformConfig, 'anprImageMaxBytes' | 'anprMetadataMaxBytes'>,
    /** `outbox`: `anpr.plate_read` and `anpr.watchlist_match` are recorded with the event (docs/notifications.md). */
    private readonly deps: { storage: ObjectStore; cameras: CamerasService; outbox: Pick<Outbox, 'record'> },
  ) {}

  private get storage(): ObjectStore {
    return this.deps.storage;
  }

  private get cameras(): CamerasService {
    return this.deps.cameras;
  }

  /**
   * Stores one plate read. With `id` (a caller's own stable id for the read, e.g. the site link's), the
   * read is stored once: sent again, the stored event is answered and nothing is written. `image` is the
   * plate JPEG as bytes (the site link's plate crop), checked as a `plate_image` is.
   */
  async ingest(cameraExid: string, tokenId: string | null, input: IngestInput, opts: { id?: string; image?: Buffer } = {}): Promise<AnprEventRecord> {
    const camera = await this.cameras.row(cameraExid);
    if (opts.id) {
      const stored = await repo.eventById(this.db, camera.id, opts.id);
      if (stored) return toEventRecord(stored, camera.exid);
    }
    const now = Date.now();
    const raw = one(input.plate_number, input.plate, ['plate_number', 'plate']);
    if (raw === undefined) throw validation('plate_number', 'is required');
    const plate = plateOrFail(raw, 'plate_number');
    const captured_at = captureTime(one(input.capture_time, input.captured_at, ['capture_time', 'captured_at']), now);
    const box = boundingBox(input.bounding_box, input.bounding_box_units);

    // Vendor extras (list_type, vehicle_type, colours, country…) join the metadata object.
    const merged = { ...Object.fromEntries(Object.entries(input).filter(([k]) => !KNOWN.has(k))), ...(input.metadata ?? {}) };
    if (tooDeep(merged, -1)) throw validation('metadata', `must not nest deeper than ${MAX_METADATA_DEPTH} levels`);
    const metadata = JSON.stringify(merged);
    if (Buffer.byteLength(metadata) > this.config.anprMetadataMaxBytes) {
      throw new ApiError('PAYLOAD_TOO_LARGE', `metadata: at most ${this.config.anprMetadataMaxBytes} bytes of JSON (OVERLOOK_ANPR_METADATA_MAX_BYTES)`);
    }

    const id = opts.id ?? newId();
    if (opts.image && input.plate_image !== undefined) throw validation('plate_image', 'send the plate image once');
    const max = this.config.anprImageMaxBytes;
    const jpeg = opts.image ? await checkPlateJpeg(opts.image, max) : input.plate_image === undefined ? null : await decodePlateImage(input.plate_image, max);
    const key = jpeg ? imageKey(camera.id, id) : null;
    const row = {
      id,
      camera_id: camera.id,
      plate,
      plate_raw: raw.trim().slice(0, 64),
      captured_at,
      direction: input.direction ?? 'unknown',
      confidence: input.confidence ?? null,
      ...box,
      image_key: key,
      metadata,
      token_id: tokenId,
      created_at: new Date(now).toISOString(),
    };
    // The image first: a row never points at a missing object; a failed insert removes the image again.
    if (jpeg && key) await this.storage.put(key, jpeg, 'image/jpeg');
    const record = toEventRecord(row, camera.exid);
    try {
      await inTransaction(this.db, async (tx) => {
        await repo.insertEvent(tx, row);
        const data = {
          event_id: id,
          camera_exid: camera.exid,
          plate,
          captured_at,
          direction: record.direction,
          confidence: record.confidence,
          has_plate_image: record.has_plate_image,
        };
        const where = { projectExid: camera.project_exid, cameraExid: camera.exid };
        await this.deps.outbox.record(tx, { type: 'anpr.plate_read', ...where, data });
        const label = (await repo.watchlistLabels(tx, camera.project_id, [plate])).get(plate);
        if (label !== undefined) await this.deps.outbox.record(tx, { type: 'anpr.watchlist_match', ...where, data: { ...data, watchlist_label: label } });
      });
    } catch (err) {
      // The same read stored meanwhile by a concurrent send: that one stands, with its image (the same key).
      const stored = opts.id ? await repo.eventById(this.db, camera.id, opts.id) : undefined;
      if (stored) return toEventRecord(stored, camera.exid);
      if (key) await this.storage.delete([key]).catch(() => {});
      throw err;
    }
    return record;
  }

  private filter(q: Omit<ListQuery, 'sort'>): repo.EventFilter {
    const { from, to } = rangeOrFail(q.from, q.to);
    return { plate: plateFilter(q.plate), direction: q.direction, from, to, minConfidence: q.min_confidence };
  }

  private static page(q: { page?: number; limit?: number }) {
    const page = q.page ?? 1;
    const limit = q.limit ?? 50;
    return { page, limit, offset: pageOffset(page, limit) };
  }

  async list(cameraExid: string, q: ListQuery) {
    const camera = await this.cameras.row(cameraExid);
    const f = this.filter(q);
    const p = AnprService.page(q);
    const { total, rows } = await repo.listEvents(this.db, camera.id, f, p, q.sort ?? 'desc');
    return { meta: pageMeta(p.page, p.limit, total), data: rows.map((r) => toEventRecord(r, camera.exid)) };
  }

  async matched(cameraExid: string, q: ListQuery) {
    const camera = await this.cameras.row(cameraExid);
    const f = this.filter(q);
    const p = AnprService.page(q);
    const { total, rows } = await repo.listMatched(this.db, camera.id, camera.project_id, f, p, q.sort ?? 'desc');
    return {
      meta: pageMeta(p.page, p.limit, total),
      data: rows.map(({ watchlist_label, ...r }) => ({ ...toEventRecord(r, camera.exid), watchlist_label })),
    };
  }

  async plates(cameraExid: string, q: PlatesQuery) {
    const camera = await this.cameras.row(cameraExid);
    const f = this.filter(q);
    const p = AnprService.page(q);
    const { total, rows } = await repo.listPlates(this.db, camera.id, f, p, q.sort ?? 'last_seen_desc');
    const labels = await repo.watchlistLabels(
      this.db,
      camera.project_id,
      rows.map((r) => r.plate),
    );
    return { meta: pageMeta(p.page, p.limit, total), data: rows.map((r) => ({ ...r, watchlist_label: labels.get(r.plate) ?? null })) };
  }

  /** One event of this camera, with its plate JPEG when it has one. */
  async get(cameraExid: string, eventId: string): Promise<{ event: AnprEventRecord; image: Buffer | null }> {
    const camera = await this.cameras.row(cameraExid);
    const row = await repo.eventById(this.db, camera.id, eventId);
    if (!row) throw new ApiError('NOT_FOUND', 'ANPR event not found');
    const image = row.image_key ? await this.storage.getBytes(row.image_key) : null;
    return { event: toEventRecord(row, camera.exid), image };
  }

  /**
   * Removes the plate images of a camera from the object store. The rows go with the camera (foreign
   * key, on delete cascade), but objects do not: camera deletion must call this BEFORE deleting the row.
   */
  async removeCameraObjects(cameraId: string): Promise<number> {
    let after = '';
    let removed = 0;
    for (;;) {
      const batch = await repo.imageKeysOfCamera(this.db, cameraId, after, 500);
      if (batch.length === 0) return removed;
      await this.storage.delete(batch.map((r) => r.image_key!));
      removed += batch.length;
      after = batch[batch.length - 1]!.id;
    }
  }

  // Watch list of a project

  watchlist(projectId: string) {
    return repo.watchlistOf(this.db, projectId);
  }

  async watch(projectId: string, userId: string, input: { plate: string; label: string }) {
    const plate = plateOrFail(input.plate, 'plate');
    const label = input.label.trim();
    if (!label) throw validation('label', 'must not be blank');
    const conflict = () => new ApiError('CONFLICT', `${plate} is already on this project's watch list`);
    if (await repo.watchlistEntry(this.db, projectId, plate)) throw conflict();
    const row = { project_id: projectId, plate, label, created_by: userId, created_at: new Date().toISOString() };
    try {
      await repo.insertWatch(this.db, row);
    } catch (err) {
      // Two admins adding the same plate at once: the primary key lets one in.
      if (await repo.watchlistEntry(this.db, projectId, plate)) throw conflict();
      throw err;
    }
    return { plate, label, created_at: row.created_at };
  }

  async unwatch(projectId: string, rawPlate: string): Promise<void> {
    const plate = normalisePlate(rawPlate);
    if (!plate || !(await repo.deleteWatch(this.db, projectId, plate))) throw new ApiError('NOT_FOUND', 'This plate is not on the watch list');
  }
}
