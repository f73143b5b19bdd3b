// BIM captures (model renders uploaded for a date, one per camera and date), the nearest one for a
// date, and pending renders: requests for a date that an external BIM tool picks up, reports on
// (processing, failed) and completes by uploading the capture with the request's id.
import { ApiError, validation } from '../../lib/errors.js';
import { pageMeta, pageOffset } from '../../lib/http/pagination.js';
import { newId } from '../../lib/ids.js';
import type { StoredObject } from '../storage/index.js';
import { type BimContext, cameraIdOf, storedImage, storeThenWrite } from './bim-context.js';
import { checkBimImage } from './bim-image.js';
import { toCapture, toPending, toParameters, type BimCapture, type BimPending, type CameraParameters, type CameraParametersBody } from './bim-records.js';
import type { PendingStatus } from './bim-tables.js';
import * as repo from './bim-repository.js';
import { unixOrInstant as bimInstant, unixOrInstantRange as bimRange } from '../../lib/time/read-time.js';

export interface CaptureListQuery {
  from?: string;
  to?: string;
  page?: number;
  page_size?: number;
  sort?: 'asc' | 'desc';
}

export interface UploadInput {
  captured_at?: string | number;
  image: string;
  name?: string;
  pending_id?: string;
}

/** Creates a request (`requested_for`), or with `id` reports a request's progress. */
export interface PendingInput {
  id?: string;
  requested_for?: string | number;
  note?: string;
  status?: Exclude<PendingStatus, 'completed'>;
  message?: string;
}

/** What GET …/bim/pending lists by default: everything not yet rendered. */
const OPEN: PendingStatus[] = ['pending', 'processing', 'failed'];

const captureKey = (cameraId: string, id: string, ext: string) => `cameras/${cameraId}/bim/captures/${id}.${ext}`;

export class BimCapturesService {
  constructor(private readonly ctx: BimContext) {}

  private get db() {
    return this.ctx.db;
  }

  async list(exid: string, q: CaptureListQuery) {
    const cameraId = await cameraIdOf(this.ctx, exid);
    const range = bimRange(q.from, q.to);
    const page = q.page ?? 1;
    const size = q.page_size ?? 50;
    const { total, rows } = await repo.listCaptures(this.db, cameraId, range, { limit: size, offset: pageOffset(page, size) }, q.sort ?? 'desc');
    return { meta: pageMeta(page, size, total), data: rows.map((r) => toCapture(exid, r)) };
  }

  async upload(exid: string, userId: string, input: UploadInput): Promise<BimCapture> {
    const cameraId = await cameraIdOf(this.ctx, exid);
    const pending = input.pending_id ? await this.openRequest(cameraId, input.pending_id) : undefined;
    if (input.captured_at === undefined && !pending) throw validation('captured_at', 'is required (or send the pending_id of the request this render answers)');
    const at = input.captured_at === undefined ? pending!.requested_for : bimInstant(input.captured_at, 'captured_at');
    if (await repo.captureAt(this.db, cameraId, at)) throw new ApiError('CONFLICT', `A BIM capture for ${at} exists already; delete it first to replace it`);
    const image = await checkBimImage(input.image, 'image', this.ctx.limits);
    const now = new Date().toISOString();
    const row = {
      id: newId(),
      camera_id: cameraId,
      captured_at: at,
      name: input.name ?? null,
      image_key: '',
      content_type: image.contentType,
      width: image.width,
      height: image.height,
      size: image.bytes.length,
      uploaded_by: userId,
      created_at: now,
    };
    row.image_key = captureKey(cameraId, row.id, image.extension);
    await storeThenWrite(this.ctx, row.image_key, image.bytes, image.contentType, async () => {
      try {
        await repo.insertCapture(this.db, row);
      } catch (err) {
        // Two uploads for the same date at once: the unique index keeps one.
        if (await repo.captureAt(this.db, cameraId, at)) throw new ApiError('CONFLICT', `A BIM capture for ${at} exists already`);
        throw err;
      }
    });
    if (pending) await repo.updatePending(this.db, pending.id, { status: 'completed', capture_id: row.id, updated_at: now });
    return toCapture(exid, row);
  }

