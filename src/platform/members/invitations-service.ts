// Invitations (docs/settings.md, Members): adding an e-mail that has no account leaves an invitation
// for it instead of a membership. The person who later has an account with that e-mail (whichever way it
// was made: an administrator, `overlook users create`, a provider sign-in) sees it, and accepts it to
// join with the invited role or declines it; the project's admins see and cancel what is pending.
// Invitations are matched to people by their account's e-mail, so a pending one is visible from the
// moment the account exists, with no step at sign-up that could be missed. Where the platform sends
// e-mail, the invited address gets a link with a token that makes the account and joins in one step
// (`POST /v2/invitations/claim`, docs/email.md).
import { createHash, randomBytes } from 'node:crypto';
import type { PlatformDb } from '../database.js';
import { ApiError, validation } from '../../lib/errors.js';
import type { CacheRegistry } from '../../lib/cache/index.js';
import { inTransaction } from '../../lib/db/transaction.js';
import { newId } from '../../lib/ids.js';
import { ROLES, roleAllows, type Role } from '../access/index.js';
import type { AuditContext, AuditLog } from '../audit/index.js';
import type { Outbox } from '../outbox/index.js';
import { createUser, findUserById } from '../users/index.js';
import * as repo from './invitations-repository.js';
import { insertMember, memberOf } from './members-repository.js';

/** How long an invitation waits; adding the e-mail again starts it afresh. */
const INVITATION_DAYS = 14;

export type InvitedRole = Exclude<Role, 'owner'>;

interface ProjectRef {
  id: string;
  exid: string;
}

const tokenHashOf = (token: string) => createHash('sha256').update(token).digest('hex');

const NOT_FOUND = () => new ApiError('NOT_FOUND', 'Invitation not found');
const WITHDRAWN = 'this invitation was withdrawn: the person who sent it can no longer invite to that project';

/**
 * The role an invitation grants when accepted: never more than its inviter holds then, and nothing
 * when the inviter can no longer invite (removed, or below admin). An invitation with no inviter
 * (made by the platform itself) grants what it says.
 */
async function grantedRole(db: PlatformDb, row: { project_id: string; invited_by: string | null; role: InvitedRole }): Promise<InvitedRole | null> {
  if (!row.invited_by) return row.role;
  const inviter = await memberOf(db, row.project_id, row.invited_by);
  const held = inviter?.role as Role | undefined;
  if (!held || !roleAllows(held, 'admin')) return null;
  return roleAllows(held, row.role) ? row.role : (held as InvitedRole);
}

/** The roles of invitations a person holding `held` on the project could not make (all of them below admin). */
function rolesBeyond(held: Role | null): InvitedRole[] {
  const invitable = ROLES.filter((r): r is InvitedRole => r !== 'owner');
  if (!held || !roleAllows(held, 'admin')) return invitable;
  return invitable.filter((r) => !roleAllows(held, r));
}

/** What invitations need of projects: each project's exid and name, by id (absent: no such project). */
export interface ProjectNames {
  namesOf(ids: readonly string[]): Promise<Map<string, { exid: string; name: string }>>;
}

export class InvitationsService {
  constructor(
    private readonly db: PlatformDb,
    /** Accepting forgets the person's cached roles, so the project opens on their next request on every node. */
    private readonly caches: CacheRegistry,
    private readonly audit: AuditLog,
    /** Invitations name their project; the projects service answers (projects import members). */
    private readonly projects: ProjectNames,
    /** `invitation.created` and `member.added` are recorded with the change (docs/notifications.md). */
    private readonly outbox: Outbox,
  ) {}

