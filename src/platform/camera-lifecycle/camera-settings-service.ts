// A camera's settings as its project's admins change them: name, location, time zone, visibility,
// connection (write-only credentials), cloud recording (through the recordings' own service), and
// deletion. Every change drops the camera's cached facts; a connection change also stops its live
// stream, so the next viewer gets the new address. Changes are audit events on the camera.
import { Type, type Static } from 'typebox';
import type { PlatformDb } from '../database.js';
import { ApiError, validation } from '../../lib/errors.js';
import { Nullable, StringEnum } from '../../lib/http/schemas.js';
import { toBool } from '../../lib/db/index.js';
import {
  type CamerasTable,
  type ConnectionDetails,
  type HealthResult,
  type CameraConnections,
  checkConnection,
  type CamerasService,
} from '../cameras/index.js';
import { SYSTEM_CONTEXT, type AuditLog } from '../audit/index.js';
import * as cameraRepo from '../cameras/index.js';
import type { DeletionHooks } from '../lifecycle/index.js';
import { isTimeZone, type SettingsActor } from '../projects/index.js';
import { RecordingSettings, type RecordingSettingsService, type RecordingSettingsUpdate } from '../recordings/index.js';
import type { CameraTeardown } from './camera-teardown.js';
import type { CacheRegistry } from '../../lib/cache/index.js';

const ConnectionView = Type.Object(
  {
    snapshot_url: Nullable(Type.String()),
    rtsp_url: Nullable(Type.String()),
    onvif_url: Nullable(Type.String()),
    username: Nullable(Type.String()),
    password_set: Type.Boolean({ description: 'Whether a password is stored; the password itself is never returned' }),
  },
  { $id: 'CameraConnectionView' },
);

export const CameraSettings = Type.Object(
  {
    exid: Type.String(),
    name: Type.String(),
    kind: StringEnum(['simulated', 'ip', 'linked']),
    timezone: Type.String(),
    location: Nullable(Type.Object({ lat: Type.Number(), lng: Type.Number() })),
    heading: Nullable(Type.Number({ description: 'Degrees from north the camera looks at' })),
    fov: Nullable(Type.Number({ description: 'Horizontal field of view in degrees' })),
    is_public: Type.Boolean(),
    project_exid: Type.String(),
    connection: Nullable(ConnectionView),
    recording: RecordingSettings,
    updated_at: Type.String(),
  },
  { $id: 'CameraSettings' },
);
export type CameraSettings = Static<typeof CameraSettings>;

/** The connection body: URLs and user name replace the stored ones; `password` left out keeps the stored one, null clears it. */
export interface ConnectionInput {
  snapshot_url?: string | null;
  rtsp_url?: string | null;
  onvif_url?: string | null;
  username?: string | null;
  password?: string | null;
}

const parseConnection = (text: string): ConnectionDetails => {
  try {
    return JSON.parse(text) as ConnectionDetails;
  } catch {
    return {};
  }
};

export class CameraSettingsService {
  constructor(
    private readonly db: PlatformDb,
    private readonly cameras: CamerasService,
    private readonly connections: CameraConnections,
    private readonly recordings: RecordingSettingsService,
    private readonly audit: AuditLog,
    private readonly hooks: DeletionHooks,
    private readonly teardown: CameraTeardown,
    private readonly caches: CacheRegistry,
  ) {}

  async get(exid: string): Promise<CameraSettings> {
    const row = await this.cameras.row(exid);
    const full = await cameraRepo.cameraSettingsExtras(this.db, row.id);
    const c = parseConnection(row.connection);
    return {
      exid: row.exid,
      name: row.name,
      kind: row.kind,
      timezone: row.timezone,
      location: row.lat !== null && row.lng !== null ? { lat: row.lat, lng: row.lng } : null,
      heading: full?.heading ?? null,
      fov: full?.fov ?? null,
      is_public: toBool(row.is_public),
      project_exid: row.project_exid,
      connection:
        row.kind !== 'ip'
          ? null
          : {
              snapshot_url: c.snapshot_url ?? null,
              rtsp_url: c.rtsp_url ?? null,
              onvif_url: c.onvif_url ?? null,
              username: c.username ?? null,
              password_set: !!c.password,
            },
      recording: await this.recordings.get(exid),
      updated_at: full?.updated_at ?? row.created_at,
    };
  }

