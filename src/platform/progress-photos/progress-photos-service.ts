// Progress photos: a scheduled delivery of a project's camera photos to e-mail recipients (daily or
// on chosen weekdays, at a local time). This stores and validates the schedule and says when it is next
// due; the mail feature sends them (docs/email.md, Progress photos).
import type { PlatformDb } from '../database.js';
import { toBool } from '../../lib/db/index.js';
import { ApiError, validation } from '../../lib/errors.js';
import type { ProgressPhotosTable } from './progress-photos-tables.js';
import { nextSendAt, WEEKDAYS, type Weekday } from './schedule.js';
import { newId } from '../../lib/ids.js';
import { projectCamerasAmong } from '../cameras/index.js';
import { projectRefById, projectRowByIdOrThrow } from '../projects/index.js';
import { emailsOf } from '../users/index.js';
import * as repo from './progress-photos-repository.js';

export interface ProgressPhotoInput {
  title?: string;
  camera_exids?: string[];
  recipients?: string[];
  schedule?: 'daily' | 'weekly';
  days?: string[];
  send_at?: string;
  is_paused?: boolean;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

export class ProgressPhotosService {
  constructor(private readonly db: PlatformDb) {}

  /** The project a progress photo belongs to (for the access layer), or null. */
  async projectOf(id: string): Promise<{ id: string; exid: string } | null> {
    const photo = await repo.progressPhotoById(this.db, id);
    return (photo && (await projectRefById(this.db, photo.project_id))) ?? null;
  }

  private async toRecord(r: ProgressPhotosTable) {
    return (await this.toRecords([r]))[0]!;
  }

  /** The records of rows of one project: its exid and time zone, and the creators' e-mails, asked once. */
  private async toRecords(rows: ProgressPhotosTable[]) {
    const projects = new Map<string, { exid: string; timezone: string }>();
    for (const id of new Set(rows.map((r) => r.project_id))) projects.set(id, await projectRowByIdOrThrow(this.db, id));
    const creators = await emailsOf(
      this.db,
      rows.map((r) => r.created_by),
    );
    return rows.map((r) => this.record(r, projects.get(r.project_id)!, creators.get(r.created_by)));
  }

  private record(r: ProgressPhotosTable, project: { exid: string; timezone: string }, creatorEmail: string | undefined) {
    const days = JSON.parse(r.days) as Weekday[];
    return {
      id: r.id,
      project_exid: project.exid,
      title: r.title,
      camera_exids: JSON.parse(r.camera_exids) as string[],
      recipients: JSON.parse(r.recipients) as string[],
      schedule: r.schedule as 'daily' | 'weekly',
      days,
      send_at: r.send_at,
      provider: r.provider,
      is_paused: toBool(r.is_paused),
      next_send_at: nextSendAt(r.schedule as 'daily' | 'weekly', days, r.send_at, project.timezone, new Date(), toBool(r.is_paused)),
      creator_email: creatorEmail ?? null,
      created_at: r.created_at,
      updated_at: r.updated_at,
    };
  }

  private async checked(projectId: string, input: ProgressPhotoInput, current?: ProgressPhotosTable) {
    const title = input.title !== undefined ? input.title.trim() : current?.title;
    if (!title) throw validation('title', 'must not be blank');
    const cameras = input.camera_exids ?? (current ? (JSON.parse(current.camera_exids) as string[]) : undefined);
    if (!cameras || cameras.length === 0) throw validation('camera_exids', 'name at least one camera of the project');
    const unique = [...new Set(cameras)];
    const found = await projectCamerasAmong(this.db, projectId, unique);
    const missing = unique.filter((c) => !found.some((f) => f.exid === c));
    if (missing.length) throw validation('camera_exids', `not cameras of this project: ${missing.join(', ')}`);
    const recipients = input.recipients ?? (current ? (JSON.parse(current.recipients) as string[]) : undefined);
    if (!recipients || recipients.length === 0) throw validation('recipients', 'name at least one e-mail address');
    const bad = recipients.filter((e) => !EMAIL.test(e));
    if (bad.length) throw validation('recipients', `not e-mail addresses: ${bad.join(', ')}`);
    const schedule = input.schedule ?? (current?.schedule as 'daily' | 'weekly' | undefined) ?? 'daily';
    const days = input.days ?? (current ? (JSON.parse(current.days) as string[]) : []);
    const wrong = days.filter((d) => !(WEEKDAYS as readonly string[]).includes(d));
    if (wrong.length) throw validation('days', `not weekdays (mon…sun): ${wrong.join(', ')}`);
    if (schedule === 'weekly' && days.length === 0) throw validation('days', 'a weekly schedule needs at least one weekday');
    const sendAt = input.send_at ?? current?.send_at ?? '09:00';
    if (!HHMM.test(sendAt)) throw validation('send_at', 'must be HH:MM (24-hour)');
    return {
      title,
      camera_exids: JSON.stringify(unique),
      recipients: JSON.stringify([...new Set(recipients.map((e) => e.toLowerCase()))]),
      schedule,
      days: JSON.stringify(schedule === 'weekly' ? WEEKDAYS.filter((d) => days.includes(d)) : []),
      send_at: sendAt,
      is_paused: (input.is_paused ?? (current ? toBool(current.is_paused) : false)) ? 1 : 0,
    };
  }

  private async row(id: string): Promise<ProgressPhotosTable> {
    const row = await repo.progressPhotoById(this.db, id);
    if (!row) throw new ApiError('NOT_FOUND', 'Progress photo not found');
    return row;
  }

  async create(projectId: string, userId: string, input: ProgressPhotoInput) {
    const fields = await this.checked(projectId, input);
    const now = new Date().toISOString();
    const row: ProgressPhotosTable = { id: newId(), project_id: projectId, created_by: userId, provider: 'email', created_at: now, updated_at: now, ...fields };
    await repo.insertProgressPhoto(this.db, row);
    return this.toRecord(row);
  }

  async list(projectId: string) {
    return this.toRecords(await repo.progressPhotosOf(this.db, projectId));
  }

  async get(id: string) {
    return this.toRecord(await this.row(id));
  }

  async update(id: string, input: ProgressPhotoInput) {
    const current = await this.row(id);
    const fields = await this.checked(current.project_id, input, current);
    await repo.updateProgressPhoto(this.db, id, { ...fields, updated_at: new Date().toISOString() });
    return this.get(id);
  }

  async remove(id: string): Promise<void> {
    await this.row(id);
    await repo.deleteProgressPhoto(this.db, id);
  }
}
