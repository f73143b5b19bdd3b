// Rows behind project logos and thumbnails (the images themselves are in the object store).
import type { PlatformDb } from '../database.js';
import type { ProjectLogosTable, ProjectThumbnailsTable } from './projects-tables.js';

export const logosOf = (db: PlatformDb, projectId: string) =>
  db.kysely.selectFrom('project_logos').selectAll().where('project_id', '=', projectId).orderBy('created_at').orderBy('id').execute();

export const logoById = (db: PlatformDb, projectId: string, id: string) =>
  db.kysely.selectFrom('project_logos').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();

export const countLogos = async (db: PlatformDb, projectId: string) =>
  Number(
    (
      await db.kysely
        .selectFrom('project_logos')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow()
    ).n,
  );

export const insertLogo = (db: PlatformDb, row: ProjectLogosTable) => db.kysely.insertInto('project_logos').values(row).execute();

export const updateLogo = (db: PlatformDb, id: string, set: Partial<ProjectLogosTable>) =>
  db.kysely.updateTable('project_logos').set(set).where('id', '=', id).execute();

export const deleteLogo = (db: PlatformDb, id: string) => db.kysely.deleteFrom('project_logos').where('id', '=', id).execute();

export const thumbnailOf = (db: PlatformDb, projectId: string) =>
  db.kysely.selectFrom('project_thumbnails').selectAll().where('project_id', '=', projectId).executeTakeFirst();

export async function saveThumbnail(db: PlatformDb, row: ProjectThumbnailsTable): Promise<void> {
  const { project_id, ...rest } = row;
  await db.kysely
    .insertInto('project_thumbnails')
    .values(row)
    .onConflict((oc) => oc.column('project_id').doUpdateSet(rest))
    .execute();
}

export const deleteThumbnail = (db: PlatformDb, projectId: string) => db.kysely.deleteFrom('project_thumbnails').where('project_id', '=', projectId).execute();

/** Every object key the project's settings hold (for its deletion). */
export async function objectKeysOf(db: PlatformDb, projectId: string): Promise<string[]> {
  const logos = await db.kysely.selectFrom('project_logos').select('object_key').where('project_id', '=', projectId).execute();
  const thumb = await thumbnailOf(db, projectId);
  return [...logos.map((l) => l.object_key), ...(thumb ? [thumb.object_key] : [])];
}
