// The progress photos feature's table: scheduled deliveries of a project's camera photos.
import { flag, json, oneOf, table, text, timestamp, type TableType, type TablesType } from '../../lib/db/table.js';

const progressPhotos = table({
  id: text(),
  project_id: text(),
  created_by: text(),
  title: text(),
  /** Array of camera exids. */
  camera_exids: json(),
  /** Array of recipient e-mail addresses. */
  recipients: json(),
  schedule: oneOf(['daily', 'weekly']),
  /** Array of weekdays (mon…sun) for weekly schedules. */
  days: json(),
  /** HH:MM in the project's time zone. */
  send_at: text(),
  /** email | a connector name */
  provider: text(),
  is_paused: flag(),
  created_at: timestamp(),
  updated_at: timestamp(),
});
export type ProgressPhotosTable = TableType<typeof progressPhotos>;

export const progressPhotosTables = { progress_photos: progressPhotos };
export type ProgressPhotosTables = TablesType<typeof progressPhotosTables>;
