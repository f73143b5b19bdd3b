// People: their own record, features, roles and permissions, sessions and the session activities log.
import type { Db } from '../../lib/db/index.js';
import { ApiError, validation } from '../../lib/errors.js';
import { hashPassword, verifyPassword } from '../../lib/auth/passwords.js';
import { pageMeta, pageOffset } from '../../lib/http/pagination.js';
import type { AccessDirectory } from '../access/directory.js';
import { ROLES, roleAllows, type Role } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import type { SessionStore } from '../auth/session-store.js';
import { checkPassword } from './create-user.js';
import { SYSTEM_CONTEXT, type AuditContext, type AuditLog } from '../audit/audit-log.js';
import { findUserById, normaliseEmail, toUserRecord, type UserRecord } from './user-record.js';

/** What each role may do, in the words of contract §4. */
export const ROLE_ACTIONS: Record<Role, string[]> = {
  viewer: ['read_project', 'read_cameras', 'read_recordings', 'live_view', 'read_features'],
  editor: ['ptz_control', 'take_snapshots', 'write_media_hub', 'write_bim', 'write_comments', 'write_video_walls', 'write_progress_photos'],
  admin: ['manage_members', 'manage_roles', 'manage_logos', 'manage_thumbnails', 'manage_camera_settings', 'update_project', 'manage_connectors'],
  owner: ['transfer_project', 'delete_project'],
};

export const actionsOf = (role: Role): string[] => ROLES.filter((r) => roleAllows(role, r)).flatMap((r) => ROLE_ACTIONS[r]);

export class UsersService {
  constructor(
    private readonly db: Db,
    private readonly directory: AccessDirectory,
    private readonly sessions: SessionStore,
    private readonly audit?: AuditLog,
  ) {}

  /** A person sees their own record; platform admins (signed in, not through a key) see anyone's. */
  private async visibleUser(principal: Principal, id: string) {
    if (principal.kind === 'anonymous') throw new ApiError('UNAUTHORIZED', 'A credential is required');
    const mayReadOthers = principal.kind === 'user' && principal.isAdmin;
    if (principal.userId !== id && !mayReadOthers) throw new ApiError('NOT_FOUND', 'User not found');
    const user = await findUserById(this.db, id);
    if (!user) throw new ApiError('NOT_FOUND', 'User not found');
    return user;
  }

  async get(principal: Principal, id: string): Promise<UserRecord> {
    return toUserRecord(await this.visibleUser(principal, id));
  }

  async features(principal: Principal, email: string): Promise<{ email: string; features: string[] }> {
    const user = await this.db.kysely.selectFrom('users').select(['id']).where('email', '=', normaliseEmail(email)).executeTakeFirst();
    if (!user) throw new ApiError('NOT_FOUND', 'User not found');
    const row = await this.visibleUser(principal, user.id);
    return { email: row.email, features: JSON.parse(row.features) as string[] };
  }

  private async projectRoles(principal: Principal) {
    const visible = await this.directory.visibleProjects(principal);
    if (visible.size === 0) return [];
    const rows = await this.db.kysely.selectFrom('projects').select(['id', 'exid', 'name']).where('id', 'in', [...visible.keys()]).orderBy('name').orderBy('exid').execute();
    return rows.map((p) => ({ project_exid: p.exid, project_name: p.name, role: visible.get(p.id)! }));
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

  async update(principal: Principal, id: string, input: { firstname?: string; lastname?: string; password?: string; current_password?: string }, ctx?: AuditContext): Promise<UserRecord> {
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
      if (!input.current_password || !(await verifyPassword(user.password_hash, input.current_password))) {
        throw validation('current_password', 'is not the current password');
      }
      checkPassword(input.password);
      set.password_hash = await hashPassword(input.password);
    }
    await this.db.kysely.updateTable('users').set(set).where('id', '=', id).execute();
    if (set.password_hash && principal.kind === 'user') {
      // A new password ends every other session of that person.
      const others = await this.db.kysely.selectFrom('sessions').select('id').where('user_id', '=', id).where('revoked_at', 'is', null).where('id', '!=', principal.sessionId).execute();
      for (const s of others) await this.sessions.revoke(s.id, id);
      await this.audit?.record(ctx ?? { ...SYSTEM_CONTEXT, actorUserId: id }, { action: 'user.password_changed', subjectUserId: id, target: { type: 'user', id }, details: { sessions_ended: others.length } });
    }
    return toUserRecord((await findUserById(this.db, id))!);
  }

  async activeSessions(principal: Principal) {
    const p = principal as Exclude<Principal, { kind: 'anonymous' }>;
    const now = new Date().toISOString();
    const rows = await this.db.kysely
      .selectFrom('sessions')
      .leftJoin('users as admin', 'admin.id', 'sessions.impersonator_id')
      .select(['sessions.id', 'sessions.created_at', 'sessions.last_seen_at', 'sessions.expires_at', 'sessions.ip', 'sessions.user_agent', 'admin.id as admin_id', 'admin.email as admin_email'])
      .where('sessions.user_id', '=', p.userId)
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', now)
      .orderBy('sessions.created_at', 'desc')
      .execute();
    const current = principal.kind === 'user' ? principal.sessionId : null;
    // An impersonated session shows who is behind it, so the person sees an admin acting as them.
    return rows.map(({ admin_id, admin_email, ...r }) => ({ ...r, current: r.id === current, impersonated_by: admin_id ? { id: admin_id, email: admin_email! } : null }));
  }

  async activities(principal: Principal, q: { action?: string; page: number; pageSize: number }) {
    const p = principal as Exclude<Principal, { kind: 'anonymous' }>;
    let query = this.db.kysely.selectFrom('session_activities').where('user_id', '=', p.userId);
    if (q.action) query = query.where('action', '=', q.action);
    const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const data = await query
      .select(['id', 'session_id', 'action', 'ip', 'user_agent', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(q.pageSize)
      .offset(pageOffset(q.page, q.pageSize))
      .execute();
    return { meta: pageMeta(q.page, q.pageSize, Number(total)), data };
  }
}
