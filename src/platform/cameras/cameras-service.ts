// Cameras: created by a project's admins, seen by its members, checked for real through their connection.
// Camera rows are cached by exid (the hottest read of the API); every write forgets the camera
// (docs/architecture.md, Caches).
import type { Cache, CacheFact, CacheRegistry } from '../../lib/cache/index.js';
import type { PlatformDb } from '../database.js';
import { ApiError, validation } from '../../lib/errors.js';
import type { Role } from '../access/index.js';
import type { CamerasTable } from './cameras-tables.js';
import { isTimeZone, makeExid, projectRowByIdOrThrow } from '../projects/index.js';
import type { ConnectionDetails, HealthResult } from './connection/camera-connection.js';
import { toCameraRecord, type CameraRecord, type CameraRow } from './camera-record.js';
import type { CameraConnections } from './connection/connections.js';
import { listReadings, recordReading, voltageSummary, type ReadingFilter } from './battery-readings-repository.js';
import { DEFAULT_SIM_STATE, type SimState } from './connection/simulated-camera.js';
import * as repo from './cameras-repository.js';
import { newId } from '../../lib/ids.js';
import { inTransaction } from '../../lib/db/transaction.js';
import type { Outbox } from '../outbox/index.js';
import { isOutboundRefused, type OutboundGuard, REFUSED_BY_POLICY } from '../../lib/net/outbound-guard.js';

export interface NewCamera {
  name: string;
  project: { id: string; exid: string };
  simulated?: boolean;
  /** A device of a linked site recorder: no connection of its own (docs/site-link.md). */
  linked?: boolean;
  timezone?: string;
  location?: { lat: number; lng: number };
  is_public?: boolean;
  connection?: ConnectionDetails;
}

const HEALTH_TTL_MS = 5000;
/** How long a cached camera row may lag a change another process made (this one's own changes forget it at once). */
const CAMERA_TTL_MS = 60_000;

const cameraFacts = (exid: string): CacheFact[] => [{ kind: 'camera', id: exid }];
/** A camera row or record also shows its project's name: a project update drops it too. */
const cameraAndProjectFacts = (exid: string, camera: { project_exid: string }): CacheFact[] => [
  { kind: 'camera', id: exid },
  { kind: 'project-details', id: camera.project_exid },
];

function checkUrl(value: string | undefined, field: string, protocols: string[]): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw validation(field, 'must be a URL');
  }
  if (!protocols.includes(url.protocol)) throw validation(field, `must use ${protocols.join(' or ')}`);
  if (url.username || url.password) throw validation(field, 'must not carry credentials; use username and password');
  return url.toString();
}

/**
 * A URL whose host resolves to an address the platform may not reach on a tenant's behalf is refused,
 * saying nothing of what is there. A name that does not resolve (yet) is accepted: it is checked again
 * at every connection (docs/security.md, Outbound connections).
 */
async function checkAllowed(guard: OutboundGuard, url: string | undefined, field: string): Promise<void> {
  if (url === undefined) return;
  try {
    await guard.checkUrl(url);
  } catch (err) {
    if (isOutboundRefused(err)) throw validation(field, REFUSED_BY_POLICY);
  }
}

/** A real camera's connection details, checked (creation and the settings' connection endpoint). */
export async function checkConnection(c: ConnectionDetails, guard: OutboundGuard): Promise<ConnectionDetails> {
  const connection: ConnectionDetails = {
    snapshot_url: checkUrl(c.snapshot_url, 'snapshot_url', ['http:', 'https:']),
    rtsp_url: checkUrl(c.rtsp_url, 'rtsp_url', ['rtsp:', 'rtsps:']),
    onvif_url: checkUrl(c.onvif_url, 'onvif_url', ['http:', 'https:']),
    username: c.username,
    password: c.password,
  };
  if (!connection.snapshot_url && !connection.rtsp_url && !connection.onvif_url) {
    throw validation('snapshot_url', 'a real camera needs a snapshot_url, an onvif_url or an rtsp_url (or send "simulated": true)');
  }
  await checkAllowed(guard, connection.snapshot_url, 'snapshot_url');
  await checkAllowed(guard, connection.rtsp_url, 'rtsp_url');
  await checkAllowed(guard, connection.onvif_url, 'onvif_url');
  return connection;
}

export class CamerasService {
  private readonly rows: Cache<string, CameraRow>;
  private readonly records: Cache<string, CameraRecord>;
  private readonly health: Cache<string, HealthResult>;

