// The audit log: every security-relevant change and sampled key refusals (docs/admin.md).
import { defineFeature } from '../plugins/feature.js';
import { AuditLog } from './audit-log.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    audit: AuditLog;
  }
}

export const auditFeature = defineFeature({
  name: 'audit',
  needs: ['db'],
  offers: ['audit'],
  build: ({ db }, app) => ({ audit: new AuditLog(db, app.log) }),
});
