// The weather feature's table: fetched weather of a project, by place, time zone and day (or the
// current conditions), in the API's shape.
import { json, table, text, timestamp, type TablesType } from '../../lib/db/table.js';

const weatherCache = table({
  project_id: text(),
  /** `day:<lat>,<lng>:<tz>:<YYYY-MM-DD>` or `current:<lat>,<lng>:<tz>` */
  key: text(),
  payload: json(),
  fetched_at: timestamp(),
});

export const weatherTables = { weather_cache: weatherCache };
export type WeatherTables = TablesType<typeof weatherTables>;