  /** The capture closest to `datetime` (either side; the earlier one on a tie). */
  async nearest(exid: string, datetime: string): Promise<BimCapture & { image_key: string }> {
    const cameraId = await cameraIdOf(this.ctx, exid);
    const at = bimInstant(datetime, 'datetime');
    const { before, after } = await repo.capturesAround(this.db, cameraId, at);
    const t = Date.parse(at);
    const pick = before && after ? (t - Date.parse(before.captured_at) <= Date.parse(after.captured_at) - t ? before : after) : (before ?? after);
    if (!pick) throw new ApiError('NOT_FOUND', 'This camera has no BIM captures');
    return { ...toCapture(exid, pick), image_key: pick.image_key };
  }

  image(capture: { image_key: string; content_type: string }): Promise<StoredObject> {
    return storedImage(this.ctx, capture.image_key, capture.content_type);
  }

  async remove(exid: string, id: string): Promise<void> {
    const cameraId = await cameraIdOf(this.ctx, exid);
    const row = await repo.captureById(this.db, cameraId, id);
    if (!row) throw new ApiError('NOT_FOUND', 'BIM capture not found');
    await repo.deleteCapture(this.db, row.id);
    await this.ctx.deps.storage.delete([row.image_key]);
  }

  async listPending(exid: string, status?: PendingStatus | 'all'): Promise<{ data: BimPending[] }> {
    const cameraId = await cameraIdOf(this.ctx, exid);
    const statuses: readonly PendingStatus[] = status === undefined ? OPEN : status === 'all' ? ['pending', 'processing', 'completed', 'failed'] : [status];
    return { data: (await repo.listPending(this.db, cameraId, statuses)).map(toPending) };
  }

  /** Creates a request (201) or reports on one (200): `created` says which. */
  async savePending(exid: string, userId: string, input: PendingInput): Promise<{ created: boolean; pending: BimPending }> {
    const cameraId = await cameraIdOf(this.ctx, exid);
    const now = new Date().toISOString();
    if (input.id !== undefined) {
      if (input.requested_for !== undefined) throw validation('requested_for', 'cannot change; create a new request instead');
      if (input.status === undefined && input.message === undefined && input.note === undefined)
        throw validation('status', 'is required to report on a request');
      const row = await this.openRequest(cameraId, input.id);
      const patch = { status: input.status ?? row.status, message: input.message ?? row.message, note: input.note ?? row.note, updated_at: now };
      await repo.updatePending(this.db, row.id, patch);
      return { created: false, pending: toPending({ ...row, ...patch }) };
    }
    if (input.requested_for === undefined) throw validation('requested_for', 'is required');
    if (input.status !== undefined && input.status !== 'pending') throw validation('status', 'a new request is pending; report progress with its id');
    const row = {
      id: newId(),
      camera_id: cameraId,
      requested_for: bimInstant(input.requested_for, 'requested_for'),
      status: 'pending' as const,
      note: input.note ?? null,
      message: input.message ?? null,
      capture_id: null,
      requested_by: userId,
      created_at: now,
      updated_at: now,
    };
    await repo.insertPending(this.db, row);
    return { created: true, pending: toPending(row) };
  }

  private async openRequest(cameraId: string, id: string) {
    const row = await repo.pendingById(this.db, cameraId, id);
    if (!row) throw new ApiError('NOT_FOUND', 'Pending BIM capture not found');
    if (row.status === 'completed') throw new ApiError('CONFLICT', 'This request is completed already');
    return row;
  }

  async parameters(exid: string): Promise<CameraParameters> {
    const row = await repo.parametersOf(this.db, await cameraIdOf(this.ctx, exid));
    if (!row) throw new ApiError('NOT_FOUND', 'No camera parameters are set for this camera');
    return toParameters(row);
  }

  async setParameters(exid: string, userId: string, p: CameraParametersBody): Promise<CameraParameters> {
    const row = {
      camera_id: await cameraIdOf(this.ctx, exid),
      ...p.position,
      ...p.rotation,
      fov: p.fov,
      image_width: p.image_width,
      image_height: p.image_height,
      updated_by: userId,
      updated_at: new Date().toISOString(),
    };
    await repo.saveParameters(this.db, row);
    return toParameters(row);
  }
}
