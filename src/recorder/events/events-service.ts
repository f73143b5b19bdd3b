// Events sent by cameras and integrations: generic ones keep their whole JSON body as metadata;
// licence-plate (LPR) ones have their own fields and an optional plate image stored beside the video.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RecorderDb } from '../db/recorder-db.js';
import type { EventsTable, LprEventsTable } from '../db/schema.js';
import { validation } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { pageMeta, pageOffset } from '../../lib/http/pagination.js';
import { timeParam } from '../http/index.js';

export interface LprInput {
  plate_number: string;
  capture_time: string;
  direction?: 'in' | 'out' | 'unknown';
  list_type?: 'white' | 'black' | 'other';
  confidence?: number;
  bounding_box?: number[];
  plate_image?: string;
  [extra: string]: unknown;
}

const isoTime = (field: string, v: unknown): string => timeParam(field, v).toISOString();

const toEvent = (r: EventsTable) => ({
  id: r.id,
  device_id: r.device_id,
  type: r.type,
  time: r.time,
  metadata: JSON.parse(r.metadata) as Record<string, unknown>,
  created_at: r.created_at,
});
const toLpr = (r: LprEventsTable) => ({
  id: r.id,
  device_id: r.device_id,
  plate_number: r.plate_number,
  capture_time: r.capture_time,
  direction: r.direction,
  list_type: r.list_type,
  confidence: r.confidence,
  bounding_box: r.bounding_box ? (JSON.parse(r.bounding_box) as number[]) : null,
  has_plate_image: r.plate_image !== null,
  metadata: JSON.parse(r.metadata) as Record<string, unknown>,
  created_at: r.created_at,
});

export interface EventFilter {
  deviceId?: string;
  type?: string;
  plate?: string;
  from?: string;
  to?: string;
  page: number;
  pageSize: number;
}

/** An event as the recorder tells others of it (the platform link sends these, docs/recorder.md). */
export interface IngestedEvent {
  deviceId: string;
  /** The event's type, or `plate` for a licence-plate read. */
  kind: string;
  at: string;
  data: Record<string, unknown>;
  /** A licence-plate read's image (JPEG), when it came with one. */
  image?: Buffer;
}

export class EventsService {
  private readonly listeners = new Set<(e: IngestedEvent) => Promise<void>>();

  /** Called after each event is stored; a listener that fails does not fail the ingestion. */
  onIngested(listener: (e: IngestedEvent) => Promise<void>): void {
    this.listeners.add(listener);
  }

  private async tell(e: IngestedEvent): Promise<void> {
    for (const l of this.listeners) await l(e).catch(() => {});
  }

  constructor(
    private readonly db: RecorderDb,
    private readonly storageRoot: string,
  ) {}

  async ingest(deviceId: string, type: string, body: Record<string, unknown>) {
    const time = body.time !== undefined ? isoTime('time', body.time) : new Date().toISOString();
    const row: EventsTable = { id: newId(), device_id: deviceId, type, time, metadata: JSON.stringify(body), created_at: new Date().toISOString() };
    await this.db.kysely.insertInto('events').values(row).execute();
    await this.tell({ deviceId, kind: type, at: time, data: body });
    return toEvent(row);
  }

  async ingestLpr(deviceId: string, input: LprInput) {
    const capture = isoTime('capture_time', input.capture_time);
    const plate = input.plate_number.trim().toUpperCase();
    if (!plate) throw validation('plate_number', 'must not be blank');
    if (input.bounding_box && input.bounding_box.length !== 4) throw validation('bounding_box', 'must be [x1, y1, x2, y2]');
    const id = newId();
    let imagePath: string | null = null;
    let jpeg: Buffer | undefined;
    if (input.plate_image) {
      jpeg = Buffer.from(input.plate_image, 'base64');
      if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw validation('plate_image', 'must be a base64 JPEG');
      imagePath = join(deviceId, 'lpr', capture.slice(0, 10), `${id}.jpg`);
      mkdirSync(dirname(join(this.storageRoot, imagePath)), { recursive: true });
      writeFileSync(join(this.storageRoot, imagePath), jpeg);
    }
    const { plate_image: _img, plate_number: _p, capture_time: _c, direction, list_type, confidence, bounding_box, ...rest } = input;
    const row: LprEventsTable = {
      id,
      device_id: deviceId,
      plate_number: plate,
      capture_time: capture,
      direction: direction ?? 'unknown',
      list_type: list_type ?? null,
      confidence: confidence ?? null,
      bounding_box: bounding_box ? JSON.stringify(bounding_box) : null,
      plate_image: imagePath,
      metadata: JSON.stringify(rest),
      created_at: new Date().toISOString(),
    };
    await this.db.kysely.insertInto('lpr_events').values(row).execute();
    const { has_plate_image, metadata, ...lpr } = toLpr(row);
    await this.tell({
      deviceId,
      kind: 'plate',
      at: capture,
      data: {
        ...metadata,
        plate: plate,
        direction: lpr.direction,
        list_type: lpr.list_type,
        confidence: lpr.confidence,
        bounding_box: lpr.bounding_box,
        has_plate_image,
      },
      ...(jpeg ? { image: jpeg } : {}),
    });
    return toLpr(row);
  }

  async list(f: EventFilter) {
    let q = this.db.kysely.selectFrom('events');
    if (f.deviceId) q = q.where('device_id', '=', f.deviceId);
    if (f.type) q = q.where('type', '=', f.type);
    if (f.from) q = q.where('time', '>=', isoTime('start_date', f.from));
    if (f.to) q = q.where('time', '<', isoTime('end_date', f.to));
    const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const rows = await q.selectAll().orderBy('time', 'desc').orderBy('id', 'desc').limit(f.pageSize).offset(pageOffset(f.page, f.pageSize)).execute();
    return { meta: pageMeta(f.page, f.pageSize, Number(total)), data: rows.map(toEvent) };
  }

  async listLpr(f: EventFilter) {
    let q = this.db.kysely.selectFrom('lpr_events');
    if (f.deviceId) q = q.where('device_id', '=', f.deviceId);
    if (f.plate) q = q.where('plate_number', '=', f.plate.trim().toUpperCase());
    if (f.from) q = q.where('capture_time', '>=', isoTime('start_date', f.from));
    if (f.to) q = q.where('capture_time', '<', isoTime('end_date', f.to));
    const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const rows = await q.selectAll().orderBy('capture_time', 'desc').orderBy('id', 'desc').limit(f.pageSize).offset(pageOffset(f.page, f.pageSize)).execute();
    return { meta: pageMeta(f.page, f.pageSize, Number(total)), data: rows.map(toLpr) };
  }
}
