// The device as the API shows it (credentials' password never), its storage settings, its state and
// the source ffmpeg opens for it.
import { Type, type Static } from 'typebox';
import { Nullable, StringEnum } from '../../lib/http/schemas.js';
import type { DevicesTable } from '../db/schema.js';
import { plateReaderConfig, PlateReaderView } from '../plate-settings/index.js';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** The path parameter of every route about one device. */
export const DeviceId = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const StreamConfig = Type.Object(
  {
    stream_uri: Type.Optional(Type.String({ maxLength: 2048, description: 'ip: RTSP URI of the main stream' })),
    sub_stream_uri: Type.Optional(Type.String({ maxLength: 2048, description: 'ip: RTSP URI of the sub stream' })),
    snapshot_uri: Type.Optional(Type.String({ maxLength: 2048, description: 'ip: HTTP URI of a JPEG snapshot' })),
    path: Type.Optional(Type.String({ maxLength: 4096, description: 'file: a video file on the recorder, played in a loop' })),
  },
  { additionalProperties: false },
);

export const StorageConfig = Type.Object(
  {
    recording_mode: Type.Optional(
      StringEnum(['always', 'never'], { description: 'always: record continuously (within the schedule, if any); never: do not record' }),
    ),
    full_drive_threshold: Type.Optional(Type.Number({ minimum: 50, maximum: 99, description: 'Disk use (percent) at which the full-drive action applies' })),
    full_drive_action: Type.Optional(
      StringEnum(['overwrite', 'nothing'], { description: 'overwrite: delete the oldest segments; nothing: keep them and stop writing' }),
    ),
    schedule: Type.Optional(
      Nullable(
        Type.Record(Type.String(), Type.Array(Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d-([01]\\d|2[0-4]):[0-5]\\d$' }), { maxItems: 12 }), {
          description: 'Weekly recording windows in the device time zone, e.g. {"mon": ["08:00-18:00"]}; null records all the time',
        }),
      ),
    ),
  },
  { additionalProperties: false },
);
export type StorageConfig = Static<typeof StorageConfig>;
export type StreamConfig = Static<typeof StreamConfig>;

export const Device = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: StringEnum(['ip', 'file']),
  timezone: Type.String(),
  state: StringEnum(['stopped', 'streaming', 'recording', 'failed']),
  state_reason: Nullable(Type.String()),
  stream_config: StreamConfig,
  credentials: Type.Object({ username: Nullable(Type.String()), has_password: Type.Boolean() }),
  storage_config: Type.Object({
    recording_mode: Type.String(),
    full_drive_threshold: Type.Number(),
    full_drive_action: Type.String(),
    schedule: Type.Union([Type.Record(Type.String(), Type.Array(Type.String())), Type.Null()]),
  }),
  share_with_platform: Type.Boolean({ description: 'Whether the linked platform gets this device (docs/recorder.md, Platform link)' }),
  plate_reader: PlateReaderView,
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type Device = Static<typeof Device>;
export type DeviceState = Device['state'];

/** What ffmpeg opens for a device: its main stream with credentials, or its file. */
export interface SourceSpec {
  type: 'ip' | 'file';
  /** RTSP URI (ip) or a local video file (file). */
  input: string;
  username?: string;
  password?: string;
}

export const DEFAULT_STORAGE = { recording_mode: 'always', full_drive_threshold: 95, full_drive_action: 'overwrite', schedule: null } as const;

/** The API's view of a stored device; `creds` are its credentials, unsealed by the caller. */
export function toDevice(r: DevicesTable, creds: { username?: string; password?: string }): Device {
  return {
    id: r.id,
    name: r.name,
    type: r.type === 'file' ? 'file' : 'ip',
    timezone: r.timezone,
    state: r.state as Device['state'],
    state_reason: r.state_reason,
    stream_config: JSON.parse(r.stream_config) as StreamConfig,
    credentials: { username: creds.username ?? null, has_password: Boolean(creds.password) },
    storage_config: { ...DEFAULT_STORAGE, ...(JSON.parse(r.storage_config) as object) } as Device['storage_config'],
    share_with_platform: r.share_with_platform !== 0,
    plate_reader: plateReaderConfig(r.plate_reader),
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}
