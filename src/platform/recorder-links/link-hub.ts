// The site links connected to this node (docs/site-link.md): it takes a recorder's connection, writes
// itself on the link's row as its holder, and handles what the recorder sends: devices become cameras,
// frames go into the snapshot index at their own time and events into the camera's events, each
// acknowledged once stored. It sends the devices' frame schedules on connect and whenever they change.
// A link forgotten on any node (revoked, taken over, settings changed: the `recorder-link` cache fact
// over the invalidation bus) is checked again here at once; every heartbeat checks it too, in case a
// message of the bus was lost.
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from '@fastify/websocket';
import type { CacheRegistry } from '../../lib/cache/index.js';
import { ApiError } from '../../lib/errors.js';
import { CloseCode, type FrameSchedule, type FromRecorder, type SharedDevice } from '../../lib/site-link/protocol.js';
import type { AnprService } from '../anpr/index.js';
import type { CamerasService } from '../cameras/index.js';
import type { PlatformDb } from '../database.js';
import { projectRowByIdOrThrow } from '../projects/index.js';
import type { RecordingSettingsService, SnapshotWriter } from '../recordings/index.js';
import type { LinkedCameras, LinkedDevice, LinkRef } from './linked-cameras.js';
import { LinkSession } from './link-session.js';
import { linkFact } from './recorder-links-service.js';
import * as repo from './recorder-links-repository.js';
import type { RecorderLinksTable } from './recorder-links-tables.js';

/** Who this node is and where the other nodes reach it (the live view passes requests there). */
export interface NodeIdentity {
  nodeId: string;
  url(): string | null;
}

export interface LinkHubDeps {
  db: PlatformDb;
  caches: CacheRegistry;
  cameras: CamerasService;
  linkedCameras: LinkedCameras;
  writer: SnapshotWriter;
  recordingSettings: RecordingSettingsService;
  anpr: AnprService;
  node: NodeIdentity;
  log: FastifyBaseLogger;
}

interface Held {
  session: LinkSession;
  link: LinkRef;
  /** Device id → its camera, for the devices shared now. */
  devices: Map<string, LinkedDevice>;
}

const hash = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
/** A stable id from a hash, in the UUID shape ids have (the ANPR event of a plate read, for idempotence). */
const idFrom = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;

type Message<T extends FromRecorder['type']> = Extract<FromRecorder, { type: T }>;

export class LinkHub {
  private readonly held = new Map<string, Held>();

  constructor(private readonly deps: LinkHubDeps) {
    deps.caches.onForget((facts) => {
      for (const f of facts) if (f.kind === 'recorder-link' && this.held.has(f.id)) void this.recheck(f.id);
    });
    // A linked camera's recording settings changed (on any node): its link's holder sends the schedules again.
    deps.recordingSettings.onChanged((cameraId) => {
      void repo
        .deviceOfCamera(deps.db, cameraId)
        .then((d) => d && deps.caches.forget([linkFact(d.link_id)]))
        .catch((err) => deps.log.warn({ err }, 'site link: a settings change was not passed on'));
    });
  }

  /** The connection of a link held here, if it is open. */
  sessionOf(linkId: string): LinkSession | null {
    const h = this.held.get(linkId);
    return h?.session.open ? h.session : null;
  }

