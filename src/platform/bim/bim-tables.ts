// The BIM feature's tables: uploaded model renders of a camera's view, renders still to be made, the
// camera's pose and lens for the overlay, and overlay layers (images in the object store).
import { flag, integer, nullable, oneOf, real, table, text, timestamp, type TableType, type TablesType } from '../../lib/db/table.js';

export const PENDING_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export type PendingStatus = (typeof PENDING_STATUSES)[number];

/** An uploaded render for the date of the model it shows (one per camera and date). */
const bimCaptures = table({
  id: text(),
  camera_id: text(),
  captured_at: timestamp(),
  name: nullable(text()),
  image_key: text(),
  content_type: text(),
  width: integer(),
  height: integer(),
  size: integer(),
  uploaded_by: nullable(text()),
  created_at: timestamp(),
});
export type BimCapturesTable = TableType<typeof bimCaptures>;

/** A render requested for a date and not made yet (an external BIM tool reports its status). */
const bimPending = table({
  id: text(),
  camera_id: text(),
  requested_for: timestamp(),
  status: oneOf(PENDING_STATUSES),
  note: nullable(text()),
  message: nullable(text()),
  capture_id: nullable(text()),
  requested_by: nullable(text()),
  created_at: timestamp(),
  updated_at: timestamp(),
});
export type BimPendingTable = TableType<typeof bimPending>;

/** A camera's pose and lens for the overlay (metres and degrees), one row a camera. */
const bimCameraParameters = table({
  camera_id: text(),
  x: real(),
  y: real(),
  z: real(),
  yaw: real(),
  pitch: real(),
  roll: real(),
  fov: real(),
  image_width: integer(),
  image_height: integer(),
  updated_by: nullable(text()),
  updated_at: timestamp(),
});
export type BimCameraParametersTable = TableType<typeof bimCameraParameters>;

/** An overlay layer drawn over a camera's view: an image with opacity, order, visibility and dates. */
const bimLayers = table({
  id: text(),
  camera_id: text(),
  name: text(),
  image_key: text(),
  content_type: text(),
  width: integer(),
  height: integer(),
  size: integer(),
  has_alpha: flag(),
  opacity: real(),
  z_index: integer(),
  visible: flag(),
  from_date: nullable(timestamp()),
  to_date: nullable(timestamp()),
  created_by: nullable(text()),
  created_at: timestamp(),
  updated_at: timestamp(),
});
export type BimLayersTable = TableType<typeof bimLayers>;

export const bimTables = {
  bim_captures: bimCaptures,
  bim_pending: bimPending,
  bim_camera_parameters: bimCameraParameters,
  bim_layers: bimLayers,
};
export type BimTables = TablesType<typeof bimTables>;
