// Queries behind plate corrections and gate cameras (gate-service.ts).
import type { PlatformDb } from '../database.js';
import { inTransaction } from '../../lib/db/transaction.js';
import type { AnprCorrectionsTable, AnprGatesTable } from './anpr-tables.js';

/** Sets the event's plate and records the correction, together. */
export const insertCorrection = (db: PlatformDb, row: AnprCorrectionsTable) =>
  inTransaction(db, async (tx) => {
    await tx.kysely.updateTable('anpr_events').set({ plate: row.plate_after }).where('id', '=', row.event_id).execute();
    await tx.kysely.insertInto('anpr_corrections').values(row).execute();
  });

export function correctionsOfProject(db: PlatformDb, projectId: string, f: { from?: string; to?: string; eventId?: string }) {
  let q = db.kysely.selectFrom('anpr_corrections').selectAll().where('project_id', '=', projectId);
  if (f.from) q = q.where('created_at', '>=', f.from);
  if (f.to) q = q.where('created_at', '<=', f.to);
  if (f.eventId) q = q.where('event_id', '=', f.eventId);
  return q.orderBy('created_at').orderBy('id').limit(10_000).execute();
}

export const upsertGate = (db: PlatformDb, row: AnprGatesTable) =>
  db.kysely
    .insertInto('anpr_gates')
    .values(row)
    .onConflict((oc) =>
      oc.column('camera_id').doUpdateSet({ project_id: row.project_id, role: row.role, updated_by: row.updated_by, updated_at: row.updated_at }),
    )
    .execute();

export const deleteGate = (db: PlatformDb, cameraId: string) => db.kysely.deleteFrom('anpr_gates').where('camera_id', '=', cameraId).execute();

export const gatesOfProject = (db: PlatformDb, projectId: string) =>
  db.kysely.selectFrom('anpr_gates').selectAll().where('project_id', '=', projectId).orderBy('camera_id').execute();