  /** Takes a recorder's connection for `row` (its credential was verified by the access layer). */
  async accept(socket: WebSocket, row: RecorderLinksTable): Promise<void> {
    if (row.revoked_at) {
      socket.close(CloseCode.REVOKED, 'this site link was revoked');
      return;
    }
    const { db, log, node } = this.deps;
    const project = await projectRowByIdOrThrow(db, row.project_id);
    const link: LinkRef = { id: row.id, projectId: row.project_id, projectExid: project.exid, createdBy: row.created_by };
    const connectionId = randomUUID();
    this.held.get(row.id)?.session.close(CloseCode.REPLACED, 'another connection took this site link over');
    const held: Held = { link, devices: new Map(), session: null as unknown as LinkSession };
    held.session = new LinkSession(
      row.id,
      connectionId,
      socket,
      {
        onMessage: (message, payload) => this.handle(held, message, payload),
        onHeartbeat: () => this.heartbeat(held),
        onClosed: (code) => void this.ended(held, code),
      },
      log,
    );
    this.held.set(row.id, held);
    await repo.holdLink(db, row.id, { connection_id: connectionId, node_id: node.nodeId, node_url: node.url(), last_seen_at: new Date().toISOString() });
    // A connection of this link on another node is replaced by this one.
    await this.deps.caches.forget([linkFact(row.id)]);
    held.session.send({ type: 'welcome', link_id: row.id, project_exid: project.exid });
    for (const d of await this.deps.linkedCameras.devicesOf(row.id)) if (d.state !== 'gone') held.devices.set(d.deviceId, d);
    await this.sendSchedules(held);
    log.info({ link: row.id, node: node.nodeId }, 'site link: recorder connected');
  }

  /** Closes every connection (the node is shutting down; the recorders reconnect elsewhere). */
  closeAll(): void {
    for (const h of this.held.values()) h.session.close(1001, 'the platform node is shutting down');
  }

  private async handle(held: Held, message: Exclude<FromRecorder, { type: 'reply' | 'ping' | 'pong' }>, payload: Buffer | null): Promise<void> {
    switch (message.type) {
      case 'devices':
        return this.devices(held, message);
      case 'frame':
        return this.frame(held, message, payload);
      case 'event':
        return this.event(held, message, payload);
    }
  }

  private async devices(held: Held, message: Message<'devices'>): Promise<void> {
    const shared = await this.deps.linkedCameras.sync(held.link, message.devices as SharedDevice[]);
    held.devices = new Map(shared.map((d) => [d.deviceId, d]));
    await repo.setRecorderVersion(this.deps.db, held.link.id, message.recorder_version);
    await this.sendSchedules(held);
  }

  private async frame(held: Held, message: Message<'frame'>, payload: Buffer | null): Promise<void> {
    const device = held.devices.get(message.device_id);
    if (!payload || !device) {
      // Nothing to keep (no JPEG, or a device not shared): acknowledged so that it is not sent again.
      this.deps.log.warn({ link: held.link.id, device: message.device_id }, 'site link: frame of an unknown device or without a JPEG dropped');
      held.session.send({ type: 'ack', seq: message.seq });
      return;
    }
    try {
      await this.deps.writer.storeOnce(device.cameraId, payload, new Date(message.taken_at), 'schedule');
    } catch (err) {
      if (!(err instanceof ApiError) || err.status >= 500) throw err;
      this.deps.log.warn({ link: held.link.id, device: message.device_id, err: err.message }, 'site link: frame refused');
    }
    held.session.send({ type: 'ack', seq: message.seq });
  }

  private async event(held: Held, message: Message<'event'>, image: Buffer | null): Promise<void> {
    const device = held.devices.get(message.device_id);
    if (!device) {
      held.session.send({ type: 'ack', seq: message.seq });
      return;
    }
    const at = new Date(message.at).toISOString();
    const dedupeKey = hash(`${message.device_id}\n${message.kind}\n${at}\n${JSON.stringify(message.data)}`);
    const { db } = this.deps;
    const row = {
      id: idFrom(hash(`event\n${device.cameraId}\n${dedupeKey}`)),
      camera_id: device.cameraId,
      link_id: held.link.id,
      kind: message.kind,
      at,
      data: JSON.stringify(message.data),
      dedupe_key: dedupeKey,
      anpr_event_id: null,
      created_at: new Date().toISOString(),
    };
    await repo.insertEventOnce(db, row);
    const stored = await repo.eventByKey(db, device.cameraId, dedupeKey);
    if (stored && message.kind === 'plate' && !stored.anpr_event_id) await this.plate(device, stored.id, dedupeKey, at, message.data, image);
    held.session.send({ type: 'ack', seq: message.seq });
  }

