// The picture checks: every frame the recordings store is queued for analysis on the node that stored
// it, from ready to close (docs/analysis.md).
import { defineFeature } from '../plugins/feature.js';
import { PictureChecksService } from './picture-checks-service.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    /** Picture checks, thresholds, reference views and the activity timeline. */
    pictureChecks: PictureChecksService;
  }
}

export const pictureChecksFeature = defineFeature({
  name: 'picture-checks',
  needs: ['db', 'caches', 'storage', 'notifications', 'outbox', 'storedFrames'],
  offers: ['pictureChecks'],
  build: ({ db, caches, storage, notifications, outbox, storedFrames }, app) => {
    const pictureChecks = new PictureChecksService(db, storage, { notifications, outbox, caches }, app.log);
    storedFrames.onStored((frame) => pictureChecks.frameStored(frame));
    storedFrames.onExpired((cameraId, cutoff) => pictureChecks.framesExpired(cameraId, cutoff));
    app.addHook('onClose', async () => pictureChecks.close());
    return { pictureChecks };
  },
});
