// A camera's cloud recording settings (Evercam's shape): status on | off | paused, frequency in
// snapshots a minute, storage duration in days (-1 forever) and an optional weekly schedule. A camera
// never configured records nothing (status off). Saving tells the recorder loop at once.
import { Type, type Static } from 'typebox';
import { nowIso } from '../../lib/db/index.js';
import type { PlatformDb } from '../database.js';
import { validation } from '../../lib/errors.js';
import { Nullable, StringEnum } from '../../lib/http/schemas.js';
import type { CamerasService } from '../cameras/index.js';
import { normaliseSchedule, WEEKDAYS, WINDOW_PATTERN, type WeeklySchedule } from './recording-schedule.js';
import * as repo from './recording-settings-repository.js';
import { RECORDING_STATUSES, type RecordingStatus } from './recordings-tables.js';

/** Longest storage duration accepted, in days (ten years); -1 keeps images forever. */
const MAX_STORAGE_DAYS = 3650;

const DEFAULT_SETTINGS = { status: 'off' as RecordingStatus, frequency: 1, storage_duration: -1, schedule: null as WeeklySchedule | null };

const Windows = Type.Array(Type.String({ pattern: WINDOW_PATTERN, description: 'HH:MM-HH:MM, camera local time; end may be 24:00' }), { maxItems: 24 });
const ScheduleSchema = Type.Object(
  Object.fromEntries(WEEKDAYS.map((d) => [d, Type.Optional(Windows)])) as Record<(typeof WEEKDAYS)[number], ReturnType<typeof Type.Optional<typeof Windows>>>,
  {
    additionalProperties: false,
    description: 'Windows per weekday in the camera’s time zone; a weekday left out records nothing',
  },
);

export const RecordingSettings = Type.Object(
  {
    camera_exid: Type.String(),
    status: StringEnum(RECORDING_STATUSES),
    frequency: Type.Integer({ description: 'Snapshots a minute' }),
    storage_duration: Type.Integer({ description: 'Days images are kept; -1 forever' }),
    schedule: Nullable(
      Type.Object(
        Object.fromEntries(WEEKDAYS.map((d) => [d, Type.Array(Type.String())])) as Record<
          (typeof WEEKDAYS)[number],
          ReturnType<typeof Type.Array<ReturnType<typeof Type.String>>>
        >,
      ),
    ),
    updated_at: Nullable(Type.String()),
  },
  { $id: 'RecordingSettings' },
);
export type RecordingSettings = Static<typeof RecordingSettings>;

export const RecordingSettingsUpdate = Type.Object(
  {
    status: Type.Optional(StringEnum(RECORDING_STATUSES)),
    frequency: Type.Optional(Type.Integer({ minimum: 1, maximum: 60, description: 'Snapshots a minute, 1 to 60' })),
    storage_duration: Type.Optional(Type.Integer({ minimum: -1, maximum: MAX_STORAGE_DAYS, description: 'Days to keep, or -1 forever' })),
    schedule: Type.Optional(Type.Union([ScheduleSchema, Type.Null()])),
  },
  { additionalProperties: false, description: 'Fields left out keep their value' },
);
export type RecordingSettingsUpdate = Static<typeof RecordingSettingsUpdate>;

export class RecordingSettingsService {
  private readonly listeners = new Set<(cameraId: string) => void>();
  /** Called after settings change, with the camera's id: the recorder loop reloads, listeners hear it. */
  readonly onChange: (cameraId: string) => void;

  constructor(
    private readonly db: PlatformDb,
    private readonly cameras: CamerasService,
    changed: (cameraId: string) => void = () => {},
  ) {
    this.onChange = (cameraId) => {
      changed(cameraId);
      for (const listener of this.listeners) listener(cameraId);
    };
  }

  /** Hears every change of a camera's settings (the site link sends linked cameras' schedules). */
  onChanged(listener: (cameraId: string) => void): void {
    this.listeners.add(listener);
  }

  async get(cameraExid: string): Promise<RecordingSettings> {
    const camera = await this.cameras.row(cameraExid);
    const row = await repo.settingsOf(this.db, camera.id);
    if (!row) return { camera_exid: camera.exid, ...DEFAULT_SETTINGS, updated_at: null };
    return {
      camera_exid: camera.exid,
      status: row.status as RecordingStatus,
      frequency: row.frequency,
      storage_duration: row.storage_duration,
      schedule: row.schedule ? (JSON.parse(row.schedule) as WeeklySchedule) : null,
      updated_at: row.updated_at,
    };
  }

  async update(cameraExid: string, userId: string | null, input: RecordingSettingsUpdate): Promise<RecordingSettings> {
    // The route schema already bounds each field; these checks keep the service safe for other callers.
    if (input.frequency !== undefined && !(Number.isInteger(input.frequency) && input.frequency >= 1 && input.frequency <= 60))
      throw validation('frequency', 'must be an integer from 1 to 60 (snapshots a minute)');
    if (input.storage_duration !== undefined) {
      const d = input.storage_duration;
      if (!Number.isInteger(d) || d === 0 || d < -1 || d > MAX_STORAGE_DAYS)
        throw validation('storage_duration', `must be a number of days from 1 to ${MAX_STORAGE_DAYS}, or -1 to keep forever`);
    }
    if (input.status !== undefined && !(RECORDING_STATUSES as readonly string[]).includes(input.status))
      throw validation('status', `must be one of ${RECORDING_STATUSES.join(', ')}`);
    const schedule = input.schedule === undefined ? undefined : input.schedule === null ? null : normaliseSchedule(input.schedule as Record<string, unknown>);

    const current = await this.get(cameraExid);
    const camera = await this.cameras.row(cameraExid);
    const next = {
      status: input.status ?? current.status,
      frequency: input.frequency ?? current.frequency,
      storage_duration: input.storage_duration ?? current.storage_duration,
      schedule: schedule === undefined ? current.schedule : schedule,
    };
    const updatedAt = nowIso();
    await repo.saveSettings(this.db, {
      camera_id: camera.id,
      status: next.status,
      frequency: next.frequency,
      storage_duration: next.storage_duration,
      schedule: next.schedule ? JSON.stringify(next.schedule) : null,
      updated_by: userId,
      updated_at: updatedAt,
    });
    this.onChange(camera.id);
    return { camera_exid: camera.exid, ...next, updated_at: updatedAt };
  }
}
