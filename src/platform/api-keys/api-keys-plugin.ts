// API keys: the store the access layer reads keys from, and the service behind /v2/api-keys.
import { defineFeature } from '../plugins/feature.js';
import { ApiKeysService } from './api-keys-service.js';
import { KeyStore } from './key-store.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    /** Active keys by hash, for the access layer; `last_used_at` written behind. */
    keys: KeyStore;
    apiKeys: ApiKeysService;
  }
}

export const apiKeysFeature = defineFeature({
  name: 'api-keys',
  needs: ['db', 'audit', 'caches'],
  offers: ['keys', 'apiKeys'],
  build: ({ db, audit, caches }, app) => {
    const keys = new KeyStore(db, app.log, caches);
    app.addHook('onClose', async () => keys.flush());
    return { keys, apiKeys: new ApiKeysService(db, caches, audit) };
  },
});
