// The access explainer ("test this key"): what the access layer would decide for a key, through the
// same routes and decision function. Registered after the access layer, whose route registry it reads.
import { defineFeature } from '../plugins/feature.js';
import { AccessExplainer } from './explain.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    explainer: AccessExplainer;
  }
}

export const explainerFeature = defineFeature({
  name: 'access-explainer',
  needs: ['registeredRoutes', 'directory', 'keyGuard'],
  offers: ['explainer'],
  build: ({ registeredRoutes, directory, keyGuard }) => ({ explainer: new AccessExplainer(registeredRoutes, directory, keyGuard) }),
});
