// Project members and their roles (docs/access-model.md, Roles). The access layer has already checked that the actor
// is an admin of the project; this enforces the ladder's own rules: exactly one owner, changed only
// by transfer, and nobody grants a role above their own.
import type { PlatformDb } from '../database.js';
import { ApiError, validation } from '../../lib/errors.js';
import type { CacheRegistry } from '../../lib/cache/index.js';
import { isRole, roleAllows, type Role } from '../access/index.js';
import type { NotificationsService } from '../notifications/index.js';
import type { Outbox } from '../outbox/index.js';
import { findUserByEmail, findUserById, normaliseEmail, isEmailAddress } from '../users/index.js';
import type { InvitationsService, InvitedRole, ProjectNames } from './invitations-service.js';
import type { StrangerAddThrottle } from './stranger-add-throttle.js';
import { inTransaction } from '../../lib/db/transaction.js';
import * as repo from './members-repository.js';
import { SYSTEM_CONTEXT, type AuditContext, type AuditLog } from '../audit/index.js';

/** What removing a member needs of api-keys, which imports members and so is reached as a service. */
export interface MemberKeys {
  dropProjectFromKeysOf(tx: PlatformDb, userId: string, projectId: string): Promise<unknown>;
}

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
  private async audited(actor: Actor, action: string, project: ProjectRef, userId: string, details: Record<string, unknown>) {
    await this.audit.record(actor.audit ?? { ...SYSTEM_CONTEXT, actorUserId: actor.userId }, {
      action: `member.${action}`,
      subjectUserId: userId,
      target: { type: 'project', id: project.exid },
      details: { project_exid: project.exid, ...details },
    });
  }

  constructor(
    private readonly db: PlatformDb,
    /** Each change forgets the person's cached roles; a removal their keys too (docs/architecture.md, Caches). */
    private readonly caches: CacheRegistry,
    private readonly notifications: NotificationsService,
    /** Member and role changes are audit events. */
    private readonly audit: AuditLog,
    /** Where an e-mail with no account is invited instead. */
    private readonly invitations: InvitationsService,
    /** A removed member's keys lose the project; the api-keys service does it in our transaction. */
    private readonly keys: MemberKeys,
    /** `member.added` and `member.removed` are recorded with the change (docs/notifications.md). */
    private readonly outbox: Outbox,
    /** Adding people who share no project with the adder is counted (docs/security.md, Adding members). */
    private readonly strangerAdds: StrangerAddThrottle,
    /** The added person is told the project's name. */
    private readonly projects: ProjectNames,
  ) {}

  /** What the added person is told of who added them: a name, else the e-mail. */
  private async nameOf(userId: string): Promise<string> {
    const u = await findUserById(this.db, userId);
    return u ? `${u.firstname} ${u.lastname}`.trim() || u.email : 'Someone';
  }

  /** Withdraws what the person's role no longer lets them have invited, and says so in the audit log. */
  private async withdrawn(actor: Actor, project: ProjectRef, rows: readonly { email: string; role: string }[]) {
    for (const r of rows) {
      await this.audit.record(actor.audit ?? { ...SYSTEM_CONTEXT, actorUserId: actor.userId }, {
        action: 'member.invitation_cancelled',
        subjectUserId: null,
        target: { type: 'project', id: project.exid },
        details: { project_exid: project.exid, email: r.email, role: r.role, reason: 'inviter_role_changed' },
      });
    }
  }

  list(projectId: string) {
    return repo.memberProfilesOf(this.db, projectId);
  }

  private static grantable(actor: Actor, role: string): InvitedRole {
    if (!isRole(role)) throw validation('role', 'must be viewer, editor or admin');
    if (role === 'owner') throw validation('role', 'a project has exactly one owner; ownership moves by transfer');
    if (!roleAllows(actor.role, role)) throw new ApiError('PERMISSION_DENIED', `You cannot grant a role above your own (${actor.role})`);
    return role;
  }

  private async member(projectId: string, userId: string) {
    const m = await repo.memberProfile(this.db, projectId, userId);
    if (!m) throw new ApiError('NOT_FOUND', 'That person is not a member of this project');
    return m;
  }

  /**
   * Adds the person with that e-mail: a person with an account is a member at once (programs that add
   * someone rely on them acting right away); an e-mail with no account gets an invitation, accepted once
   * an account with that e-mail exists. The answer is the same either way, so adding members cannot be
   * used to learn who has an account (docs/settings.md, Members).
   */
  async add(actor: Actor, project: ProjectRef, input: { email: string; role: string }): Promise<{ email: string; role: Role }> {
    const role = MembersService.grantable(actor, input.role);
    const email = normaliseEmail(input.email);
    if (!isEmailAddress(email)) throw validation('email', 'is not an e-mail address');
    const user = await findUserByEmail(this.db, email);
    // Counted before anything is stored, the same way for an address with or without an account.
    if (!user || !(await repo.shareAProject(this.db, actor.userId, user.id))) await this.strangerAdds.count(actor.userId);
    if (!user) {
      await this.invitations.invite(actor.audit ?? { ...SYSTEM_CONTEXT, actorUserId: actor.userId }, project, email, role);
      return { email, role };
    }
    const existing = await repo.memberOf(this.db, project.id, user.id);
    // Only someone already a member meets this, whom the caller can list anyway.
    if (existing) throw new ApiError('CONFLICT', `${user.email} is already a member (${existing.role}); change their role instead`);
    await inTransaction(this.db, async (tx) => {
      await repo.insertMember(tx, { project_id: project.id, user_id: user.id, role, created_at: new Date().toISOString() });
      await this.outbox.record(tx, {
        type: 'member.added',
        projectExid: project.exid,
        data: { user_id: user.id, email: user.email, role, added_by: actor.userId },
      });
    });
    await this.invitations.settled(project, email);
    await this.caches.forget([{ kind: 'user-roles', id: user.id }]);
    await this.audited(actor, 'added', project, user.id, { email: user.email, role });
    const projectName = (await this.projects.namesOf([project.id])).get(project.id)?.name ?? project.exid;
    const adder = await this.nameOf(actor.userId);
    await this.notifications.notify(
      user.id,
      'project_shared',
      `${adder} added you to the project “${projectName}” as ${role}. Not yours? Leave it from the project’s Members page.`,
      { project_exid: project.exid, project_name: projectName, role, added_by: actor.userId, added_by_name: adder },
    );
    return { email, role };
  }

  async change(actor: Actor, project: ProjectRef, userId: string, newRole: string) {
    const target = await this.member(project.id, userId);
    if (target.role === 'owner') throw new ApiError('PERMISSION_DENIED', 'The owner’s role changes only by transferring the project');
    const role = MembersService.grantable(actor, newRole);
    if (!roleAllows(actor.role, target.role as Role)) throw new ApiError('PERMISSION_DENIED', 'You cannot change the role of someone above you');
    const withdrawn = await inTransaction(this.db, async (tx) => {
      await repo.setRole(tx, project.id, userId, role);
      // Demoted below admin, their pending invitations go with the right to make them.
      return this.invitations.withdrawBeyond(tx, project.id, userId, role);
    });
    await this.caches.forget([{ kind: 'user-roles', id: userId }]);
    await this.withdrawn(actor, project, withdrawn);
    if (role !== target.role) {
      await this.audited(actor, 'role_changed', project, userId, { email: target.email, from: target.role, to: role });
      await this.notifications.notify(userId, 'role_changed', `Your role on project ${project.exid} is now ${role}`, { project_exid: project.exid, role });
    }
    return this.member(project.id, userId);
  }

  /**
   * Removes a member, or lets a member leave (the actor removing themself, whatever their role; the
   * access layer lets any member reach this for their own id). Either way their keys lose the project
   * and the invitations they made to it are withdrawn.
   */
  async remove(actor: Actor, project: ProjectRef, userId: string): Promise<void> {
    const target = await this.member(project.id, userId);
    const leaving = userId === actor.userId;
    if (target.role === 'owner')
      throw new ApiError(
        'PERMISSION_DENIED',
        leaving ? 'The owner cannot leave; transfer the project first' : 'The owner cannot be removed; transfer the project first',
      );
    if (!leaving && !roleAllows(actor.role, target.role as Role)) throw new ApiError('PERMISSION_DENIED', 'You cannot remove someone above you');
    const withdrawn = await inTransaction(this.db, async (tx) => {
      await repo.deleteMember(tx, project.id, userId);
      // Their keys lose the project too, so being added back later does not silently revive old keys.
      await this.keys.dropProjectFromKeysOf(tx, userId, project.id);
      await this.outbox.record(tx, {
        type: 'member.removed',
        projectExid: project.exid,
        data: { user_id: userId, email: target.email, role: target.role, ...(leaving ? { via: 'left' } : {}) },
      });
      return this.invitations.withdrawBeyond(tx, project.id, userId, null);
    });
    await this.caches.forget([
      { kind: 'user-roles', id: userId },
      { kind: 'user-keys', id: userId },
    ]);
    await this.audited(actor, leaving ? 'left' : 'removed', project, userId, { email: target.email, role: target.role });
    await this.withdrawn(actor, project, withdrawn);
    if (!leaving)
      await this.notifications.notify(userId, 'removed_from_project', `You were removed from project ${project.exid}`, { project_exid: project.exid });
  }
}
