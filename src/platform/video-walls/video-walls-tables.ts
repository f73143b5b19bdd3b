// The video walls feature's tables: walls and the cameras in their grid cells.
import { integer, nullable, table, text, timestamp, type TableType, type TablesType } from '../../lib/db/table.js';

const videoWalls = table({
  id: text(),
  project_id: text(),
  name: text(),
  grid_rows: integer(),
  grid_columns: integer(),
  created_by: nullable(text()),
  created_at: timestamp(),
  updated_at: timestamp(),
});
export type VideoWallsTable = TableType<typeof videoWalls>;

/** One cell of a wall's grid showing one camera (0-based row and column). */
const videoWallTiles = table({
  wall_id: text(),
  row_index: integer(),
  column_index: integer(),
  camera_id: text(),
});

export const videoWallsTables = { video_walls: videoWalls, video_wall_tiles: videoWallTiles };
export type VideoWallsTables = TablesType<typeof videoWallsTables>;
