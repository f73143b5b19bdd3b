// The media hub: clips, timelapses and compares rendered by ffmpeg as background jobs (started with the
// app unless the configuration turns them off), uploads and links. Camera and project deletions
// remove the items' stored files (their rows go by cascade).
import { defineFeature } from '../plugins/feature.js';
import { MediaJobRunner } from './job-runner.js';
import { MediaHubService } from './media-hub-service.js';
import { MediaItemsRepository } from './media-items-repository.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    mediaHub: MediaHubService;
    /** The background renders. */
    mediaJobs: MediaJobRunner;
  }
}

export const mediaHubFeature = defineFeature({
  name: 'media-hub',
  needs: ['config', 'db', 'storage', 'snapshotIndex', 'deletionHooks', 'notifications', 'workLeases', 'outbox'],
  offers: ['mediaHub', 'mediaJobs'],
  build: ({ config, db, storage, snapshotIndex, deletionHooks, notifications, workLeases, outbox }, app) => {
    const repo = new MediaItemsRepository(db);
    const render = { ffmpegPath: config.ffmpegPath, storage, snapshotIndex, maxFrames: config.mediaMaxFrames };
    // The requester hears when a render ends, either way.
    const mediaJobs = new MediaJobRunner(
      repo,
      render,
      { concurrency: config.mediaConcurrency, pollMs: config.mediaPollMs },
      app.log,
      workLeases,
      async (row) => {
        if (!row.requester_id || (row.kind !== 'clip' && row.kind !== 'compare' && row.kind !== 'timelapse')) return;
        const ok = row.status === 'completed';
        const message = ok ? `Your ${row.kind} “${row.title}” is ready` : `Your ${row.kind} “${row.title}” could not be made: ${row.error ?? 'unknown error'}`;
        await notifications.notify(row.requester_id, `${row.kind}_${ok ? 'created' : 'failed'}`, message, {
          project_exid: row.project_exid,
          camera_exid: row.camera_exid,
          item_id: row.id,
        });
      },
      outbox,
    );
    const mediaHub = new MediaHubService(repo, storage, mediaJobs, snapshotIndex, { publicUrl: config.publicUrl, fileMaxBytes: config.mediaFileMaxBytes });
    deletionHooks.onCameraDelete('media hub files', async (camera) => {
      await mediaHub.removeObjects({ cameraId: camera.id });
    });
    deletionHooks.onProjectDelete('media hub files', async (project) => {
      await mediaHub.removeObjects({ projectId: project.id });
    });
    // Stopping aborts running ffmpeg renders; registered after recordings, so stopped before them.
    if (config.mediaJobs) app.addHook('onReady', async () => mediaJobs.start());
    app.addHook('onClose', async () => mediaJobs.stop());
    return { mediaHub, mediaJobs };
  },
});
