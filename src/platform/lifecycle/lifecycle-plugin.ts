// Deletion hooks: what each feature removes (stored objects) before a camera or project row goes.
import { defineFeature } from '../plugins/feature.js';
import { DeletionHooks } from './deletion-hooks.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    deletionHooks: DeletionHooks;
  }
}

export const lifecycleFeature = defineFeature({
  name: 'lifecycle',
  needs: [],
  offers: ['deletionHooks'],
  build: () => ({ deletionHooks: new DeletionHooks() }),
});