  constructor(
    private readonly db: PlatformDb,
    private readonly caches: CacheRegistry,
    private readonly connections: CameraConnections,
    /** `camera.status_changed` is recorded with the status (docs/notifications.md). */
    private readonly outbox: Outbox,
  ) {
    this.rows = caches.create<string, CameraRow>('cameras.rows', { max: 20_000, ttlMs: CAMERA_TTL_MS, facts: cameraAndProjectFacts });
    this.records = caches.create<string, CameraRecord>('cameras.records', { max: 20_000, ttlMs: CAMERA_TTL_MS, facts: cameraAndProjectFacts });
    this.health = caches.create('cameras.health', { max: 20_000, ttlMs: HEALTH_TTL_MS, facts: cameraFacts });
  }

  async create(authorId: string, input: NewCamera): Promise<CameraRecord> {
    const name = input.name.trim();
    if (!name) throw validation('name', 'must not be blank');
    const project = await projectRowByIdOrThrow(this.db, input.project.id);
    const timezone = input.timezone ?? project.timezone;
    if (!isTimeZone(timezone)) throw validation('timezone', `unknown time zone ${timezone}`);
    let connection: ConnectionDetails = {};
    if (!input.simulated && !input.linked) {
      connection = await checkConnection(input.connection ?? {}, this.connections.guard);
    }
    let exid = makeExid(name);
    for (let i = 0; i < 5 && (await repo.exidTaken(this.db, exid)); i++) exid = makeExid(name);
    const now = new Date().toISOString();
    await repo.insertCamera(this.db, {
      id: newId(),
      exid,
      project_id: input.project.id,
      name,
      kind: input.linked ? 'linked' : input.simulated ? 'simulated' : 'ip',
      status: 'waiting',
      timezone,
      lat: input.location?.lat ?? null,
      lng: input.location?.lng ?? null,
      is_public: input.is_public ? 1 : 0,
      connection: JSON.stringify(connection),
      sim_state: JSON.stringify(input.simulated ? DEFAULT_SIM_STATE : {}),
      last_online_at: null,
      last_checked_at: null,
      created_at: now,
      updated_at: now,
    });
    // Nothing should be cached of a new exid (a deleted camera's may come again): forgotten on every node to be sure.
    await this.caches.forget(cameraFacts(exid));
    void authorId;
    return this.get(exid);
  }

  /** The camera row, from the cache when present. */
  async row(exid: string): Promise<CameraRow> {
    const row = await this.rows.load(exid, async () => (await repo.cameraByExid(this.db, exid)) ?? undefined);
    if (!row) throw new ApiError('NOT_FOUND', 'Camera not found');
    return row;
  }

  async get(exid: string): Promise<CameraRecord> {
    return this.records.load(exid, async () => toCameraRecord(await this.row(exid)));
  }

  async list(visible: ReadonlyMap<string, Role>, onlyProject?: string): Promise<CameraRecord[]> {
    const ids = onlyProject ? (visible.has(onlyProject) ? [onlyProject] : []) : [...visible.keys()];
    return (await repo.camerasOfProjects(this.db, ids)).map(toCameraRecord);
  }

  /** The project's cameras as references (exid, name, status), by name. */
  refsOfProject(projectId: string) {
    return repo.cameraRefsOf(this.db, projectId);
  }

  /** How many cameras each of the given projects has (absent: none); project lists show it. */
  countsOf(projectIds: readonly string[]): Promise<Map<string, number>> {
    return repo.cameraCountsOf(this.db, projectIds);
  }