  private async change(
    actor: SettingsActor,
    exid: string,
    set: Partial<CamerasTable>,
    what: string,
    details: Record<string, unknown>,
  ): Promise<CameraSettings> {
    const row = await this.cameras.row(exid);
    await cameraRepo.updateCamera(this.db, row.id, { ...set, updated_at: new Date().toISOString() });
    await this.caches.forget([{ kind: 'camera', id: exid }]);
    await this.record(actor, `camera.${what}`, { type: 'camera', id: exid }, { project_exid: row.project_exid, ...details });
    return this.get(exid);
  }

  async rename(actor: SettingsActor, exid: string, name: string): Promise<CameraSettings> {
    const clean = name.trim();
    if (!clean) throw validation('name', 'must not be blank');
    const before = (await this.cameras.row(exid)).name;
    return this.change(actor, exid, { name: clean }, 'renamed', { from: before, to: clean });
  }

  async locate(actor: SettingsActor, exid: string, location: { lat: number; lng: number } | null): Promise<CameraSettings> {
    if (location && (!(location.lat >= -90 && location.lat <= 90) || !(location.lng >= -180 && location.lng <= 180)))
      throw validation('location', 'lat must be within ±90 and lng within ±180');
    return this.change(actor, exid, { lat: location?.lat ?? null, lng: location?.lng ?? null }, 'location_changed', { location });
  }

  async orient(actor: SettingsActor, exid: string, input: { heading?: number | null; fov?: number | null }): Promise<CameraSettings> {
    const set: Partial<CamerasTable> = {};
    if (input.heading !== undefined) {
      if (input.heading !== null && !(input.heading >= 0 && input.heading < 360)) throw validation('heading', 'must be from 0 (north) to below 360 degrees');
      set.heading = input.heading;
    }
    if (input.fov !== undefined) {
      if (input.fov !== null && !(input.fov > 0 && input.fov <= 360)) throw validation('fov', 'must be above 0 and at most 360 degrees');
      set.fov = input.fov;
    }
    if (Object.keys(set).length === 0) throw validation('heading', 'give heading, fov or both');
    return this.change(actor, exid, set, 'orientation_changed', { ...set });
  }

  async setTimezone(actor: SettingsActor, exid: string, timezone: string): Promise<CameraSettings> {
    if (!isTimeZone(timezone)) throw validation('timezone', `unknown time zone ${timezone}`);
    const before = (await this.cameras.row(exid)).timezone;
    const out = await this.change(actor, exid, { timezone }, 'timezone_changed', { from: before, to: timezone });
    // The recorder's schedule windows are in the camera's local time: let it reload.
    const row = await this.cameras.row(exid);
    this.recordings.onChange(row.id);
    return out;
  }

  async setVisibility(actor: SettingsActor, exid: string, isPublic: boolean): Promise<CameraSettings> {
    return this.change(actor, exid, { is_public: isPublic ? 1 : 0 }, 'visibility_changed', { is_public: isPublic });
  }

  /** The details a connection body describes, starting from what is stored (for the password). */
  private async resolveConnection(exid: string, input: ConnectionInput): Promise<ConnectionDetails> {
    const row = await this.cameras.row(exid);
    const stored = row.kind === 'simulated' ? {} : parseConnection(row.connection);
    const username = input.username === undefined ? undefined : (input.username ?? undefined);
    // A password is write-only: a client cannot send it back, so leaving it out keeps it (unless the user name changes).
    let password: string | undefined;
    if (input.password === null) password = undefined;
    else if (input.password !== undefined) password = input.password;
    else if (username === stored.username) password = stored.password;
    if (password !== undefined && username === undefined) throw validation('username', 'a password needs a username');
    return checkConnection(
      {
        snapshot_url: input.snapshot_url ?? undefined,
        rtsp_url: input.rtsp_url ?? undefined,
        onvif_url: input.onvif_url ?? undefined,
        username,
        password,
      },
      this.connections.guard,
    );
  }

