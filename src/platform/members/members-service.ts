// Project members and their roles (contract §4). The access layer has already checked that the actor
// is an admin of the project; this enforces the ladder's own rules: exactly one owner, changed only
// by transfer, and nobody grants a role above their own.
import type { Db } from '../../lib/db/index.js';
import { ApiError, validation } from '../../lib/errors.js';
import type { AccessDirectory } from '../access/directory.js';
import { isRole, roleAllows, type Role } from '../access/policy.js';
import type { NotificationsService } from '../notifications/notifications-service.js';
import { findUserByEmail } from '../users/user-record.js';
import { SYSTEM_CONTEXT, type AuditContext, type AuditLog } from '../audit/audit-log.js';

export interface Actor {
  userId: string;
  role: Role;
  /** Who and from where, for the audit log (the acting user alone when absent). */
  audit?: AuditContext;
}

export interface ProjectRef {
  id: string;
  exid: string;
}

export class MembersService {
  /** Set by the app: drops cached API keys of a person whose memberships changed. */
  onMembershipRemoved: (userId: string) => void = () => {};
  /** Set by the app: member and role changes are audit events. */
  audit?: AuditLog;

  private async audited(actor: Actor, action: string, project: ProjectRef, userId: string, details: Record<string, unknown>) {
    await this.audit?.record(actor.audit ?? { ...SYSTEM_CONTEXT, actorUserId: actor.userId }, {
      action: `member.${action}`,
      subjectUserId: userId,
      target: { type: 'project', id: project.exid },
      details: { project_exid: project.exid, ...details },
    });
  }

  constructor(
    private readonly db: Db,
    private readonly directory: AccessDirectory,
    private readonly notifications: NotificationsService,
  ) {}

  list(projectId: string) {
    return this.db.kysely
      .selectFrom('project_members')
      .innerJoin('users', 'users.id', 'project_members.user_id')
      .select(['users.id as user_id', 'users.email', 'users.firstname', 'users.lastname', 'project_members.role', 'project_members.created_at'])
      .where('project_members.project_id', '=', projectId)
      .orderBy('project_members.created_at')
      .orderBy('users.email')
      .execute();
  }

  private static grantable(actor: Actor, role: string): Role {
    if (!isRole(role)) throw validation('role', 'must be viewer, editor or admin');
    if (role === 'owner') throw validation('role', 'a project has exactly one owner; ownership moves by transfer');
    if (!roleAllows(actor.role, role)) throw new ApiError('PERMISSION_DENIED', `You cannot grant a role above your own (${actor.role})`);
    return role;
  }

  private async member(projectId: string, userId: string) {
    const m = await this.db.kysely
      .selectFrom('project_members')
      .innerJoin('users', 'users.id', 'project_members.user_id')
      .select(['users.id as user_id', 'users.email', 'users.firstname', 'users.lastname', 'project_members.role', 'project_members.created_at'])
      .where('project_members.project_id', '=', projectId)
      .where('project_members.user_id', '=', userId)
      .executeTakeFirst();
    if (!m) throw new ApiError('NOT_FOUND', 'That person is not a member of this project');
    return m;
  }

  async add(actor: Actor, project: ProjectRef, input: { email: string; role: string }) {
    const role = MembersService.grantable(actor, input.role);
    const user = await findUserByEmail(this.db, input.email);
    if (!user) throw new ApiError('NOT_FOUND', `No person with e-mail ${input.email.trim().toLowerCase()} has an account`);
    const existing = await this.db.kysely.selectFrom('project_members').select('role').where('project_id', '=', project.id).where('user_id', '=', user.id).executeTakeFirst();
    if (existing) throw new ApiError('CONFLICT', `${user.email} is already a member (${existing.role}); change their role instead`);
    await this.db.kysely.insertInto('project_members').values({ project_id: project.id, user_id: user.id, role, created_at: new Date().toISOString() }).execute();
    this.directory.forgetUser(user.id);
    await this.audited(actor, 'added', project, user.id, { email: user.email, role });
    await this.notifications.notify(user.id, 'project_shared', `You were added to project ${project.exid} as ${role}`, { project_exid: project.exid, role });
    return this.member(project.id, user.id);
  }

  async change(actor: Actor, project: ProjectRef, userId: string, newRole: string) {
    const target = await this.member(project.id, userId);
    if (target.role === 'owner') throw new ApiError('PERMISSION_DENIED', 'The owner’s role changes only by transferring the project');
    const role = MembersService.grantable(actor, newRole);
    if (!roleAllows(actor.role, target.role as Role)) throw new ApiError('PERMISSION_DENIED', 'You cannot change the role of someone above you');
    await this.db.kysely.updateTable('project_members').set({ role }).where('project_id', '=', project.id).where('user_id', '=', userId).execute();
    this.directory.forgetUser(userId);
    if (role !== target.role) {
      await this.audited(actor, 'role_changed', project, userId, { email: target.email, from: target.role, to: role });
      await this.notifications.notify(userId, 'role_changed', `Your role on project ${project.exid} is now ${role}`, { project_exid: project.exid, role });
    }
    return this.member(project.id, userId);
  }

  async remove(actor: Actor, project: ProjectRef, userId: string): Promise<void> {
    const target = await this.member(project.id, userId);
    if (target.role === 'owner') throw new ApiError('PERMISSION_DENIED', 'The owner cannot be removed; transfer the project first');
    if (!roleAllows(actor.role, target.role as Role)) throw new ApiError('PERMISSION_DENIED', 'You cannot remove someone above you');
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx.deleteFrom('project_members').where('project_id', '=', project.id).where('user_id', '=', userId).execute();
      // Their keys lose the project too, so being added back later does not silently revive old keys.
      const keyIds = trx.selectFrom('api_keys').select('id').where('user_id', '=', userId);
      await trx.deleteFrom('api_key_projects').where('project_id', '=', project.id).where('api_key_id', 'in', keyIds).execute();
    });
    this.directory.forgetUser(userId);
    this.onMembershipRemoved(userId);
    await this.audited(actor, 'removed', project, userId, { email: target.email, role: target.role });
    await this.notifications.notify(userId, 'removed_from_project', `You were removed from project ${project.exid}`, { project_exid: project.exid });
  }
}
