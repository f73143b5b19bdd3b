// The administration services (issue 7), built once with the platform's other services.
import { Agent } from 'undici';
import type { PlatformConfig } from '../../lib/config.js';
import type { Db } from '../../lib/db/index.js';
import type { AccessDirectory } from '../access/directory.js';
import type { KeyStore } from '../api-keys/key-store.js';
import type { SessionStore } from '../auth/session-store.js';
import { OidcSignIn } from '../auth/oidc-sign-in.js';
import type { AuditLog } from '../audit/audit-log.js';
import { UpstreamProxy } from '../proxy/upstream-proxy.js';
import { AdminService } from './admin-service.js';
import { ImpersonationService } from './impersonation.js';

export interface AdminServices {
  /** The audit log every security-relevant change is written to. */
  audit: AuditLog;
  /** Platform administration: people, projects, cameras, keys, statistics. */
  admin: AdminService;
  impersonation: ImpersonationService;
  /** Sign-in through external OpenID Connect providers. */
  oidc: OidcSignIn;
  /** The CRM and CMS pass-through proxies, and the connection pool they share (closed with the app). */
  proxies: { crm: UpstreamProxy; cms: UpstreamProxy; pool: Agent };
}

export function createAdminServices(
  config: PlatformConfig,
  db: Db,
  deps: { sessions: SessionStore; keys: KeyStore; directory: AccessDirectory; audit: AuditLog },
): AdminServices {
  const a = config.admin;
  const pool = new Agent({ connect: { timeout: a.proxyTimeoutMs }, maxRedirections: 0 } as ConstructorParameters<typeof Agent>[0]);
  return {
    audit: deps.audit,
    admin: new AdminService(db, deps.sessions, deps.keys, deps.directory, deps.audit),
    impersonation: new ImpersonationService(db, deps.sessions, deps.audit, a.impersonationMinutes),
    oidc: new OidcSignIn(db, deps.sessions, deps.audit, a, config.publicUrl),
    proxies: {
      crm: new UpstreamProxy('crm', a.crm, a.proxyTimeoutMs, a.proxyMaxBytes, pool),
      cms: new UpstreamProxy('cms', a.cms, a.proxyTimeoutMs, a.proxyMaxBytes, pool),
      pool,
    },
  };
}
