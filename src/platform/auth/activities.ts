// The session activities log: sign-ins, failed sign-ins, sign-outs and revocations, per person.
// Each is also an audit event (`auth.login`, `auth.logout`, `auth.session_revoked`), written here so
// every sign-in path (password, provider) records both the same way.
import type { FastifyRequest } from 'fastify';
import type { PlatformDb } from '../database.js';
import { newId } from '../../lib/ids.js';
import { auditContext, type AuditLog } from '../audit/index.js';
import type { ActivityAction } from './auth-tables.js';
import { insertActivity } from './sessions-repository.js';

const AUDIT: Record<ActivityAction, { action: string; outcome: 'success' | 'failure' }> = {
  login: { action: 'auth.login', outcome: 'success' },
  login_failed: { action: 'auth.login', outcome: 'failure' },
  logout: { action: 'auth.logout', outcome: 'success' },
  session_revoked: { action: 'auth.session_revoked', outcome: 'success' },
};

export async function logActivity(
  { db, audit }: { db: PlatformDb; audit: AuditLog },
  req: FastifyRequest,
  userId: string,
  action: ActivityAction,
  sessionId: string | null,
  details: Record<string, unknown> = {},
): Promise<void> {
  const ua = req.headers['user-agent'];
  await insertActivity(db, {
    id: newId(),
    user_id: userId,
    session_id: sessionId,
    action,
    ip: req.ip ?? null,
    user_agent: typeof ua === 'string' ? ua.slice(0, 512) : null,
    created_at: new Date().toISOString(),
  });
  const ctx = auditContext(req);
  // At sign-in the caller is not signed in yet: the person signing in is the actor.
  if (action === 'login' || action === 'login_failed') ctx.actorUserId = userId;
  await audit.record(ctx, {
    ...AUDIT[action],
    subjectUserId: userId,
    target: sessionId ? { type: 'session', id: sessionId } : undefined,
    details: action === 'login' || action === 'login_failed' ? { method: 'password', ...details } : details,
  });
}
