// The signed-in person's own account: their record, features, roles and permissions, password,
// sessions and the session activities log. It sits above sign-in (auth), the access directory and
// projects, which it reads; the account records themselves are in users/.
import type { PlatformDb } from '../database.js';
import { ApiError, validation } from '../../lib/errors.js';
import { hashPassword, verifyPassword } from '../../lib/auth/passwords.js';
import { pageMeta } from '../../lib/http/pagination.js';
import type { AccessDirectory } from '../directory/index.js';
import { ROLES, roleAllows, type Role, type Principal } from '../access/index.js';
import { type ActivityAction, type SessionStore, type LoginThrottle, activitiesOf, liveSessionsOf, openSessionIdsOf } from '../auth/index.js';
import { checkPassword, toUserRecord, type UserRecord, emailsOf, findUserByEmail, findUserById, updateUser } from '../users/index.js';
import { SYSTEM_CONTEXT, type AuditContext, type AuditLog } from '../audit/index.js';
import { projectNamesOf } from '../projects/index.js';

/** What each role may do, in the words of docs/access-model.md (Roles). */
const ROLE_ACTIONS: Record<Role, string[]> = {
  viewer: ['read_project', 'read_cameras', 'read_recordings', 'live_view', 'read_features'],
  editor: ['ptz_control', 'take_snapshots', 'write_media_hub', 'write_bim', 'write_comments', 'write_video_walls', 'write_progress_photos'],
  admin: ['manage_members', 'manage_roles', 'manage_logos', 'manage_thumbnails', 'manage_camera_settings', 'update_project', 'manage_connectors'],
  owner: ['transfer_project', 'delete_project'],
};

const actionsOf = (role: Role): string[] => ROLES.filter((r) => roleAllows(role, r)).flatMap((r) => ROLE_ACTIONS[r]);

export class AccountService {
  constructor(
    private readonly db: PlatformDb,
    private readonly directory: AccessDirectory,
    private readonly sessions: SessionStore,
    /** Wrong current passwords count as failed sign-ins: the same blocks, across nodes. */
    private readonly throttle: Pick<LoginThrottle, 'retryAfter' | 'failed' | 'succeeded'>,
    private readonly audit?: AuditLog,
  ) {}

  /** A person sees their own record; platform admins (signed in, not through a key or an app's OAuth token) see anyone's. */
  private async visibleUser(principal: Principal, id: string) {
    if (principal.kind === 'anonymous') throw new ApiError('UNAUTHORIZED', 'A credential is required');
    const mayReadOthers = principal.kind === 'user' && principal.isAdmin && !principal.delegated;
    if (principal.userId !== id && !mayReadOthers) throw new ApiError('NOT_FOUND', 'User not found');
    const user = await findUserById(this.db, id);
    if (!user) throw new ApiError('NOT_FOUND', 'User not found');
    return user;
  }

  async get(principal: Principal, id: string): Promise<UserRecord> {
    return toUserRecord(await this.visibleUser(principal, id));
  }

  async features(principal: Principal, email: string): Promise<{ email: string; features: string[] }> {
    const user = await findUserByEmail(this.db, email);
    if (!user) throw new ApiError('NOT_FOUND', 'User not found');
    const row = await this.visibleUser(principal, user.id);
    return { email: row.email, features: JSON.parse(row.features) as string[] };
  }

  private async projectRoles(principal: Principal) {
    const visible = await this.directory.visibleProjects(principal);
    if (visible.size === 0) return [];
    const projects = await projectNamesOf(this.db, [...visible.keys()]);
    return [...projects.values()].map((p) => ({ project_exid: p.exid, project_name: p.name, role: visible.get(p.id)! }));
  }

  async roles(principal: Principal) {
    const p = principal as Exclude<Principal, { kind: 'anonymous' }>;
    const user = await findUserById(this.db, p.userId);
    return { platform_role: user?.is_admin ? ('admin' as const) : ('user' as const), projects: await this.projectRoles(principal) };
  }

