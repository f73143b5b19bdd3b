// API keys: the store the access layer reads keys from, and the service behind /v2/api-keys.
import { defineFeature } from '../plugins/feature.js';
import { ApiKeysService } from './api-keys-service.js';
import { KeyGuard } from './key-guard.js';
import { KeyStore } from './key-store.js';
import { LeakReports } from './leak-report.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    /** Active keys by hash, for the access layer; `last_used_at` written behind. */
    keys: KeyStore;
    /** Per-key rate limits and address allow-lists, and the leak report's per-address throttle. */
    keyGuard: KeyGuard;
    apiKeys: ApiKeysService;
    /** POST /v2/api-keys/leaks: leaked values revoke their keys. */
    leakReports: LeakReports;
  }
}

export const apiKeysFeature = defineFeature({
  name: 'api-keys',
  needs: ['db', 'audit', 'caches', 'notifications', 'outbox'],
  offers: ['keys', 'keyGuard', 'apiKeys', 'leakReports'],
  build: ({ db, audit, caches, notifications, outbox }, app) => {
    const guard = new KeyGuard(db, app.log);
    guard.start();
    const keys = new KeyStore(db, app.log, caches, guard);
    app.addHook('onClose', async () => {
      guard.stop();
      await keys.flush();
    });
    return {
      keys,
      keyGuard: guard,
      apiKeys: new ApiKeysService(db, caches, audit),
      leakReports: new LeakReports(db, caches, notifications, app.log, outbox, audit),
    };
  },
});
