// Queries behind cloud recording settings: one camera's row, saving it, and the cameras the recorder
// loop and retention job work on (with what connecting to the camera needs, from the cameras' repository).
import type { PlatformDb } from '../database.js';
import type { CameraRecordingSettingsTable } from './recordings-tables.js';
import { type CamerasTable, connectionsOf } from '../cameras/index.js';

export const settingsOf = (db: PlatformDb, cameraId: string): Promise<CameraRecordingSettingsTable | undefined> =>
  db.kysely.selectFrom('camera_recording_settings').selectAll().where('camera_id', '=', cameraId).executeTakeFirst();

export async function saveSettings(db: PlatformDb, row: CameraRecordingSettingsTable): Promise<void> {
  const { camera_id: _id, ...set } = row;
  await db.kysely
    .insertInto('camera_recording_settings')
    .values(row)
    .onConflict((oc) => oc.column('camera_id').doUpdateSet(set))
    .execute();
}

/** A camera the recorder loop records: its connection and its settings. */
export type RecordingCameraRow = Pick<CamerasTable, 'id' | 'exid' | 'kind' | 'name' | 'timezone' | 'connection' | 'sim_state'> &
  Pick<CameraRecordingSettingsTable, 'frequency' | 'schedule'>;

/** Cameras whose recording status is `on` (schedules are applied by the loop). */
export async function recordingCameras(db: PlatformDb): Promise<RecordingCameraRow[]> {
  const settings = await db.kysely.selectFrom('camera_recording_settings').select(['camera_id', 'frequency', 'schedule']).where('status', '=', 'on').execute();
  const byCamera = new Map(settings.map((s) => [s.camera_id, s]));
  const cameras = await connectionsOf(db, [...byCamera.keys()]);
  // A linked camera has no URL: its recorder sends its frames over the link (docs/site-link.md).
  return cameras
    .filter((c) => c.kind !== 'linked')
    .map((c) => {
      const s = byCamera.get(c.id)!;
      return { ...c, frequency: s.frequency, schedule: s.schedule };
    });
}

/** Cameras with a limited storage duration (in days), whatever their recording status. */
export const camerasWithRetention = (db: PlatformDb): Promise<{ camera_id: string; storage_duration: number }[]> =>
  db.kysely.selectFrom('camera_recording_settings').select(['camera_id', 'storage_duration']).where('storage_duration', '>', 0).execute();
