// Queries behind cloud recording settings: one camera's row, saving it, and the cameras the recorder
// loop and retention job work on (joined with what connecting to the camera needs).
import type { Db } from '../../lib/db/index.js';
import type { CameraRecordingSettingsTable, CamerasTable } from '../../lib/db/schema.js';

export const settingsOf = (db: Db, cameraId: string): Promise<CameraRecordingSettingsTable | undefined> =>
  db.kysely.selectFrom('camera_recording_settings').selectAll().where('camera_id', '=', cameraId).executeTakeFirst();

export async function saveSettings(db: Db, row: CameraRecordingSettingsTable): Promise<void> {
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
export const recordingCameras = (db: Db): Promise<RecordingCameraRow[]> =>
  db.kysely
    .selectFrom('camera_recording_settings as s')
    .innerJoin('cameras as c', 'c.id', 's.camera_id')
    .select(['c.id', 'c.exid', 'c.kind', 'c.name', 'c.timezone', 'c.connection', 'c.sim_state', 's.frequency', 's.schedule'])
    .where('s.status', '=', 'on')
    .execute();

/** Cameras with a limited storage duration (in days), whatever their recording status. */
export const camerasWithRetention = (db: Db): Promise<{ camera_id: string; storage_duration: number }[]> =>
  db.kysely.selectFrom('camera_recording_settings').select(['camera_id', 'storage_duration']).where('storage_duration', '>', 0).execute();