  /** A real check through the camera's connection, at most every few seconds per camera. */
  async checkHealth(exid: string): Promise<HealthResult> {
    const cached = this.health.get(exid);
    if (cached && Date.now() - Date.parse(cached.checked_at) < HEALTH_TTL_MS) return cached;
    const row = await this.row(exid);
    // A linked camera is reached only through its recorder's link, which keeps its status.
    if (row.kind === 'linked') {
      const up = row.status === 'online' || row.status === 'recording';
      return {
        status: up ? 'online' : 'offline',
        checked_at: row.last_checked_at ?? row.created_at,
        latency_ms: 0,
        reason: up ? null : 'the device or its site link is down',
        battery: null,
      };
    }
    const result = await this.connections.connect(row).check();
    const set: { status: CamerasTable['status']; last_checked_at: string; updated_at: string; last_online_at?: string } = {
      status: result.status,
      last_checked_at: result.checked_at,
      updated_at: result.checked_at,
    };
    if (result.status === 'online') set.last_online_at = result.checked_at;
    await inTransaction(this.db, async (tx) => {
      // The stored status, not the cached row's: a change is told once, whichever node saw it.
      const before = (await repo.cameraByExid(tx, exid))?.status;
      await repo.updateCamera(tx, row.id, set);
      if (before !== undefined && before !== result.status)
        await this.outbox.record(tx, {
          type: 'camera.status_changed',
          projectExid: row.project_exid,
          cameraExid: exid,
          data: { camera_exid: exid, status: result.status, previous_status: before, reason: result.reason ?? null, checked_at: result.checked_at },
        });
    });
    if (result.battery) await recordReading(this.db, row.id, new Date(result.checked_at), result.battery.voltage, result.battery.percentage);
    await this.caches.forget(cameraFacts(exid));
    this.health.set(exid, result);
    return result;
  }

  /** Sets a linked camera's status as its device and link report it; the status it had, or null when unchanged. */
  async setLinkedStatus(exid: string, status: 'online' | 'offline' | 'recording', at = new Date().toISOString()): Promise<CamerasTable['status'] | null> {
    const row = await repo.cameraByExid(this.db, exid);
    if (row?.kind !== 'linked' || row.status === status) return null;
    const set: { status: CamerasTable['status']; last_checked_at: string; updated_at: string; last_online_at?: string } = {
      status,
      last_checked_at: at,
      updated_at: at,
    };
    if (status !== 'offline') set.last_online_at = at;
    await inTransaction(this.db, async (tx) => {
      await repo.updateCamera(tx, row.id, set);
      // Told to integrations and e-mail like a health check's change (docs/notifications.md).
      await this.outbox.record(tx, {
        type: 'camera.status_changed',
        projectExid: row.project_exid,
        cameraExid: exid,
        data: {
          camera_exid: exid,
          status,
          previous_status: row.status,
          reason: status === 'offline' ? 'the device or its site link is down' : null,
          checked_at: at,
        },
      });
    });
    await this.caches.forget(cameraFacts(exid));
    return row.status;
  }

  /** Renames a linked camera after its device (a camera of any other kind is renamed in its settings). */
  async renameLinked(exid: string, name: string): Promise<void> {
    const row = await repo.cameraByExid(this.db, exid);
    if (row?.kind !== 'linked' || row.name === name) return;
    await repo.updateCamera(this.db, row.id, { name, updated_at: new Date().toISOString() });
    await this.caches.forget(cameraAndProjectFacts(exid, row));
  }

  async lastPublicNote(exid: string) {
    const row = await this.row(exid);
    const note = await repo.lastPublicNote(this.db, row.id);
    if (!note) throw new ApiError('NOT_FOUND', 'This camera has no public note');
    return note;
  }

  async addNote(exid: string, authorId: string, input: { content: string; is_public?: boolean }) {
    const row = await this.row(exid);
    const content = input.content.trim();
    if (!content) throw validation('content', 'must not be blank');
    const note = { id: newId(), camera_id: row.id, author_id: authorId, content, is_public: input.is_public ? 1 : 0, created_at: new Date().toISOString() };
    await repo.insertNote(this.db, note);
    return { id: note.id, content, is_public: !!input.is_public, created_at: note.created_at };
  }

  async projectReadings(projectId: string, f: ReadingFilter) {
    const cams = await repo.camerasOfProject(this.db, projectId);
    return listReadings(
      this.db,
      cams.map((c) => c.id),
      f,
    );
  }

  async cameraReadings(exid: string, f: ReadingFilter) {
    return listReadings(this.db, [(await this.row(exid)).id], f);
  }

  async voltageSummary(exid: string, range: { from?: string; to?: string }) {
    return voltageSummary(this.db, (await this.row(exid)).id, range);
  }

  /** Stores the simulated camera's state (PTZ position, presets) and drops the cached row. */
  async saveSimState(exid: string, state: SimState): Promise<void> {
    const row = await this.row(exid);
    if (row.kind !== 'simulated') throw new ApiError('BAD_REQUEST', 'Only the simulated camera keeps its state here');
    await repo.updateCamera(this.db, row.id, { sim_state: JSON.stringify(state), updated_at: new Date().toISOString() });
    await this.caches.forget(cameraFacts(exid));
  }
}
