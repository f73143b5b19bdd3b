// What other features use of the audit log: recording events and the schemas of an audit page.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export { AuditLog, SYSTEM_CONTEXT, auditContext } from './audit-log.js';
export type { AuditContext } from './audit-log.js';
export { countAuditEventsSince } from './audit-repository.js';
export { AuditPage, AuditQueryString, auditQuery } from './audit-schemas.js';
