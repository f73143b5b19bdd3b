// The OAuth 2.1 authorization server (docs/oauth-mcp.md); its access tokens for the main API are
// accepted as the person's by the session store.
import { defineFeature } from '../plugins/feature.js';
import { loadOauthKeys } from './oauth-keys.js';
import { OauthServer } from './oauth-server.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    oauth: OauthServer;
  }
}

export const oauthFeature = defineFeature({
  name: 'oauth',
  needs: ['config', 'db', 'secrets'],
  offers: ['oauth'],
  build: async ({ config, db, secrets }, app) => ({
    oauth: new OauthServer(config, db, await loadOauthKeys({ dataDir: config.dataDir, json: config.oauthKeysJson, secrets }), app.log),
  }),
});