  /** Replaces the connection; a simulated camera becomes a real IP camera. The live stream restarts on next view. */
  async setConnection(actor: SettingsActor, exid: string, input: ConnectionInput): Promise<CameraSettings> {
    const row = await this.cameras.row(exid);
    if (row.kind === 'linked')
      throw new ApiError('CONFLICT', 'A linked camera is reached through its site recorder and has no connection of its own (docs/site-link.md)');
    const details = await this.resolveConnection(exid, input);
    await this.teardown.stop(exid);
    await this.caches.forget([{ kind: 'camera-stream', id: exid }]);
    const clean = JSON.parse(JSON.stringify(details)) as ConnectionDetails;
    return this.change(actor, exid, { connection: JSON.stringify(clean), kind: 'ip', status: 'waiting' }, 'connection_changed', {
      from_kind: row.kind,
      snapshot_url: clean.snapshot_url ?? null,
      rtsp_url: clean.rtsp_url ?? null,
      onvif_url: clean.onvif_url ?? null,
      // Never the values; and named so the audit log's credential scrubbing keeps the fact.
      login: clean.password ? 'username and password' : clean.username ? 'username only' : 'none',
    });
  }

  /** Tries connection details (the stored ones when the body is empty) without saving them. */
  async checkConnection(exid: string, input: ConnectionInput | undefined): Promise<HealthResult & { tested: 'stored' | 'given' }> {
    const row = await this.cameras.row(exid);
    if (!input || Object.keys(input).length === 0) return { ...(await this.connections.connect(row).check()), tested: 'stored' };
    const details = await this.resolveConnection(exid, input);
    return { ...(await this.connections.connect({ ...row, kind: 'ip', connection: JSON.stringify(details) }).check()), tested: 'given' };
  }

  recording(exid: string) {
    return this.recordings.get(exid);
  }

  async setRecording(actor: SettingsActor, exid: string, input: RecordingSettingsUpdate) {
    const out = await this.recordings.update(exid, actor.userId, input);
    await this.record(actor, 'camera.recording_changed', { type: 'camera', id: exid }, { ...input });
    return out;
  }

  history(exid: string, q: { page: number; pageSize: number }) {
    return this.audit.list({ targetType: 'camera', targetId: exid, page: q.page, pageSize: q.pageSize });
  }

  /** Runs every feature's camera hook (stored objects), stops its stream, deletes the row (rows cascade). */
  async delete(actor: SettingsActor, exid: string): Promise<void> {
    const row = await this.cameras.row(exid);
    await this.hooks.beforeCameraDelete({ id: row.id, exid: row.exid, projectId: row.project_id });
    await this.teardown.stop(exid);
    await this.caches.forget([{ kind: 'camera-stream', id: exid }]);
    await cameraRepo.deleteCamera(this.db, row.id);
    // Its recorded frames' rows go by cascade, those a capture added after the deletion hooks too.
    await this.caches.forget([
      { kind: 'camera', id: exid },
      { kind: 'camera-snapshots', id: row.id },
    ]);
    this.recordings.onChange(row.id);
    // On the project, so the project's history shows it once the camera is gone.
    await this.record(
      actor,
      'camera.deleted',
      { type: 'project', id: row.project_exid },
      { project_exid: row.project_exid, camera_exid: exid, name: row.name },
    );
  }

  private record(actor: SettingsActor, action: string, target: { type: string; id: string }, details: Record<string, unknown>) {
    return this.audit.record(actor.audit ?? { ...SYSTEM_CONTEXT, actorUserId: actor.userId }, { action, target, details });
  }
}
