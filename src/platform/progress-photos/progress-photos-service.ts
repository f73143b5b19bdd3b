// Progress photos: a scheduled delivery of a project's camera photos to e-mail recipients (daily or
// on chosen weekdays, at a local time). This stores and validates the schedule and says when it is next
// due; sending the e-mails needs a mail transport, which comes with the connectors work.
import type { Db } from '../../lib/db/index.js';
import { toBool } from '../../lib/db/index.js';
import { ApiError, validation } from '../../lib/errors.js';
import type { ProgressPhotosTable } from '../../lib/db/schema.js';
import { nextSendAt, WEEKDAYS, type Weekday } from './schedule.js';
import { newId } from '../../lib/ids.js';

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
  constructor(private readonly db: Db) {}

  /** The project a progress photo belongs to (for the access layer), or null. */
  async projectOf(id: string): Promise<{ id: string; exid: string } | null> {
    const row = await this.db.kysely
      .selectFrom('progress_photos')
      .innerJoin('projects', 'projects.id', 'progress_photos.project_id')
      .select(['projects.id', 'projects.exid'])
      .where('progress_photos.id', '=', id)
      .executeTakeFirst();
    return row ?? null;
  }

  private async toRecord(r: ProgressPhotosTable) {
    const project = await this.db.kysely.selectFrom('projects').select(['exid', 'timezone']).where('id', '=', r.project_id).executeTakeFirstOrThrow();
    const creator = await this.db.kysely.selectFrom('users').select('email').where('id', '=', r.created_by).executeTakeFirst();
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
      creator_email: creator?.email ?? null,
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
    const found = await this.db.kysely.selectFrom('cameras').select('exid').where('project_id', '=', projectId).where('exid', 'in', unique).execute();
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
    const row = await this.db.kysely.selectFrom('progress_photos').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new ApiError('NOT_FOUND', 'Progress photo not found');
    return row;
  }

  async create(projectId: string, userId: string, input: ProgressPhotoInput) {
    const fields = await this.checked(projectId, input);
    const now = new Date().toISOString();
    const row: ProgressPhotosTable = { id: newId(), project_id: projectId, created_by: userId, provider: 'email', created_at: now, updated_at: now, ...fields };
    await this.db.kysely.insertInto('progress_photos').values(row).execute();
    return this.toRecord(row);
  }

  async list(projectId: string) {
    const rows = await this.db.kysely.selectFrom('progress_photos').selectAll().where('project_id', '=', projectId).orderBy('created_at', 'desc').orderBy('id').execute();
    return Promise.all(rows.map((r) => this.toRecord(r)));
  }

  async get(id: string) {
    return this.toRecord(await this.row(id));
  }

  async update(id: string, input: ProgressPhotoInput) {
    const current = await this.row(id);
    const fields = await this.checked(current.project_id, input, current);
    await this.db.kysely.updateTable('progress_photos').set({ ...fields, updated_at: new Date().toISOString() }).where('id', '=', id).execute();
    return this.get(id);
  }

  async remove(id: string): Promise<void> {
    await this.row(id);
    await this.db.kysely.deleteFrom('progress_photos').where('id', '=', id).execute();
  }
}
