// Devices: ip cameras (RTSP main/sub stream, snapshot URI, credentials) and file sources, their
// storage settings, and their state, which the recording manager keeps up to date.
import { existsSync, statSync } from 'node:fs';
import type { RecorderDb } from '../db/recorder-db.js';
import type { DevicesTable } from '../db/schema.js';
import { ApiError, validation } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { isTimeZone } from '../../lib/time-zone.js';
import { probeVideo } from '../recording/ffprobe.js';
import type { SourceSpec } from '../recording/ffmpeg-args.js';
import type { DeviceState } from '../recording/device-recorder.js';
import { DEFAULT_STORAGE, toDevice, type Device, type StorageConfig, type StreamConfig } from './device-record.js';
import { checkSchedule } from './schedule.js';

export interface DeviceInput {
  name?: string;
  type?: 'ip' | 'file';
  timezone?: string;
  stream_config?: StreamConfig;
  credentials?: { username?: string; password?: string };
  storage_config?: StorageConfig;
}

function checkUri(field: string, value: string | undefined, protocols: string[]): void {
  if (value === undefined) return;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw validation(field, 'is not a URL');
  }
  if (!protocols.includes(u.protocol)) throw validation(field, `must be a ${protocols.map((p) => p.replace(':', '')).join(' or ')} URL`);
}

export class DevicesService {
  constructor(
    private readonly db: RecorderDb,
    private readonly ffprobe: string,
  ) {}

  private async row(id: string): Promise<DevicesTable> {
    const row = await this.db.kysely.selectFrom('devices').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new ApiError('NOT_FOUND', 'Device not found');
    return row;
  }

  async get(id: string): Promise<Device> {
    return toDevice(await this.row(id));
  }

  async exists(id: string): Promise<boolean> {
    return (await this.db.kysely.selectFrom('devices').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  async list(): Promise<Device[]> {
    return (await this.db.kysely.selectFrom('devices').selectAll().orderBy('created_at').orderBy('id').execute()).map(toDevice);
  }

  /** What to record for a device: the main stream or file, with credentials. */
  async source(id: string): Promise<SourceSpec | null> {
    const row = await this.db.kysely.selectFrom('devices').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return null;
    const stream = JSON.parse(row.stream_config) as StreamConfig;
    const creds = JSON.parse(row.credentials) as { username?: string; password?: string };
    if (row.type === 'file') return stream.path ? { type: 'file', input: stream.path } : null;
    return stream.stream_uri ? { type: 'ip', input: stream.stream_uri, username: creds.username, password: creds.password } : null;
  }

  async credentials(id: string): Promise<{ username?: string; password?: string }> {
    return JSON.parse((await this.row(id)).credentials);
  }

  private async checked(input: DeviceInput, current?: DevicesTable) {
    const type = input.type ?? (current?.type as 'ip' | 'file' | undefined);
    if (!type) throw validation('type', 'is required (ip or file)');
    const name = (input.name ?? current?.name ?? '').trim();
    if (!name) throw validation('name', 'must not be blank');
    const timezone = input.timezone ?? current?.timezone ?? 'UTC';
    if (!isTimeZone(timezone)) throw validation('timezone', `${timezone} is not an IANA time zone`);
    const stream: StreamConfig = input.stream_config ?? (current ? JSON.parse(current.stream_config) : {});
    if (type === 'ip') {
      if (!stream.stream_uri) throw validation('stream_config.stream_uri', 'an ip device needs the RTSP URI of its main stream');
      checkUri('stream_config.stream_uri', stream.stream_uri, ['rtsp:', 'rtsps:']);
      checkUri('stream_config.sub_stream_uri', stream.sub_stream_uri, ['rtsp:', 'rtsps:']);
      checkUri('stream_config.snapshot_uri', stream.snapshot_uri, ['http:', 'https:']);
      if (stream.path) throw validation('stream_config.path', 'only a file device has a path');
    } else {
      if (!stream.path) throw validation('stream_config.path', 'a file device needs the path of a video file on the recorder');
      if (!stream.path.startsWith('/')) throw validation('stream_config.path', 'must be an absolute path');
      if (!existsSync(stream.path) || !statSync(stream.path).isFile()) throw validation('stream_config.path', 'no such file on the recorder');
      if (!(await probeVideo({ ffprobe: this.ffprobe }, stream.path))) throw validation('stream_config.path', 'ffprobe finds no video stream in that file');
      if (stream.stream_uri || stream.sub_stream_uri || stream.snapshot_uri) throw validation('stream_config', 'a file device has only a path');
    }
    const oldCreds = current ? (JSON.parse(current.credentials) as { username?: string; password?: string }) : {};
    const creds = input.credentials
      ? { username: input.credentials.username ?? oldCreds.username, password: input.credentials.password ?? oldCreds.password }
      : oldCreds;
    const storage = { ...DEFAULT_STORAGE, ...(current ? JSON.parse(current.storage_config) : {}), ...(input.storage_config ?? {}) };
    const bad = checkSchedule(storage.schedule);
    if (bad) throw validation('storage_config.schedule', bad);
    return { name, type, timezone, stream_config: JSON.stringify(stream), credentials: JSON.stringify(creds), storage_config: JSON.stringify(storage) };
  }

  async create(input: DeviceInput): Promise<Device> {
    const fields = await this.checked(input);
    const now = new Date().toISOString();
    const row: DevicesTable = { id: newId(), state: 'stopped', state_reason: null, created_at: now, updated_at: now, ...fields };
    await this.db.kysely.insertInto('devices').values(row).execute();
    return toDevice(row);
  }

  async update(id: string, input: DeviceInput): Promise<Device> {
    const current = await this.row(id);
    if (input.type && input.type !== current.type) throw validation('type', 'cannot change; create a new device');
    const fields = await this.checked(input, current);
    await this.db.kysely
      .updateTable('devices')
      .set({ ...fields, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
    return this.get(id);
  }

  async remove(id: string): Promise<void> {
    await this.row(id);
    await this.db.kysely.deleteFrom('devices').where('id', '=', id).execute();
  }

  async setState(id: string, state: DeviceState, reason: string | null): Promise<void> {
    await this.db.kysely.updateTable('devices').set({ state, state_reason: reason }).where('id', '=', id).execute();
  }
}
