// The OAuth 2.1 authorization server (docs/oauth-mcp.md); its access tokens for the main API are
// accepted as the person's by the session store.
import { defineFeature } from '../plugins/feature.js';
import { loadOauthKeys } from './oauth-keys.js';
import { OauthServer } from './oauth-server.js';
import { loadOidcProvider } from './load-oidc-provider.js';
import { hashStoredOauthSecrets } from './oauth-secrets-at-rest.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    oauth: OauthServer;
  }
}

export const oauthFeature = defineFeature({
  name: 'oauth',
  needs: ['config', 'db', 'secrets'],
  offers: ['oauth'],
  build: async ({ config, db, secrets }, app) => {
    // Tokens, codes and client secrets stored before they were hashed are hashed now (idempotent).
    const hashed = await hashStoredOauthSecrets(db);
    if (hashed > 0) app.log.info({ hashed }, 'oauth: hashed stored tokens and client secrets');
    return {
      oauth: new OauthServer(
        await loadOidcProvider(),
        config,
        db,
        await loadOauthKeys({ dataDir: config.dataDir, json: config.oauthKeysJson, secrets }),
        app.log,
      ),
    };
  },
});
