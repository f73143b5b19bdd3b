// Query and answer shapes shared by the two readers of the audit log: a person's own events
// (`GET /v2/users/audit`) and the whole log for platform admins (`GET /v2/admin/audit`).
import { Type } from 'typebox';
import { validation } from '../../lib/errors.js';
import { Nullable, StringEnum } from '../../lib/http/schemas.js';
import { PageMeta, PageQuery } from '../../lib/http/pagination.js';
import type { AuditQuery } from './audit-log.js';
import type { AuditOutcome } from './audit-tables.js';
import { parseRfc3339 } from '../../lib/time/read-time.js';

export const AuditQueryString = {
  action: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z_]+(\\.[a-z_]+|\\.\\*)?$', description: 'An action (auth.login), or a family (auth.*)' }),
  ),
  outcome: Type.Optional(StringEnum(['success', 'failure', 'refused'])),
  target_type: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
  target_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'From this time (inclusive)' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Until this time (exclusive)' })),
  ...PageQuery,
};

const AuditEvent = Type.Object({
  id: Type.String(),
  created_at: Type.String(),
  action: Type.String(),
  outcome: Type.String(),
  actor_user_id: Nullable(Type.String()),
  actor_key_id: Nullable(Type.String()),
  impersonator_id: Nullable(Type.String()),
  subject_user_id: Nullable(Type.String()),
  target_type: Nullable(Type.String()),
  target_id: Nullable(Type.String()),
  ip: Nullable(Type.String()),
  user_agent: Nullable(Type.String()),
  details: Type.Record(Type.String(), Type.Unknown()),
});

export const AuditPage = Type.Object({ meta: PageMeta, data: Type.Array(AuditEvent) });

const iso = (field: string, v: string | undefined) => {
  if (v === undefined) return undefined;
  const t = parseRfc3339(v);
  if (!t) throw validation(field, 'must be an RFC 3339 date-time, e.g. 2026-05-01T08:00:00Z');
  return t.toISOString();
};

export function auditQuery(q: {
  action?: string;
  outcome?: AuditOutcome;
  target_type?: string;
  target_id?: string;
  from?: string;
  to?: string;
  page?: number;
  page_size?: number;
}): AuditQuery {
  const from = iso('from', q.from);
  const to = iso('to', q.to);
  if (from && to && from >= to) throw validation('to', 'must be after from');
  return { action: q.action, outcome: q.outcome, targetType: q.target_type, targetId: q.target_id, from, to, page: q.page ?? 1, pageSize: q.page_size ?? 50 };
}
