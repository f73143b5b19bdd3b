// Devices: ip cameras (RTSP main/sub stream, snapshot URI, credentials) and file sources, their
// storage settings, and their state, which the recording manager keeps up to date.
import type { RecorderDb } from '../db/recorder-db.js';
import type { RecorderSecrets } from '../db/sealed-secrets.js';
import type { DevicesTable } from '../db/schema.js';
import { ApiError, validation } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { isTimeZone } from '../../lib/time-zone.js';
import { DEFAULT_STORAGE, toDevice, type Device, type DeviceState, type SourceSpec, type StorageConfig, type StreamConfig } from './device-record.js';
import { checkSchedule } from './schedule.js';
import { confined, mediaFile, whyNotVideo } from './source-file.js';
import { mergePlateReader, plateReaderConfig, type PlateReaderConfig, type PlateReaderInput } from '../plate-settings/index.js';

export interface DeviceInput {
  name?: string;
  type?: 'ip' | 'file';
  timezone?: string;
  stream_config?: StreamConfig;
  credentials?: { username?: string; password?: string };
  storage_config?: StorageConfig;
  share_with_platform?: boolean;
  plate_reader?: PlateReaderInput;
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
    /** The only folder file devices may play from. */
    private readonly mediaDir: string,
    /** Credentials are stored sealed (db/sealed-secrets.ts). */
    private readonly secrets: RecorderSecrets,
  ) {}

  private toDevice(row: DevicesTable): Device {
    return toDevice(row, this.secrets.openCredentials(row.id, row.credentials));
  }

  private async row(id: string): Promise<DevicesTable> {
    const row = await this.db.kysely.selectFrom('devices').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new ApiError('NOT_FOUND', 'Device not found');
    return row;
  }

  async get(id: string): Promise<Device> {
    return this.toDevice(await this.row(id));
  }

  async exists(id: string): Promise<boolean> {
    return (await this.db.kysely.selectFrom('devices').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  /** How many devices are in each state (docs/deploy.md, Metrics). */
  async countByState(): Promise<Map<string, number>> {
    const rows = await this.db.kysely
      .selectFrom('devices')
      .select((eb) => ['state', eb.fn.countAll<number | string>().as('n')])
      .groupBy('state')
      .execute();
    return new Map(rows.map((r) => [r.state, Number(r.n)]));
  }

  async list(): Promise<Device[]> {
    return (await this.db.kysely.selectFrom('devices').selectAll().orderBy('created_at').orderBy('id').execute()).map((r) => this.toDevice(r));
  }

  /** What to record for a device: the main stream or file, with credentials. */
  async source(id: string): Promise<SourceSpec | null> {
    const row = await this.db.kysely.selectFrom('devices').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return null;
    const stream = JSON.parse(row.stream_config) as StreamConfig;
    const creds = this.secrets.openCredentials(row.id, row.credentials);
    if (row.type === 'file') {
      // Checked again at every start: the file (or a folder on its way) may have become a link out of
      // the media folder. A file missing inside it is left to ffmpeg, whose error becomes the device's reason.
      const input = stream.path ? confined(this.mediaDir, stream.path) : null;
      return input ? { type: 'file', input } : null;
    }
    return stream.stream_uri ? { type: 'ip', input: stream.stream_uri, username: creds.username, password: creds.password } : null;
  }

  /** The device's plate-reader settings, with defaults. */
  async plateReader(id: string): Promise<PlateReaderConfig> {
    return plateReaderConfig((await this.row(id)).plate_reader);
  }

  async credentials(id: string): Promise<{ username?: string; password?: string }> {
    const row = await this.row(id);
    return this.secrets.openCredentials(row.id, row.credentials);
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
      if (!stream.path) throw validation('stream_config.path', `a file device needs the path of a video file in the media folder ${this.mediaDir}`);
      if (stream.stream_uri || stream.sub_stream_uri || stream.snapshot_uri) throw validation('stream_config', 'a file device has only a path');
      const why = await whyNotVideo(this.ffprobe, mediaFile(this.mediaDir, stream.path));
      if (why) throw validation('stream_config.path', why);
    }
    const oldCreds = current ? this.secrets.openCredentials(current.id, current.credentials) : {};
    const creds = input.credentials
      ? { username: input.credentials.username ?? oldCreds.username, password: input.credentials.password ?? oldCreds.password }
      : oldCreds;
    const storage = { ...DEFAULT_STORAGE, ...(current ? JSON.parse(current.storage_config) : {}), ...(input.storage_config ?? {}) };
    const bad = checkSchedule(storage.schedule);
    if (bad) throw validation('storage_config.schedule', bad);
    const share = input.share_with_platform ?? (current ? current.share_with_platform !== 0 : true);
    const plate_reader = input.plate_reader ? mergePlateReader(current?.plate_reader ?? null, input.plate_reader) : (current?.plate_reader ?? null);
    return {
      name,
      type,
      timezone,
      stream_config: JSON.stringify(stream),
      creds,
      storage_config: JSON.stringify(storage),
      share_with_platform: share ? 1 : 0,
      plate_reader,
    };
  }

  async create(input: DeviceInput): Promise<Device> {
    const { creds, ...fields } = await this.checked(input);
    const now = new Date().toISOString();
    const id = newId();
    const row: DevicesTable = {
      id,
      state: 'stopped',
      state_reason: null,
      created_at: now,
      updated_at: now,
      ...fields,
      credentials: this.secrets.sealCredentials(id, creds),
    };
    await this.db.kysely.insertInto('devices').values(row).execute();
    return this.toDevice(row);
  }

  async update(id: string, input: DeviceInput): Promise<Device> {
    const current = await this.row(id);
    if (input.type && input.type !== current.type) throw validation('type', 'cannot change; create a new device');
    const { creds, ...fields } = await this.checked(input, current);
    await this.db.kysely
      .updateTable('devices')
      .set({ ...fields, credentials: this.secrets.sealCredentials(id, creds), updated_at: new Date().toISOString() })
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
