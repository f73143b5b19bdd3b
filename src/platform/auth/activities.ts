// The session activities log: sign-ins, failed sign-ins, sign-outs and revocations, per person.
// Each is also an audit event (`auth.login`, `auth.logout`, `auth.session_revoked`), written here so
// every sign-in path (password, provider) records both the same way.
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../lib/db/index.js';
import { newId } from '../../lib/ids.js';
import { auditContext } from '../audit/audit-log.js';

export type ActivityAction = 'login' | 'login_failed' | 'logout' | 'session_revoked';

const AUDIT: Record<ActivityAction, { action: string; outcome: 'success' | 'failure' }> = {
  login: { action: 'auth.login', outcome: 'success' },
  login_failed: { action: 'auth.login', outcome: 'failure' },
  logout: { action: 'auth.logout', outcome: 'success' },
  session_revoked: { action: 'auth.session_revoked', outcome: 'success' },
};

export async function logActivity(db: Db, req: FastifyRequest, userId: string, action: ActivityAction, sessionId: string | null, details: Record<string, unknown> = {}): Promise<void> {
  const ua = req.headers['user-agent'];
  await db.kysely
    .insertInto('session_activities')
    .values({
      id: newId(),
      user_id: userId,
      session_id: sessionId,
      action,
      ip: req.ip ?? null,
      user_agent: typeof ua === 'string' ? ua.slice(0, 512) : null,
      created_at: new Date().toISOString(),
    })
    .execute();
  const ctx = auditContext(req);
  // At sign-in the caller is not signed in yet: the person signing in is the actor.
  if (action === 'login' || action === 'login_failed') ctx.actorUserId = userId;
  await req.server.platform.audit.record(ctx, {
    ...AUDIT[action],
    subjectUserId: userId,
    target: sessionId ? { type: 'session', id: sessionId } : undefined,
    details: action === 'login' || action === 'login_failed' ? { method: 'password', ...details } : details,
  });
}
