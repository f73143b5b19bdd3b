// The projects feature's tables: projects, their logos and their thumbnail (images in the object store).
import { integer, nullable, oneOf, table, text, timestamp, type TableType, type TablesType } from '../../lib/db/table.js';

export const PROJECT_STATUSES = ['To Start', 'In Progress', 'Completed'] as const;
/** Where overlays place a logo. */
export const LOGO_POSITIONS = ['top-left', 'top-right', 'bottom-left', 'bottom-right'] as const;

const projects = table({
  id: text(),
  exid: text(),
  name: text(),
  status: oneOf(PROJECT_STATUSES),
  timezone: text(),
  created_at: timestamp(),
  updated_at: timestamp(),
});
export type ProjectsTable = TableType<typeof projects>;

/** A project's logo; the image is in the object store under `object_key`. */
const projectLogos = table({
  id: text(),
  project_id: text(),
  name: text(),
  position: oneOf(LOGO_POSITIONS),
  object_key: text(),
  content_type: text(),
  width: integer(),
  height: integer(),
  size: integer(),
  created_by: nullable(text()),
  created_at: timestamp(),
  updated_at: timestamp(),
});
export type ProjectLogosTable = TableType<typeof projectLogos>;

/** A project's thumbnail (one per project): uploaded, or taken from a camera's latest recorded frame. */
const projectThumbnails = table({
  project_id: text(),
  object_key: text(),
  source: oneOf(['upload', 'camera']),
  /** The camera and frame time it was taken from (source camera); text, so it outlives the camera. */
  camera_exid: nullable(text()),
  taken_at: nullable(timestamp()),
  width: integer(),
  height: integer(),
  size: integer(),
  updated_by: nullable(text()),
  updated_at: timestamp(),
});
export type ProjectThumbnailsTable = TableType<typeof projectThumbnails>;

export const projectsTables = { projects, project_logos: projectLogos, project_thumbnails: projectThumbnails };
export type ProjectsTables = TablesType<typeof projectsTables>;
