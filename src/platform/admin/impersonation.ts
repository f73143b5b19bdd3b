// Impersonation: a platform admin signs in as another person to see what they see. The session is an
// ordinary one marked with the admin (`sessions.impersonator_id`, and the JWT's `act` claim), so it
// shows in that person's active sessions and in the audit log, and the access layer refuses it what
// only the owner may do (API keys, password, administration). Short-lived, ended by the admin at will.
import type { Db } from '../../lib/db/index.js';
import { toBool } from '../../lib/db/index.js';
import { ApiError } from '../../lib/errors.js';
import type { SessionStore } from '../auth/session-store.js';
import type { AuditContext, AuditLog } from '../audit/audit-log.js';
import { findUserById, toUserRecord } from '../users/user-record.js';

export class ImpersonationService {
  constructor(
    private readonly db: Db,
    private readonly sessions: SessionStore,
    private readonly audit: AuditLog,
    private readonly lifetimeMinutes: number,
  ) {}

  async start(ctx: AuditContext, targetId: string) {
    const adminId = ctx.actorUserId;
    if (!adminId) throw new ApiError('UNAUTHORIZED', 'Sign in first');
    const target = await findUserById(this.db, targetId);
    if (!target) throw new ApiError('NOT_FOUND', 'User not found');
    if (target.id === adminId) throw new ApiError('CONFLICT', 'You cannot impersonate yourself');
    // Acting as another admin would hand over their administration rights: refused.
    if (toBool(target.is_admin)) throw new ApiError('PERMISSION_DENIED', 'Platform administrators cannot be impersonated');
    if (target.disabled_at) throw new ApiError('CONFLICT', 'A disabled account cannot be impersonated');
    const admin = (await findUserById(this.db, adminId))!;
    const session = await this.sessions.create(
      target.id,
      { ip: ctx.ip ?? undefined, userAgent: ctx.userAgent ?? undefined },
      { impersonatorId: adminId, lifetimeMs: this.lifetimeMinutes * 60_000 },
    );
    await this.audit.record(ctx, {
      action: 'impersonation.started',
      subjectUserId: target.id,
      target: { type: 'session', id: session.sessionId },
      details: { user_email: target.email, admin_email: admin.email, expires_at: session.expiresAt },
    });
    return {
      token: session.token,
      session_id: session.sessionId,
      expires_at: session.expiresAt,
      user: toUserRecord(target),
      impersonator: { id: admin.id, email: admin.email },
    };
  }

  /** Live impersonated sessions, newest first. */
  async list() {
    const now = new Date().toISOString();
    return this.db.kysely
      .selectFrom('sessions')
      .innerJoin('users as u', 'u.id', 'sessions.user_id')
      .innerJoin('users as a', 'a.id', 'sessions.impersonator_id')
      .select(['sessions.id as session_id', 'sessions.created_at', 'sessions.expires_at', 'sessions.last_seen_at', 'u.id as user_id', 'u.email as user_email', 'a.id as impersonator_id', 'a.email as impersonator_email'])
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', now)
      .orderBy('sessions.created_at', 'desc')
      .execute();
  }

  async end(ctx: AuditContext, sessionId: string): Promise<void> {
    const row = await this.db.kysely.selectFrom('sessions').select(['id', 'user_id', 'impersonator_id', 'revoked_at']).where('id', '=', sessionId).executeTakeFirst();
    if (!row || !row.impersonator_id) throw new ApiError('NOT_FOUND', 'No impersonated session with that id');
    if (row.revoked_at) throw new ApiError('CONFLICT', 'That impersonation has already ended');
    await this.sessions.revokeById(sessionId);
    await this.audit.record(ctx, {
      action: 'impersonation.ended',
      subjectUserId: row.user_id,
      target: { type: 'session', id: sessionId },
      details: { impersonator_id: row.impersonator_id },
    });
  }
}
