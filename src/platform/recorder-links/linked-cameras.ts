// A linked recorder's devices as cameras of the link's project (docs/site-link.md, Cameras): each device
// in a `devices` message becomes a camera of kind `linked`, named as the device; its status follows the
// device's state while the link is up, and is offline when the link is down or the device left the
// list (the camera and its recordings stay). Each change of status tells the project's members.
import type { FastifyBaseLogger } from 'fastify';
import type { SharedDevice } from '../../lib/site-link/protocol.js';
import { cameraRefsByIds, type CamerasService } from '../cameras/index.js';
import type { PlatformDb } from '../database.js';
import { membersOf } from '../members/index.js';
import type { NotificationsService } from '../notifications/index.js';
import { isTimeZone } from '../projects/index.js';
import * as repo from './recorder-links-repository.js';

/** A device of a link and the camera it is. */
export interface LinkedDevice {
  deviceId: string;
  cameraId: string;
  cameraExid: string;
  cameraName: string;
  timezone: string;
  /** The device's last reported state, or `gone`. */
  state: string;
}

export interface LinkRef {
  id: string;
  projectId: string;
  projectExid: string;
  /** Who made the link: the cameras' author. */
  createdBy: string | null;
}

type CameraStatus = 'online' | 'offline' | 'recording';

/** A camera's status from its device's state, while the link is up. */
const statusOfState = (state: string): CameraStatus => (state === 'recording' ? 'recording' : state === 'streaming' ? 'online' : 'offline');

export class LinkedCameras {
  constructor(
    private readonly db: PlatformDb,
    private readonly cameras: CamerasService,
    private readonly notifications: NotificationsService,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The link's devices with their cameras (devices whose camera was deleted are left out). */
  async devicesOf(linkId: string): Promise<LinkedDevice[]> {
    const rows = await repo.devicesOfLink(this.db, linkId);
    const refs = await cameraRefsByIds(
      this.db,
      rows.map((r) => r.camera_id),
    );
    return rows.flatMap((r) => {
      const c = refs.get(r.camera_id);
      return c ? [{ deviceId: r.device_id, cameraId: c.id, cameraExid: c.exid, cameraName: c.name, timezone: c.timezone, state: r.state }] : [];
    });
  }

  /** Applies a `devices` message: new devices become cameras, the others follow their state. */
  async sync(link: LinkRef, devices: readonly SharedDevice[]): Promise<LinkedDevice[]> {
    const known = new Map((await this.devicesOf(link.id)).map((d) => [d.deviceId, d]));
    const listed = new Set<string>();
    const now = new Date().toISOString();
    for (const device of devices) {
      if (listed.has(device.id)) continue;
      listed.add(device.id);
      const existing = known.get(device.id);
      if (!existing) {
        await this.adopt(link, device, now);
        continue;
      }
      if (existing.cameraName !== device.name) await this.cameras.renameLinked(existing.cameraExid, device.name);
      if (existing.state !== device.state) await repo.setDeviceState(this.db, link.id, device.id, device.state, now);
      await this.setStatus(link, existing.cameraExid, device.name, statusOfState(device.state));
    }
    for (const gone of known.values()) {
      if (listed.has(gone.deviceId)) continue;
      if (gone.state !== 'gone') await repo.setDeviceState(this.db, link.id, gone.deviceId, 'gone', now);
      await this.setStatus(link, gone.cameraExid, gone.cameraName, 'offline');
    }
    return (await this.devicesOf(link.id)).filter((d) => d.state !== 'gone');
  }

  /** The link went down: every camera of it is offline. */
  async linkDown(link: LinkRef): Promise<void> {
    for (const d of await this.devicesOf(link.id)) await this.setStatus(link, d.cameraExid, d.cameraName, 'offline');
  }

  private async adopt(link: LinkRef, device: SharedDevice, now: string): Promise<void> {
    const camera = await this.cameras.create(link.createdBy ?? '', {
      name: device.name,
      project: { id: link.projectId, exid: link.projectExid },
      linked: true,
      // The device's zone when it names a real one, else the project's.
      timezone: isTimeZone(device.timezone) ? device.timezone : undefined,
    });
    const row = await this.cameras.row(camera.exid);
    await repo.insertDevice(this.db, { link_id: link.id, device_id: device.id, camera_id: row.id, state: device.state, updated_at: now });
    this.log.info({ link: link.id, device: device.id, camera: camera.exid }, 'site link: a device became a camera');
    await this.setStatus(link, camera.exid, device.name, statusOfState(device.state));
  }

  private async setStatus(link: LinkRef, exid: string, name: string, status: CameraStatus): Promise<void> {
    const was = await this.cameras.setLinkedStatus(exid, status);
    // A new camera's first status is no change anyone needs telling about.
    if (was === null || was === 'waiting') return;
    const message = `Camera ${name} is now ${status}`;
    for (const member of await membersOf(this.db, link.projectId)) {
      await this.notifications.notify(member.user_id, 'camera_status_changed', message, { camera_exid: exid, project_exid: link.projectExid, status });
    }
  }
}
