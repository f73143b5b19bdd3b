// Impersonation: a platform admin signs in as another person to see what they see. The session is an
// ordinary one marked with the admin (`sessions.impersonator_id`, and the JWT's `act` claim), so it
// shows in that person's active sessions and in the audit log, and the access layer refuses it what
// only the owner may do (API keys, password, administration). Short-lived, ended by the admin at will.
import type { PlatformDb } from '../database.js';
import { toBool } from '../../lib/db/index.js';
import { ApiError } from '../../lib/errors.js';
import { type SessionStore, liveImpersonations, sessionById } from '../auth/index.js';
import type { AuditContext, AuditLog } from '../audit/index.js';
import { toUserRecord, emailsOf, findUserById } from '../users/index.js';

export class ImpersonationService {
  constructor(
    private readonly db: PlatformDb,
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
    const sessions = await liveImpersonations(this.db, now);
    const emails = await emailsOf(
      this.db,
      sessions.flatMap((s) => [s.user_id, s.impersonator_id!]),
    );
    // Sessions of people since deleted are left out, as the joins on users did.
    return sessions.flatMap((s) => {
      const userEmail = emails.get(s.user_id);
      const impersonatorEmail = emails.get(s.impersonator_id!);
      if (userEmail === undefined || impersonatorEmail === undefined) return [];
      return [
        {
          session_id: s.id,
          created_at: s.created_at,
          expires_at: s.expires_at,
          last_seen_at: s.last_seen_at,
          user_id: s.user_id,
          user_email: userEmail,
          impersonator_id: s.impersonator_id!,
          impersonator_email: impersonatorEmail,
        },
      ];
    });
  }

  async end(ctx: AuditContext, sessionId: string): Promise<void> {
    const row = await sessionById(this.db, sessionId);
    if (!row?.impersonator_id) throw new ApiError('NOT_FOUND', 'No impersonated session with that id');
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
