// Platform administration (docs/admin.md): people, projects, cameras and keys across the platform,
// impersonation, and the CRM and CMS pass-through proxies with the connection pool they share.
import { Agent } from 'undici';
import { defineFeature } from '../plugins/feature.js';
import { UpstreamProxy } from '../proxy/index.js';
import { AdminService } from './admin-service.js';
import { ImpersonationService } from './impersonation.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    admin: AdminService;
    impersonation: ImpersonationService;
    proxies: { crm: UpstreamProxy; cms: UpstreamProxy };
  }
}

export const adminFeature = defineFeature({
  name: 'admin',
  needs: ['config', 'db', 'sessions', 'caches', 'audit', 'oauth'],
  offers: ['admin', 'impersonation', 'proxies'],
  build: ({ config, db, sessions, caches, audit, oauth }, app) => {
    const a = config.admin;
    const pool = new Agent({ connect: { timeout: a.proxyTimeoutMs }, maxRedirections: 0 } as ConstructorParameters<typeof Agent>[0]);
    app.addHook('onClose', async () => pool.close());
    return {
      admin: new AdminService(db, sessions, caches, audit, oauth),
      impersonation: new ImpersonationService(db, sessions, audit, a.impersonationMinutes),
      proxies: {
        crm: new UpstreamProxy('crm', a.crm, a.proxyTimeoutMs, a.proxyMaxBytes, pool),
        cms: new UpstreamProxy('cms', a.cms, a.proxyTimeoutMs, a.proxyMaxBytes, pool),
      },
    };
  },
});
