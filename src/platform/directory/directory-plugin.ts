// The access directory: who holds which role on which project, and the project of each camera.
import { defineFeature } from '../plugins/feature.js';
import { AccessDirectory } from './directory.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    directory: AccessDirectory;
  }
}

export const directoryFeature = defineFeature({
  name: 'access-directory',
  needs: ['db', 'caches'],
  offers: ['directory'],
  build: ({ db, caches }) => ({ directory: new AccessDirectory(db, caches) }),
});
