// What the gate report needs from the main API (docs/plates.md, Gate report): corrections of misread
// plates, each kept with who made it and what the plate was before, and the role of each gate camera.
import type { PlatformDb } from '../database.js';
import { ApiError, validation } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { rangeOrFail } from '../../lib/time/read-time.js';
import { cameraRefsByIds, type CamerasService } from '../cameras/index.js';
import { profilesOf } from '../users/index.js';
import * as events from './anpr-repository.js';
import * as repo from './gate-repository.js';
import type { AnprCorrectionsTable, GateRole } from './anpr-tables.js';
import { plateOrFail } from './plate.js';

export interface CorrectionRecord {
  id: string;
  event_id: string;
  camera_exid: string;
  plate_before: string;
  plate_after: string;
  note: string | null;
  corrected_by: { id: string; email: string } | null;
  created_at: string;
}

export class GateService {
  constructor(
    private readonly db: PlatformDb,
    private readonly cameras: CamerasService,
  ) {}

  private async records(rows: AnprCorrectionsTable[]): Promise<CorrectionRecord[]> {
    const cams = await cameraRefsByIds(
      this.db,
      rows.map((r) => r.camera_id),
    );
    const people = await profilesOf(
      this.db,
      rows.flatMap((r) => (r.corrected_by ? [r.corrected_by] : [])),
    );
    return rows.map(({ camera_id, project_id: _p, corrected_by, ...r }) => {
      const who = corrected_by ? people.get(corrected_by) : undefined;
      return { ...r, camera_exid: cams.get(camera_id)?.exid ?? '', corrected_by: who ? { id: who.id, email: who.email } : null };
    });
  }

  async correct(cameraExid: string, eventId: string, userId: string, input: { plate: string; note?: string }): Promise<CorrectionRecord> {
    const camera = await this.cameras.row(cameraExid);
    const event = await events.eventById(this.db, camera.id, eventId);
    if (!event) throw new ApiError('NOT_FOUND', 'ANPR event not found');
    const plate = plateOrFail(input.plate, 'plate');
    if (plate === event.plate) throw validation('plate', `is already the event's plate (${plate})`);
    const row: AnprCorrectionsTable = {
      id: newId(),
      event_id: event.id,
      camera_id: camera.id,
      project_id: camera.project_id,
      plate_before: event.plate,
      plate_after: plate,
      note: input.note?.trim() || null,
      corrected_by: userId,
      created_at: new Date().toISOString(),
    };
    await repo.insertCorrection(this.db, row);
    return (await this.records([row]))[0] as CorrectionRecord;
  }

  /** A project's corrections, oldest first, made between `from` and `to` (inclusive), or of one event. */
  async corrections(projectId: string, q: { from?: string; to?: string; event_id?: string }): Promise<CorrectionRecord[]> {
    const { from, to } = rangeOrFail(q.from, q.to);
    return this.records(await repo.correctionsOfProject(this.db, projectId, { from, to, eventId: q.event_id }));
  }

  async setRole(cameraExid: string, userId: string, role: GateRole | 'none'): Promise<{ camera_exid: string; role: GateRole | 'none' }> {
    const camera = await this.cameras.row(cameraExid);
    if (role === 'none') await repo.deleteGate(this.db, camera.id);
    else
      await repo.upsertGate(this.db, { camera_id: camera.id, project_id: camera.project_id, role, updated_by: userId, updated_at: new Date().toISOString() });
    return { camera_exid: camera.exid, role };
  }

  /** The project's gate cameras with their roles (a camera moved to another project is left out). */
  async gates(projectId: string): Promise<{ camera_exid: string; role: GateRole; updated_at: string }[]> {
    const rows = await repo.gatesOfProject(this.db, projectId);
    const cams = await cameraRefsByIds(
      this.db,
      rows.map((r) => r.camera_id),
    );
    return rows.flatMap((r) => {
      const cam = cams.get(r.camera_id);
      return cam && cam.project_id === projectId ? [{ camera_exid: cam.exid, role: r.role as GateRole, updated_at: r.updated_at }] : [];
    });
  }
}