  /**
   * A plate read becomes the camera's ANPR event, once: its id comes from the read itself. Its crop is
   * stored as an ingested plate image is; a crop the ANPR feature refuses leaves the read without one.
   */
  private async plate(
    device: LinkedDevice,
    eventId: string,
    dedupeKey: string,
    at: string,
    data: Record<string, unknown>,
    image: Buffer | null,
  ): Promise<void> {
    const { plate, has_plate_image: _sent, plate_image: _inline, ...rest } = data;
    const input = { ...rest, plate_number: typeof plate === 'string' ? plate : undefined, captured_at: at };
    const id = idFrom(hash(`anpr\n${device.cameraId}\n${dedupeKey}`));
    const ingest = (withImage: Buffer | null) => this.deps.anpr.ingest(device.cameraExid, null, input, { id, ...(withImage ? { image: withImage } : {}) });
    const refused = (err: unknown) => err instanceof ApiError && err.status < 500;
    try {
      let anprEvent: Awaited<ReturnType<typeof ingest>>;
      try {
        anprEvent = await ingest(image);
      } catch (err) {
        if (!image || !refused(err)) throw err;
        this.deps.log.warn({ camera: device.cameraExid, err: (err as Error).message }, 'site link: plate crop refused; the read is kept without it');
        anprEvent = await ingest(null);
      }
      await repo.setAnprEvent(this.deps.db, eventId, anprEvent.id);
    } catch (err) {
      // A read the ANPR feature refuses (no plate, bad fields) stays a recorder event only.
      if (!refused(err)) throw err;
      this.deps.log.warn({ camera: device.cameraExid, err: (err as Error).message }, 'site link: plate event not taken as an ANPR event');
    }
  }

  private async sendSchedules(held: Held): Promise<void> {
    const schedules: FrameSchedule[] = [];
    for (const d of held.devices.values()) {
      let settings: Awaited<ReturnType<RecordingSettingsService['get']>>;
      try {
        settings = await this.deps.recordingSettings.get(d.cameraExid);
      } catch (err) {
        if (err instanceof ApiError && err.code === 'NOT_FOUND') continue; // the camera was deleted meanwhile
        throw err;
      }
      const row = await this.deps.cameras.row(d.cameraExid);
      schedules.push({
        device_id: d.deviceId,
        camera_exid: d.cameraExid,
        frequency: settings.status === 'on' ? settings.frequency : 0,
        schedule: settings.schedule,
        timezone: row.timezone,
      });
    }
    held.session.send({ type: 'schedules', schedules });
  }

  private async heartbeat(held: Held): Promise<void> {
    await repo.touchLink(this.deps.db, held.link.id, held.session.connectionId, new Date().toISOString());
    await this.recheck(held.link.id, false);
  }

  /** Checks the link's row again: revoked or taken over ends the connection; else the schedules go again. */
  private async recheck(linkId: string, resend = true): Promise<void> {
    const held = this.held.get(linkId);
    if (!held?.session.open) return;
    try {
      const row = await repo.linkById(this.deps.db, linkId);
      if (!row || row.revoked_at) return held.session.close(CloseCode.REVOKED, 'this site link was revoked');
      if (row.connection_id !== held.session.connectionId) return held.session.close(CloseCode.REPLACED, 'another connection took this site link over');
      if (resend) await this.sendSchedules(held);
    } catch (err) {
      this.deps.log.warn({ err, link: linkId }, 'site link: could not check the link again');
    }
  }

  private async ended(held: Held, code: number): Promise<void> {
    if (this.held.get(held.link.id) === held) this.held.delete(held.link.id);
    try {
      await repo.releaseLink(this.deps.db, held.link.id, held.session.connectionId);
      // Taken over: the cameras stay as the new connection reports them.
      if (code !== CloseCode.REPLACED) await this.deps.linkedCameras.linkDown(held.link);
    } catch (err) {
      this.deps.log.warn({ err, link: held.link.id }, 'site link: the end of a connection was not recorded');
    }
    this.deps.log.info({ link: held.link.id, code }, 'site link: recorder disconnected');
  }
}
