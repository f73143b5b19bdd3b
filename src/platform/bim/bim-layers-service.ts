// Overlay layers of a camera: a named image (PNG or WebP keep their alpha; JPEG is opaque) drawn over
// the camera's view with an opacity, a drawing order, a visibility and an optional date range. PUT
// replaces every field; its image may be left out to keep the current one. A new image gets a new
// object key, so a cached old image is never served under the new record.
import { ApiError, validation } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { StoredObject } from '../storage/index.js';
import { type BimContext, cameraIdOf, storedImage, storeThenWrite } from './bim-context.js';
import { checkBimImage, type CheckedImage } from './bim-image.js';
import { toLayer, type BimLayer } from './bim-records.js';
import * as repo from './bim-repository.js';
import { unixOrInstant as bimInstant } from '../../lib/time/read-time.js';

export interface LayerInput {
  name: string;
  image?: string;
  opacity?: number;
  z_index?: number;
  visible?: boolean;
  from_date?: string | number | null;
  to_date?: string | number | null;
}

export interface LayerListQuery {
  /** Only layers whose date range contains this date. */
  date?: string;
  visible?: boolean;
}

const layerKey = (cameraId: string, id: string, ext: string) => `cameras/${cameraId}/bim/layers/${id}/${newId()}.${ext}`;

function fields(input: LayerInput) {
  const from = input.from_date == null ? null : bimInstant(input.from_date, 'from_date');
  const to = input.to_date == null ? null : bimInstant(input.to_date, 'to_date');
  if (from && to && from > to) throw validation('from_date', 'must not be after to_date');
  const name = input.name.trim();
  if (name === '') throw validation('name', 'must not be blank');
  return { name, opacity: input.opacity ?? 1, z_index: input.z_index ?? 0, visible: input.visible === false ? 0 : 1, from_date: from, to_date: to };
}

const imageFields = (image: CheckedImage) => ({
  content_type: image.contentType,
  width: image.width,
  height: image.height,
  size: image.bytes.length,
  has_alpha: image.hasAlpha ? 1 : 0,
});

export class BimLayersService {
  constructor(private readonly ctx: BimContext) {}

  async list(exid: string, q: LayerListQuery): Promise<{ data: BimLayer[] }> {
    const cameraId = await cameraIdOf(this.ctx, exid);
    const at = q.date === undefined ? undefined : bimInstant(q.date, 'date');
    const rows = (await repo.listLayers(this.ctx.db, cameraId)).filter(
      (r) =>
        (q.visible === undefined || (Number(r.visible) === 1) === q.visible) &&
        (!at || ((!r.from_date || r.from_date <= at) && (!r.to_date || at <= r.to_date))),
    );
    return { data: rows.map((r) => toLayer(exid, r)) };
  }

  async create(exid: string, userId: string, input: LayerInput): Promise<BimLayer> {
    const cameraId = await cameraIdOf(this.ctx, exid);
    const f = fields(input);
    if (input.image === undefined) throw validation('image', 'is required');
    const image = await checkBimImage(input.image, 'image', this.ctx.limits);
    const now = new Date().toISOString();
    const id = newId();
    const row = {
      id,
      camera_id: cameraId,
      ...f,
      ...imageFields(image),
      image_key: layerKey(cameraId, id, image.extension),
      created_by: userId,
      created_at: now,
      updated_at: now,
    };
    await storeThenWrite(this.ctx, row.image_key, image.bytes, image.contentType, () => repo.insertLayer(this.ctx.db, row));
    return toLayer(exid, row);
  }

  /** The layer's record, with where its image is. */
  async get(exid: string, id: string) {
    const row = await repo.layerById(this.ctx.db, await cameraIdOf(this.ctx, exid), id);
    if (!row) throw new ApiError('NOT_FOUND', 'Layer not found');
    return { layer: toLayer(exid, row), image_key: row.image_key, content_type: row.content_type };
  }

  image(layer: { image_key: string; content_type: string }): Promise<StoredObject> {
    return storedImage(this.ctx, layer.image_key, layer.content_type);
  }

  async replace(exid: string, id: string, input: LayerInput): Promise<BimLayer> {
    const cameraId = await cameraIdOf(this.ctx, exid);
    const row = await repo.layerById(this.ctx.db, cameraId, id);
    if (!row) throw new ApiError('NOT_FOUND', 'Layer not found');
    const f = fields(input);
    const now = new Date().toISOString();
    if (input.image === undefined) {
      const patch = {
        ...f,
        content_type: row.content_type,
        width: row.width,
        height: row.height,
        size: row.size,
        has_alpha: row.has_alpha,
        image_key: row.image_key,
        updated_at: now,
      };
      await repo.replaceLayer(this.ctx.db, id, patch);
      return toLayer(exid, { ...row, ...patch });
    }
    const image = await checkBimImage(input.image, 'image', this.ctx.limits);
    const patch = { ...f, ...imageFields(image), image_key: layerKey(cameraId, id, image.extension), updated_at: now };
    await storeThenWrite(this.ctx, patch.image_key, image.bytes, image.contentType, () => repo.replaceLayer(this.ctx.db, id, patch));
    await this.ctx.deps.storage.delete([row.image_key]);
    return toLayer(exid, { ...row, ...patch });
  }

  async remove(exid: string, id: string): Promise<void> {
    const cameraId = await cameraIdOf(this.ctx, exid);
    const row = await repo.layerById(this.ctx.db, cameraId, id);
    if (!row) throw new ApiError('NOT_FOUND', 'Layer not found');
    await repo.deleteLayer(this.ctx.db, id);
    await this.ctx.deps.storage.delete([row.image_key]);
  }
}
