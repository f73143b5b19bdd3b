// Builds the BIM services (`app.platform.bim`) and registers what a camera's deletion must remove:
// the capture and layer images in the object store (the rows follow the camera by cascade).
import type { PlatformConfig } from '../../lib/config.js';
import type { Db } from '../../lib/db/index.js';
import type { CamerasService } from '../cameras/cameras-service.js';
import type { DeletionHooks } from '../lifecycle/deletion-hooks.js';
import type { ObjectStore } from '../storage/object-store.js';
import type { BimContext } from './bim-context.js';
import { BimCapturesService } from './bim-captures-service.js';
import { BimLayersService } from './bim-layers-service.js';
import { objectKeysOf } from './bim-repository.js';

export interface BimServices {
  /** Captures, nearest-for-a-date, pending renders and camera parameters. */
  captures: BimCapturesService;
  layers: BimLayersService;
}

export function createBimServices(
  config: Pick<PlatformConfig, 'bim'>,
  db: Db,
  hooks: DeletionHooks,
  deps: () => { storage: ObjectStore; cameras: CamerasService },
): BimServices {
  const ctx: BimContext = { db, limits: config.bim, deps };
  hooks.onCameraDelete('BIM images', async (camera) => {
    const keys = await objectKeysOf(db, camera.id);
    for (let i = 0; i < keys.length; i += 500) await deps().storage.delete(keys.slice(i, i + 500));
  });
  return { captures: new BimCapturesService(ctx), layers: new BimLayersService(ctx) };
}
