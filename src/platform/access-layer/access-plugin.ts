// The access layer as a plugin: registered after every service and before any route, so its onRoute
// hook sees (and classifies) every route of the app. Offers the registry of routes with their
// policies, from which the scope map, the OpenAPI `x-scopes` and the explainer are derived.
import { defineFeature } from '../plugins/feature.js';
import type { RegisteredRoute } from '../access/index.js';
import { accessLayer } from './hook.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    /** Every route registered on the app, with its access policy. */
    registeredRoutes: RegisteredRoute[];
  }
}

export const accessFeature = defineFeature({
  name: 'access-layer',
  needs: ['keys', 'sessions', 'directory', 'audit', 'mediaTokens', 'ingestionTokens', 'recorderLinks', 'nodeRelay'],
  offers: ['registeredRoutes'],
  build: async ({ keys, sessions, directory, audit, mediaTokens, ingestionTokens, recorderLinks, nodeRelay }, app) => {
    const registeredRoutes: RegisteredRoute[] = [];
    // One verifier per purpose-bound token kind, from the feature that issues the tokens.
    const tokenVerifiers = { media: mediaTokens.verifier(), ingestion: ingestionTokens.verifier, link: recorderLinks.verifier, node: nodeRelay.verifier };
    await app.register(accessLayer({ keys, sessions, directory, audit, tokenVerifiers }, registeredRoutes));
    return { registeredRoutes };
  },
});
