// Where a project is, for weather: the position of its first camera (oldest) that has one. Projects
// carry no coordinates of their own; their cameras do.
import type { PlatformDb } from '../../database.js';
import { ApiError } from '../../../lib/errors.js';
import { firstPlacedCamera } from '../../cameras/index.js';

export interface ProjectLocation {
  lat: number;
  lng: number;
  camera_exid: string;
}

export async function projectLocation(db: PlatformDb, projectId: string): Promise<ProjectLocation> {
  const row = await firstPlacedCamera(db, projectId);
  if (!row || row.lat === null || row.lng === null) {
    throw new ApiError('CONFLICT', 'The project has no location: give one of its cameras a latitude and longitude first');
  }
  return { lat: Number(row.lat), lng: Number(row.lng), camera_exid: row.exid };
}
