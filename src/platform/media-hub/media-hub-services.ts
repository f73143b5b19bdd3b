// Builds the media hub (repository, job runner, service) and registers what camera and project
// deletions must remove: the items' stored files (their rows go by cascade).
import type { FastifyBaseLogger } from 'fastify';
import type { PlatformConfig } from '../../lib/config.js';
import type { Db } from '../../lib/db/index.js';
import type { DeletionHooks } from '../lifecycle/deletion-hooks.js';
import type { SnapshotIndex } from '../recordings/snapshot-index.js';
import type { ObjectStore } from '../storage/object-store.js';
import type { NotificationsService } from '../notifications/notifications-service.js';
import { MediaItemsRepository } from './media-items-repository.js';
import { MediaJobRunner } from './job-runner.js';
import { MediaHubService } from './media-hub-service.js';

export interface MediaHubServices {
  mediaHub: MediaHubService;
  /** The background renders; started and stopped with the app (OVERLOOK_MEDIA_JOBS=0: not in this process). */
  mediaJobs: MediaJobRunner;
}

export function createMediaHubServices(
  config: PlatformConfig,
  db: Db,
  deps: { storage: ObjectStore; snapshotIndex: SnapshotIndex; deletionHooks: DeletionHooks; notifications: NotificationsService },
  log: FastifyBaseLogger,
): MediaHubServices {
  const repo = new MediaItemsRepository(db);
  const mediaJobs = new MediaJobRunner(repo, { ffmpegPath: config.ffmpegPath, storage: deps.storage, snapshotIndex: deps.snapshotIndex, maxFrames: config.mediaMaxFrames }, config.mediaConcurrency, log);
  const mediaHub = new MediaHubService(repo, deps.storage, mediaJobs, { publicUrl: config.publicUrl, fileMaxBytes: config.mediaFileMaxBytes });
  // The requester hears when a render ends, either way.
  mediaJobs.onFinished = async (row) => {
    if (!row.requester_id || (row.kind !== 'clip' && row.kind !== 'compare' && row.kind !== 'timelapse')) return;
    const ok = row.status === 'completed';
    const message = ok ? `Your ${row.kind} “${row.title}” is ready` : `Your ${row.kind} “${row.title}” could not be made: ${row.error ?? 'unknown error'}`;
    await deps.notifications.notify(row.requester_id, `${row.kind}_${ok ? 'created' : 'failed'}`, message, { project_exid: row.project_exid, camera_exid: row.camera_exid, item_id: row.id });
  };
  deps.deletionHooks.onCameraDelete('media hub files', async (camera) => {
    await mediaHub.removeObjects({ cameraId: camera.id });
  });
  deps.deletionHooks.onProjectDelete('media hub files', async (project) => {
    await mediaHub.removeObjects({ projectId: project.id });
  });
  return { mediaHub, mediaJobs };
}
