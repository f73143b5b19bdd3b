// What happens when a picture check starts or stops failing (docs/analysis.md, Faults and the camera's
// status): the project's members get an in-app notification. This is the one place such a change is
// announced, so the outbox event `camera.picture_fault` is recorded here too once messages out exist.
import type { FastifyBaseLogger } from 'fastify';
import type { PlatformDb } from '../database.js';
import { cameraRefsByIds } from '../cameras/index.js';
import { membersOf } from '../members/index.js';
import type { NotificationsService } from '../notifications/index.js';
import { projectRowById } from '../projects/index.js';
import type { CheckChange } from './frame-analysis.js';

const WHAT: Record<CheckChange['check'], string> = {
  black: 'black or blown out',
  frozen: 'frozen',
  blurred: 'blurred or covered',
  moved: 'moved from its reference view',
};

export interface FaultEventsDeps {
  db: PlatformDb;
  notifications: NotificationsService;
  log: FastifyBaseLogger;
}

/** Announces the checks of one camera that changed state with one frame. */
export async function pictureFaultsChanged(deps: FaultEventsDeps, cameraId: string, changes: readonly CheckChange[]): Promise<void> {
  if (changes.length === 0) return;
  const camera = (await cameraRefsByIds(deps.db, [cameraId])).get(cameraId);
  if (!camera) return;
  const project = await projectRowById(deps.db, camera.project_id);
  if (!project) return;
  const members = await membersOf(deps.db, project.id);
  for (const c of changes) {
    const message =
      c.state === 'fault'
        ? `Camera ${camera.name}: the picture is ${WHAT[c.check]} since ${c.since}`
        : `Camera ${camera.name}: the picture is no longer ${WHAT[c.check]}`;
    const context = { camera_exid: camera.exid, project_exid: project.exid, check: c.check, state: c.state, since: c.since };
    for (const m of members) await deps.notifications.notify(m.user_id, 'camera_status_changed', message, context);
    deps.log.info(context, 'picture check changed');
  }
}