  async permissions(principal: Principal) {
    const projects = await this.projectRoles(principal);
    return {
      // A key's permissions are its owner's, narrowed to the key's projects (scopes narrow them further).
      via: principal.kind === 'key' ? ('api_key' as const) : ('session' as const),
      projects: projects.map((p) => ({ ...p, actions: actionsOf(p.role) })),
    };
  }

  async update(
    principal: Principal,
    id: string,
    input: { firstname?: string; lastname?: string; password?: string; current_password?: string },
    ctx?: AuditContext,
  ): Promise<UserRecord> {
    if (principal.kind === 'anonymous' || principal.userId !== id) throw new ApiError('NOT_FOUND', 'User not found');
    const user = await findUserById(this.db, id);
    if (!user) throw new ApiError('NOT_FOUND', 'User not found');
    const set: { firstname?: string; lastname?: string; password_hash?: string; updated_at: string } = { updated_at: new Date().toISOString() };
    if (input.firstname !== undefined) set.firstname = input.firstname.trim();
    if (input.lastname !== undefined) set.lastname = input.lastname.trim();
    if (input.password !== undefined) {
      // A key must never be able to take over its owner's account.
      if (principal.kind !== 'user') throw new ApiError('PERMISSION_DENIED', 'A password can only be changed by the signed-in person, not with an API key');
      if (principal.impersonatorId) throw new ApiError('NOT_ALLOWED_WHILE_IMPERSONATING', 'The password cannot be changed in an impersonated session');
      await this.checkCurrentPassword(user, input.current_password, ctx?.ip ?? 'unknown');
      checkPassword(input.password);
      set.password_hash = await hashPassword(input.password);
    }
    await updateUser(this.db, id, set);
    if (set.password_hash && principal.kind === 'user') {
      // A new password ends every other session of that person.
      const others = await openSessionIdsOf(this.db, id, principal.sessionId);
      for (const sessionId of others) await this.sessions.revoke(sessionId, id);
      await this.audit?.record(ctx ?? { ...SYSTEM_CONTEXT, actorUserId: id }, {
        action: 'user.password_changed',
        subjectUserId: id,
        target: { type: 'user', id },
        details: { sessions_ended: others.length },
      });
    }
    return toUserRecord((await findUserById(this.db, id))!);
  }

  /**
   * The current password, checked under the sign-in throttle (docs/security.md, Sign-in throttling): a
   * stolen session cannot guess it faster than a sign-in form could, and a block is shared with sign-in.
   */
  private async checkCurrentPassword(user: { email: string; password_hash: string }, given: string | undefined, ip: string): Promise<void> {
    const wait = await this.throttle.retryAfter(user.email, ip);
    if (wait > 0) {
      throw new ApiError('TOO_MANY_REQUESTS', `Too many wrong passwords; try again in ${wait} s`, { headers: { 'retry-after': String(wait) } });
    }
    if (!given || !(await verifyPassword(user.password_hash, given))) {
      await this.throttle.failed(user.email, ip);
      throw validation('current_password', 'is not the current password');
    }
    await this.throttle.succeeded(user.email, ip);
  }

  async activeSessions(principal: Principal) {
    const p = principal as Exclude<Principal, { kind: 'anonymous' }>;
    const now = new Date().toISOString();
    const rows = await liveSessionsOf(this.db, p.userId, now);
    const admins = await emailsOf(
      this.db,
      rows.flatMap((r) => (r.impersonator_id ? [r.impersonator_id] : [])),
    );
    const current = principal.kind === 'user' ? principal.sessionId : null;
    // An impersonated session shows who is behind it, so the person sees an admin acting as them.
    return rows.map(({ impersonator_id, ...r }) => {
      const adminEmail = impersonator_id ? admins.get(impersonator_id) : undefined;
      return {
        ...r,
        current: r.id === current,
        impersonated_by: impersonator_id && adminEmail !== undefined ? { id: impersonator_id, email: adminEmail } : null,
      };
    });
  }

  async activities(principal: Principal, q: { action?: ActivityAction; page: number; pageSize: number }) {
    const p = principal as Exclude<Principal, { kind: 'anonymous' }>;
    const { total, rows } = await activitiesOf(this.db, p.userId, q);
    return { meta: pageMeta(q.page, q.pageSize, total), data: rows };
  }
}
