// The audit feature's table: one row per security-relevant event. Never holds a key value, password or token.
import { json, nullable, oneOf, table, text, timestamp, type TableType, type TablesType } from '../../lib/db/table.js';

const auditEvents = table({
  id: text(),
  created_at: timestamp(),
  /** e.g. auth.login, api_key.created, admin.user_disabled */
  action: text(),
  outcome: oneOf(['success', 'failure', 'refused']),
  actor_user_id: nullable(text()),
  actor_key_id: nullable(text()),
  /** The admin behind an impersonated session. */
  impersonator_id: nullable(text()),
  /** Whose account the event concerns (the owner of a key, the person signed in…). */
  subject_user_id: nullable(text()),
  target_type: nullable(text()),
  target_id: nullable(text()),
  ip: nullable(text()),
  user_agent: nullable(text()),
  /** Object, scrubbed of secrets. */
  details: json(),
});
export type AuditEventsTable = TableType<typeof auditEvents>;
export type AuditOutcome = AuditEventsTable['outcome'];

export const auditTables = { audit_events: auditEvents };
export type AuditTables = TablesType<typeof auditTables>;
