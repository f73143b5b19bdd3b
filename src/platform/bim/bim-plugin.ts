// BIM of cameras: model renders by date, pending renders, camera parameters and overlay layers. A
// camera's deletion removes their images from the object store (the rows follow by cascade).
import { defineFeature } from '../plugins/feature.js';
import type { BimContext } from './bim-context.js';
import { BimCapturesService } from './bim-captures-service.js';
import { BimLayersService } from './bim-layers-service.js';
import { objectKeysOf } from './bim-repository.js';

interface BimServices {
  /** Captures, nearest-for-a-date, pending renders and camera parameters. */
  captures: BimCapturesService;
  layers: BimLayersService;
}

declare module '../plugins/feature.js' {
  interface PlatformServices {
    bim: BimServices;
  }
}

export const bimFeature = defineFeature({
  name: 'bim',
  needs: ['config', 'db', 'deletionHooks', 'storage', 'cameras'],
  offers: ['bim'],
  build: ({ config, db, deletionHooks, storage, cameras }) => {
    const ctx: BimContext = { db, limits: config.bim, deps: { storage, cameras } };
    deletionHooks.onCameraDelete('BIM images', async (camera) => {
      const keys = await objectKeysOf(db, camera.id);
      for (let i = 0; i < keys.length; i += 500) await storage.delete(keys.slice(i, i + 500));
    });
    return { bim: { captures: new BimCapturesService(ctx), layers: new BimLayersService(ctx) } };
  },
});
