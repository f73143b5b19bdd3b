// Where a project is, for weather: the position of its first camera (oldest) that has one. Projects
// carry no coordinates of their own; their cameras do.
import type { Db } from '../../../lib/db/index.js';
import { ApiError } from '../../../lib/errors.js';

export interface ProjectLocation {
  lat: number;
  lng: number;
  camera_exid: string;
}

export async function projectLocation(db: Db, projectId: string): Promise<ProjectLocation> {
  const row = await db.kysely
    .selectFrom('cameras')
    .select(['exid', 'lat', 'lng'])
    .where('project_id', '=', projectId)
    .where('lat', 'is not', null)
    .where('lng', 'is not', null)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .executeTakeFirst();
  if (!row || row.lat === null || row.lng === null) {
    throw new ApiError('CONFLICT', 'The project has no location: give one of its cameras a latitude and longitude first');
  }
  return { lat: Number(row.lat), lng: Number(row.lng), camera_exid: row.exid };
}
