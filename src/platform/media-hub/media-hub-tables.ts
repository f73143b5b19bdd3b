// The media hub's table: one item (clip, compare, timelapse, url, file) with its render job state.
import { flag, integer, json, nullable, oneOf, table, text, timestamp, type TableType, type TablesType } from '../../lib/db/table.js';

export const KINDS = ['clip', 'compare', 'timelapse', 'url', 'file'] as const;
export type Kind = (typeof KINDS)[number];
/** A render job's state (url and file items are completed at once). */
export const STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export type Status = (typeof STATUSES)[number];

const mediaHubItems = table({
  id: text(),
  project_id: text(),
  camera_id: nullable(text()),
  kind: oneOf(KINDS),
  title: text(),
  status: oneOf(STATUSES),
  from_date: nullable(timestamp()),
  to_date: nullable(timestamp()),
  requester_id: nullable(text()),
  requester_email: text(),
  is_public: flag(),
  /** Render options. */
  options: json(),
  link_url: nullable(text()),
  file_name: nullable(text()),
  content_type: nullable(text()),
  file_size: nullable(integer()),
  object_key: nullable(text()),
  gif_key: nullable(text()),
  thumbnail_key: nullable(text()),
  logo_key: nullable(text()),
  error: nullable(text()),
  attempts: integer(),
  created_at: timestamp(),
  updated_at: timestamp(),
  completed_at: nullable(timestamp()),
});
export type MediaHubItemsTable = TableType<typeof mediaHubItems>;

export const mediaHubTables = { media_hub_items: mediaHubItems };
export type MediaHubTables = TablesType<typeof mediaHubTables>;
