// The JSON shapes of BIM captures, pending renders, camera parameters and layers, and how rows become
// them. Images are never inlined: each record carries the URL that serves its bytes.
import { Type, type Static } from 'typebox';
import {
  PENDING_STATUSES,
  type BimCameraParametersTable,
  type BimCapturesTable,
  type BimLayersTable,
  type BimPendingTable,
  type PendingStatus,
} from './bim-tables.js';
import { Nullable, StringEnum } from '../../lib/http/schemas.js';

const Instant = Type.String({ format: 'date-time' });

export const BimCapture = Type.Object({
  id: Type.String(),
  captured_at: Type.String({ format: 'date-time', description: 'The date of the model the render shows' }),
  name: Nullable(Type.String()),
  content_type: Type.String(),
  width: Type.Integer(),
  height: Type.Integer(),
  size: Type.Integer({ description: 'Bytes' }),
  image_url: Type.String({ description: 'Serves the image (GET …/bim/{captured_at}?format=image)' }),
  uploaded_by: Nullable(Type.String()),
  created_at: Instant,
});
export type BimCapture = Static<typeof BimCapture>;

export const BimPending = Type.Object({
  id: Type.String(),
  requested_for: Type.String({ format: 'date-time', description: 'The model date the render is wanted for' }),
  status: StringEnum(PENDING_STATUSES),
  note: Nullable(Type.String()),
  message: Nullable(Type.String({ description: 'What the renderer reported (e.g. why it failed)' })),
  capture_id: Nullable(Type.String({ description: 'The capture that completed it' })),
  requested_by: Nullable(Type.String()),
  created_at: Instant,
  updated_at: Instant,
});
export type BimPending = Static<typeof BimPending>;

const Position = Type.Object(
  {
    x: Type.Number({ minimum: -1e8, maximum: 1e8 }),
    y: Type.Number({ minimum: -1e8, maximum: 1e8 }),
    z: Type.Number({ minimum: -1e6, maximum: 1e6 }),
  },
  { additionalProperties: false, description: 'Metres, in the model’s coordinate system' },
);
const Rotation = Type.Object(
  {
    yaw: Type.Number({ minimum: -360, maximum: 360, description: 'Degrees, heading around the vertical axis' }),
    pitch: Type.Number({ minimum: -90, maximum: 90, description: 'Degrees, up positive' }),
    roll: Type.Number({ minimum: -180, maximum: 180, description: 'Degrees' }),
  },
  { additionalProperties: false },
);
export const CameraParametersBody = Type.Object(
  {
    position: Position,
    rotation: Rotation,
    fov: Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 180, description: 'Horizontal field of view, degrees' }),
    image_width: Type.Integer({ minimum: 1, maximum: 20_000, description: 'Pixels of the frame the pose is for' }),
    image_height: Type.Integer({ minimum: 1, maximum: 20_000 }),
  },
  { additionalProperties: false },
);
export type CameraParametersBody = Static<typeof CameraParametersBody>;

export const CameraParameters = Type.Object({
  ...CameraParametersBody.properties,
  updated_by: Nullable(Type.String()),
  updated_at: Instant,
});
export type CameraParameters = Static<typeof CameraParameters>;

export const BimLayer = Type.Object({
  id: Type.String(),
  name: Type.String(),
  content_type: Type.String(),
  width: Type.Integer(),
  height: Type.Integer(),
  size: Type.Integer({ description: 'Bytes' }),
  has_alpha: Type.Boolean({ description: 'Whether the image has an alpha channel (PNG, WebP)' }),
  opacity: Type.Number(),
  z_index: Type.Integer({ description: 'Drawing order: higher is drawn over lower' }),
  visible: Type.Boolean(),
  from_date: Nullable(Type.String({ format: 'date-time' })),
  to_date: Nullable(Type.String({ format: 'date-time' })),
  image_url: Type.String({ description: 'Serves the image (GET …/layers/{id}?format=image)' }),
  created_by: Nullable(Type.String()),
  created_at: Instant,
  updated_at: Instant,
});
export type BimLayer = Static<typeof BimLayer>;

const cameraPath = (exid: string) => `/v2/cameras/${encodeURIComponent(exid)}`;

export const toCapture = (exid: string, r: BimCapturesTable): BimCapture => ({
  id: r.id,
  captured_at: r.captured_at,
  name: r.name,
  content_type: r.content_type,
  width: Number(r.width),
  height: Number(r.height),
  size: Number(r.size),
  image_url: `${cameraPath(exid)}/bim/${r.captured_at}?format=image`,
  uploaded_by: r.uploaded_by,
  created_at: r.created_at,
});

export const toPending = (r: BimPendingTable): BimPending => ({
  id: r.id,
  requested_for: r.requested_for,
  status: r.status as PendingStatus,
  note: r.note,
  message: r.message,
  capture_id: r.capture_id,
  requested_by: r.requested_by,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

export const toParameters = (r: BimCameraParametersTable): CameraParameters => ({
  position: { x: Number(r.x), y: Number(r.y), z: Number(r.z) },
  rotation: { yaw: Number(r.yaw), pitch: Number(r.pitch), roll: Number(r.roll) },
  fov: Number(r.fov),
  image_width: Number(r.image_width),
  image_height: Number(r.image_height),
  updated_by: r.updated_by,
  updated_at: r.updated_at,
});

export const toLayer = (exid: string, r: BimLayersTable): BimLayer => ({
  id: r.id,
  name: r.name,
  content_type: r.content_type,
  width: Number(r.width),
  height: Number(r.height),
  size: Number(r.size),
  has_alpha: Number(r.has_alpha) === 1,
  opacity: Number(r.opacity),
  z_index: Number(r.z_index),
  visible: Number(r.visible) === 1,
  from_date: r.from_date,
  to_date: r.to_date,
  image_url: `${cameraPath(exid)}/layers/${r.id}?format=image`,
  created_by: r.created_by,
  created_at: r.created_at,
  updated_at: r.updated_at,
});
