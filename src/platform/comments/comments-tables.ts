// The comments feature's table: comments pinned to a point of a camera's recorded frame.
import { json, nullable, real, table, text, timestamp, type TableType, type TablesType } from '../../lib/db/table.js';

const comments = table({
  id: text(),
  project_id: text(),
  camera_id: text(),
  author_id: nullable(text()),
  /** The recording moment the comment is about. */
  frame_at: timestamp(),
  /** Position on the image, 0..1 from the left and from the top. */
  x: real(),
  y: real(),
  content: text(),
  /** Array of the user ids already notified of a mention. */
  mentions: json(),
  archived_at: nullable(timestamp()),
  created_at: timestamp(),
  updated_at: timestamp(),
});
export type CommentsTable = TableType<typeof comments>;

export const commentsTables = { comments };
export type CommentsTables = TablesType<typeof commentsTables>;
