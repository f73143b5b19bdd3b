// What happens when a picture check starts or stops failing (docs/analysis.md, Faults and the camera's
// status): in the transaction of the state change, the camera's picture status follows and a
// `camera.picture_fault` event is recorded for webhooks, MQTT and e-mail; once committed, the project's members
// get an in-app notification. This is the one place such a change is announced.
import type { FastifyBaseLogger } from 'fastify';
import type { CacheRegistry } from '../../lib/cache/index.js';
import type { PlatformDb } from '../database.js';
import { cameraRefsByIds, updateCamera } from '../cameras/index.js';
import { membersOf } from '../members/index.js';
import type { NotificationsService } from '../notifications/index.js';
import type { Outbox } from '../outbox/index.js';
import { projectRowById } from '../projects/index.js';
import type { CheckChange } from './frame-analysis.js';
import { statesOf } from './picture-checks-repository.js';

const WHAT: Record<CheckChange['check'], string> = {
  black: 'black or blown out',
  frozen: 'frozen',
  blurred: 'blurred or covered',
  moved: 'moved from its reference view',
};

export interface FaultEventsDeps {
  db: PlatformDb;
  notifications: NotificationsService;
  outbox: Outbox;
  caches: CacheRegistry;
  log: FastifyBaseLogger;
}

interface CameraOfChange {
  id: string;
  exid: string;
  name: string;
  projectId: string;
  projectExid: string;
}

export class PictureFaultEvents {
  constructor(private readonly deps: FaultEventsDeps) {}

  private async camera(db: PlatformDb, cameraId: string): Promise<CameraOfChange | null> {
    const camera = (await cameraRefsByIds(db, [cameraId])).get(cameraId);
    const project = camera && (await projectRowById(db, camera.project_id));
    return camera && project ? { id: camera.id, exid: camera.exid, name: camera.name, projectId: project.id, projectExid: project.exid } : null;
  }

  /**
   * Inside the transaction that stored the new check states: sets the camera's picture status from
   * them and records one event per change in `news` (the changes worth telling).
   */
  async record(tx: PlatformDb, cameraId: string, news: readonly CheckChange[]): Promise<void> {
    const camera = await this.camera(tx, cameraId);
    if (!camera) return;
    const states = await statesOf(tx, cameraId);
    const pictureStatus = states.some((s) => s.state === 'fault') ? 'fault' : 'ok';
    await updateCamera(tx, cameraId, { picture_status: pictureStatus });
    for (const c of news) {
      await this.deps.outbox.record(tx, {
        type: 'camera.picture_fault',
        projectExid: camera.projectExid,
        cameraExid: camera.exid,
        data: { camera_exid: camera.exid, check: c.check, state: c.state, since: c.since, picture_status: pictureStatus },
      });
    }
  }

  /** After the commit: the camera record is read afresh, and the members are notified of each change. */
  async announce(cameraId: string, news: readonly CheckChange[]): Promise<void> {
    const camera = await this.camera(this.deps.db, cameraId);
    if (!camera) return;
    await this.deps.caches.forget([{ kind: 'camera', id: camera.exid }]);
    if (news.length === 0) return;
    const members = await membersOf(this.deps.db, camera.projectId);
    for (const c of news) {
      const message =
        c.state === 'fault'
          ? `Camera ${camera.name}: the picture is ${WHAT[c.check]} since ${c.since}`
          : `Camera ${camera.name}: the picture is no longer ${WHAT[c.check]}`;
      const context = { camera_exid: camera.exid, project_exid: camera.projectExid, check: c.check, state: c.state, since: c.since };
      for (const m of members) await this.deps.notifications.notify(m.user_id, 'camera_status_changed', message, context);
      this.deps.log.info(context, 'picture check changed');
    }
  }
}