  /**
   * Invites the e-mail (already normalised) to the project, or refreshes its pending invitation. The
   * invitation's token is random and only its SHA-256 is kept; the e-mail's link gets a token of its
   * own (`issueToken`). A person with an account accepts by signing in with the invited e-mail.
   */
  async invite(ctx: AuditContext, project: ProjectRef, email: string, role: InvitedRole): Promise<void> {
    const now = new Date();
    const tokenHash = createHash('sha256').update(randomBytes(32)).digest('hex');
    // Expired invitations are never read; each new one clears them away.
    await repo.deleteInvitationsExpiredBefore(this.db, now.toISOString());
    const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000).toISOString();
    await inTransaction(this.db, async (tx) => {
      await repo.upsertInvitation(tx, {
        id: newId(),
        project_id: project.id,
        email,
        role,
        token_hash: tokenHash,
        invited_by: ctx.actorUserId,
        created_at: now.toISOString(),
        expires_at: expiresAt,
      });
      await this.outbox.record(tx, {
        type: 'invitation.created',
        projectExid: project.exid,
        data: { email, role, invited_by: ctx.actorUserId, expires_at: expiresAt },
      });
    });
    await this.audit.record(ctx, {
      action: 'member.invited',
      subjectUserId: null,
      target: { type: 'project', id: project.exid },
      details: { project_exid: project.exid, email, role },
    });
  }

  /**
   * A new token for the invitation's e-mail link (the one before stops working), with what the e-mail
   * says; null when the invitation is gone or expired.
   */
  async issueToken(
    projectId: string,
    email: string,
  ): Promise<{ token: string; email: string; role: string; projectName: string; inviter: string | null; expiresAt: string } | null> {
    const row = await repo.invitationFor(this.db, projectId, email);
    if (!row || Date.parse(row.expires_at) <= Date.now()) return null;
    const id = row.id;
    const project = (await this.projects.namesOf([row.project_id])).get(row.project_id);
    if (!project) return null;
    const token = randomBytes(32).toString('base64url');
    if (!(await repo.setInvitationToken(this.db, id, tokenHashOf(token)))) return null;
    const inviter = row.invited_by ? await findUserById(this.db, row.invited_by) : undefined;
    const inviterName = inviter ? `${inviter.firstname} ${inviter.lastname}`.trim() || inviter.email : null;
    return { token, email: row.email, role: row.role, projectName: project.name, inviter: inviterName, expiresAt: row.expires_at };
  }

  /**
   * Makes the account of the invited e-mail with the token of the invitation's e-mail link, and joins
   * the project with the invited role. An e-mail that has an account by now signs in and accepts instead.
   */
  async claim(ctx: AuditContext, token: string, person: { password: string; firstname?: string; lastname?: string }) {
    const row = await repo.invitationByTokenHash(this.db, tokenHashOf(token));
    if (!row || Date.parse(row.expires_at) <= Date.now()) throw validation('token', 'this invitation link was used already or has expired');
    // Read before the transaction: on SQLite a read outside it would wait for it to end.
    const exid = (await this.projects.namesOf([row.project_id])).get(row.project_id)?.exid ?? row.project_id;
    const joined = await inTransaction(this.db, async (tx) => {
      // Taken once: a second claim finds nothing to take.
      if ((await repo.deleteInvitation(tx, row.id)) === 0) throw validation('token', 'this invitation link was used already or has expired');
      const role = await grantedRole(tx, row);
      if (!role) return null;
      const user = await createUser(tx, { email: row.email, password: person.password, firstname: person.firstname, lastname: person.lastname });
      await insertMember(tx, { project_id: row.project_id, user_id: user.id, role, created_at: new Date().toISOString() });
      await this.outbox.record(tx, {
        type: 'member.added',
        projectExid: exid,
        data: { user_id: user.id, email: row.email, role, via: 'invitation' },
      });
      return { ...user, role };
    });
    // Taken away (its deletion kept): the inviter can no longer invite, so the link is dead for good.
    if (!joined) throw validation('token', WITHDRAWN);
    await this.audit.record(
      { ...ctx, actorUserId: joined.id },
      {
        action: 'member.added',
        subjectUserId: joined.id,
        target: { type: 'project', id: exid },
        details: { project_exid: exid, email: row.email, role: joined.role, via: 'invitation_link', invited_by: row.invited_by },
      },
    );
    const { role, ...user } = joined;
    return { user, project_exid: exid, role };
  }

  /**
   * Withdraws, in the caller's transaction, the invitations the person made to the project that their
   * role there (`held`, null once removed) no longer lets them make; what was withdrawn, for the audit log.
   */
  withdrawBeyond(tx: PlatformDb, projectId: string, inviterId: string, held: Role | null) {
    return repo.deleteInvitationsBy(tx, projectId, inviterId, rolesBeyond(held));
  }

  /** The person joined another way (added with their new account): their invitation has nothing left to do. */
  async settled(project: ProjectRef, email: string): Promise<void> {
    await repo.deleteInvitationFor(this.db, project.id, email);
  }

  /** The project's pending invitations. */
  async ofProject(project: ProjectRef) {
    const rows = await repo.pendingInvitationsOf(this.db, project.id, new Date().toISOString());
    return rows.map((r) => ({ id: r.id, email: r.email, role: r.role, invited_by: r.invited_by, created_at: r.created_at, expires_at: r.expires_at }));
  }

  async cancel(ctx: AuditContext, project: ProjectRef, id: string): Promise<void> {
    const row = await repo.invitationById(this.db, id);
    if (!row || row.project_id !== project.id || (await repo.deleteInvitation(this.db, id)) === 0) throw NOT_FOUND();
    await this.audit.record(ctx, {
      action: 'member.invitation_cancelled',
      subjectUserId: null,
      target: { type: 'project', id: project.exid },
      details: { project_exid: project.exid, email: row.email, role: row.role },
    });
  }

  private async emailOf(userId: string): Promise<string> {
    const user = await findUserById(this.db, userId);
    if (!user) throw new ApiError('UNAUTHORIZED', 'Sign in first');
    return user.email;
  }

  /** The invitations waiting for the signed-in person's e-mail. */
  async mine(userId: string) {
    const rows = await repo.pendingInvitationsFor(this.db, await this.emailOf(userId), new Date().toISOString());
    const projects = await this.projects.namesOf(rows.map((r) => r.project_id));
    return rows.flatMap((r) => {
      const p = projects.get(r.project_id);
      return p ? [{ id: r.id, project_exid: p.exid, project_name: p.name, role: r.role, created_at: r.created_at, expires_at: r.expires_at }] : [];
    });
  }

  /** The person's own pending invitation, else 404: someone else's is indistinguishable from none. */
  private async pendingFor(userId: string, id: string) {
    const row = await repo.invitationById(this.db, id);
    if (!row || row.email !== (await this.emailOf(userId)) || Date.parse(row.expires_at) <= Date.now()) throw NOT_FOUND();
    return row;
  }

  /** Joins the project with the invited role (a member already keeps the role they have). */
  async accept(ctx: AuditContext, userId: string, id: string): Promise<{ project_exid: string; role: string }> {
    const row = await this.pendingFor(userId, id);
    // Read before the transaction: on SQLite a read outside it would wait for it to end.
    const projectExid = (await this.projects.namesOf([row.project_id])).get(row.project_id)?.exid;
    const role = await inTransaction(this.db, async (tx) => {
      // Taken once: a second accept finds nothing to take.
      if ((await repo.deleteInvitation(tx, id)) === 0) throw NOT_FOUND();
      const existing = await memberOf(tx, row.project_id, userId);
      if (existing) return existing.role;
      const granted = await grantedRole(tx, row);
      if (!granted) return null;
      await insertMember(tx, { project_id: row.project_id, user_id: userId, role: granted, created_at: new Date().toISOString() });
      if (projectExid)
        await this.outbox.record(tx, { type: 'member.added', projectExid, data: { user_id: userId, email: row.email, role: granted, via: 'invitation' } });
      return granted;
    });
    if (!role) throw new ApiError('NOT_FOUND', WITHDRAWN.replace(/^t/, 'T'));
    await this.caches.forget([{ kind: 'user-roles', id: userId }]);
    const exid = (await this.projects.namesOf([row.project_id])).get(row.project_id)?.exid;
    if (!exid) throw NOT_FOUND();
    await this.audit.record(ctx, {
      action: 'member.added',
      subjectUserId: userId,
      target: { type: 'project', id: exid },
      details: { project_exid: exid, email: row.email, role, via: 'invitation', invited_by: row.invited_by },
    });
    return { project_exid: exid, role };
  }

  async decline(ctx: AuditContext, userId: string, id: string): Promise<void> {
    const row = await this.pendingFor(userId, id);
    if ((await repo.deleteInvitation(this.db, id)) === 0) throw NOT_FOUND();
    const exid = (await this.projects.namesOf([row.project_id])).get(row.project_id)?.exid ?? row.project_id;
    await this.audit.record(ctx, {
      action: 'member.invitation_declined',
      subjectUserId: userId,
      target: { type: 'project', id: exid },
      details: { project_exid: exid, email: row.email, role: row.role },
    });
  }
}
