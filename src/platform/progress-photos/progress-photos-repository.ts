// The progress_photos table: scheduled deliveries of a project's camera photos.
import type { PlatformDb } from '../database.js';
import type { ProgressPhotosTable } from './progress-photos-tables.js';

export const progressPhotoById = (db: PlatformDb, id: string) => db.kysely.selectFrom('progress_photos').selectAll().where('id', '=', id).executeTakeFirst();

/** The project's progress photos, newest first. */
export const progressPhotosOf = (db: PlatformDb, projectId: string) =>
  db.kysely.selectFrom('progress_photos').selectAll().where('project_id', '=', projectId).orderBy('created_at', 'desc').orderBy('id').execute();

export const insertProgressPhoto = (db: PlatformDb, row: ProgressPhotosTable) => db.kysely.insertInto('progress_photos').values(row).execute();

export const updateProgressPhoto = (db: PlatformDb, id: string, set: Partial<ProgressPhotosTable>) =>
  db.kysely.updateTable('progress_photos').set(set).where('id', '=', id).execute();

export const deleteProgressPhoto = (db: PlatformDb, id: string) => db.kysely.deleteFrom('progress_photos').where('id', '=', id).execute();

/** Every schedule that is not paused: what the sender looks at each minute. */
export const activeProgressPhotos = (db: PlatformDb) => db.kysely.selectFrom('progress_photos').selectAll().where('is_paused', '=', 0).execute();
