// Platform administration (`/v2/admin`): people, projects, cameras and API keys across the platform.
// The access layer has already decided the caller is a platform admin; every change here is audited,
// and every change to an account forgets what is cached of it, so it takes effect at once.
import type { PlatformDb } from '../database.js';
import { toBool } from '../../lib/db/index.js';
import { ApiError } from '../../lib/errors.js';
import { pageMeta } from '../../lib/http/pagination.js';
import type { CacheRegistry } from '../../lib/cache/index.js';
import {
  statusOf,
  toApiKeyRecord,
  keyCounts,
  keyRowById,
  keyRowByIdOrThrow,
  keyStatesOf,
  projectExidsOfKeys,
  revokeKeyRow,
  revokeKeysOf,
  searchKeys,
} from '../api-keys/index.js';
import { identitiesOf, countLiveSessionsOf, liveSessionCounts, type SessionStore } from '../auth/index.js';
import { countAuditEventsSince, type AuditContext, type AuditLog } from '../audit/index.js';
import { adminCameraByExid, cameraCount, cameraCountsOf, cameraSummariesOf, searchCameras } from '../cameras/index.js';
import { memberCountsOf, membersOf, membershipsOf, ownersOf, projectIdsOwnedBy } from '../members/index.js';
import { NotificationsService } from '../notifications/index.js';
import { transferProject } from '../projects/index.js';
import * as projects from '../projects/index.js';
import type { OauthServer } from '../oauth/index.js';
import { DEFAULT_FEATURES, toUserRecord, type UsersTable } from '../users/index.js';
import * as users from '../users/index.js';

export interface Page {
  page: number;
  pageSize: number;
}

export class AdminService {
  constructor(
    private readonly db: PlatformDb,
    private readonly sessions: SessionStore,
    /** Account, key and ownership changes forget what the access layer cached (docs/architecture.md, Caches). */
    private readonly caches: CacheRegistry,
    private readonly audit: AuditLog,
    /** Disabling a person or taking their admin flag ends their OAuth grants too. */
    private readonly oauth: Pick<OauthServer, 'revokeGrantsOf'>,
  ) {}

  /**
   * Ends every credential the person holds or opened (docs/security.md, Revocation): their sessions,
   * the impersonations they opened, their OAuth grants with the tokens issued under them. Media tokens
   * issued through any of these stop with them; the forgets reach every node's caches.
   */
  private async endCredentialsOf(id: string) {
    const sessions = await this.sessions.revokeAllOf(id);
    const impersonations = await this.sessions.revokeOpenedBy(id);
    const grants = await this.oauth.revokeGrantsOf(id);
    await this.caches.forget([
      { kind: 'user', id },
      { kind: 'user-keys', id },
    ]);
    return { sessions_ended: sessions, impersonations_ended: impersonations, oauth_grants_revoked: grants };
  }

  /** Transfers tell both people, as the owner's own transfer does. */
  private get notifications() {
    return new NotificationsService(this.db);
  }

  private async mustUser(id: string) {
    const user = await users.findUserById(this.db, id);
    if (!user) throw new ApiError('NOT_FOUND', 'User not found');
    return user;
  }

  private static adminView(u: UsersTable) {
    return { ...toUserRecord(u), disabled: !!u.disabled_at, disabled_at: u.disabled_at ?? null };
  }

  // ---- people ----

  async searchUsers(q: Page & { q?: string; status?: 'active' | 'disabled'; admin?: boolean }) {
    const { total, rows } = await users.searchUsers(this.db, q);
    return { meta: pageMeta(q.page, q.pageSize, total), data: rows.map((u) => AdminService.adminView(u)) };
  }

  async getUser(id: string) {
    const user = await this.mustUser(id);
    const now = new Date().toISOString();
    const [sessions, keys, memberships, identities] = await Promise.all([
      countLiveSessionsOf(this.db, id, now),
      keyStatesOf(this.db, id),
      membershipsOf(this.db, id),
      identitiesOf(this.db, id),
    ]);
    // By project name, as the projects' repository orders them.
    const roles = new Map(memberships.map((m) => [m.project_id, m.role]));
    const names = await projects.projectNamesOf(this.db, [...roles.keys()]);
    const projectRoles = [...names.values()].map((p) => ({ project_exid: p.exid, project_name: p.name, role: roles.get(p.id)! }));
    return {
      ...AdminService.adminView(user),
      active_sessions: sessions,
      api_keys: { total: keys.length, valid: keys.filter((k) => statusOf(k) === 'valid').length },
      projects: projectRoles,
      identities,
    };
  }

  async setDisabled(ctx: AuditContext, id: string, disabled: boolean) {
    const user = await this.mustUser(id);
    if (disabled && id === ctx.actorUserId) throw new ApiError('CONFLICT', 'You cannot disable your own account');
    const now = new Date().toISOString();
    await users.updateUser(this.db, id, { disabled_at: disabled ? now : null, updated_at: now });
    // Ended for good, so enabling the account later does not revive old sign-ins.
    const ended = disabled ? await this.endCredentialsOf(id) : null;
    await this.caches.forget([
      { kind: 'user', id },
      { kind: 'user-keys', id },
    ]);
    await this.audit.record(ctx, {
      action: disabled ? 'admin.user_disabled' : 'admin.user_enabled',
      subjectUserId: id,
      target: { type: 'user', id },
      details: { email: user.email, ...ended },
    });
    return this.getUser(id);
  }

  async resetSessions(ctx: AuditContext, id: string) {
    const user = await this.mustUser(id);
    const ended = await this.sessions.revokeAllOf(id);
    await this.audit.record(ctx, {
      action: 'admin.sessions_reset',
      subjectUserId: id,
      target: { type: 'user', id },
      details: { email: user.email, sessions_ended: ended },
    });
    return { sessions_ended: ended };
  }

  async setAdmin(ctx: AuditContext, id: string, isAdmin: boolean) {
    const user = await this.mustUser(id);
    if (!isAdmin && id === ctx.actorUserId) throw new ApiError('CONFLICT', 'You cannot remove your own administrator rights');
    const features = (JSON.parse(user.features) as string[]).filter((f) => f !== 'admin');
    if (isAdmin) features.push('admin');
    await users.updateUser(this.db, id, {
      is_admin: isAdmin ? 1 : 0,
      features: JSON.stringify(features.length ? features : DEFAULT_FEATURES),
      updated_at: new Date().toISOString(),
    });
    // Live sessions carry the admin flag: drop them from the cache so the next request sees the change.
    await this.caches.forget([{ kind: 'user', id }]);
    if (toBool(user.is_admin) !== isAdmin) {
      // Whatever was signed in with administration rights ends with them.
      const ended = isAdmin ? null : await this.endCredentialsOf(id);
      await this.audit.record(ctx, {
        action: isAdmin ? 'admin.admin_granted' : 'admin.admin_revoked',
        subjectUserId: id,
        target: { type: 'user', id },
        details: { email: user.email, ...ended },
      });
    }
    return this.getUser(id);
  }

  // ---- projects and cameras ----

  async searchProjects(q: Page & { q?: string; owner_id?: string }) {
    const ids = q.owner_id ? await projectIdsOwnedBy(this.db, q.owner_id) : undefined;
    const { total, rows } = await projects.searchProjects(this.db, { q: q.q, ids, page: q.page, pageSize: q.pageSize });
    const pageIds = rows.map((r) => r.id);
    const [owners, cameraCounts, memberCounts] = await Promise.all([
      ownersOf(this.db, pageIds),
      cameraCountsOf(this.db, pageIds),
      memberCountsOf(this.db, pageIds),
    ]);
    const emails = await users.emailsOf(this.db, [...owners.values()]);
    return {
      meta: pageMeta(q.page, q.pageSize, total),
      data: rows.map((r) => {
        const ownerId = owners.get(r.id);
        const ownerEmail = ownerId === undefined ? undefined : emails.get(ownerId);
        return {
          exid: r.exid,
          name: r.name,
          status: r.status,
          timezone: r.timezone,
          created_at: r.created_at,
          owner: ownerId !== undefined && ownerEmail !== undefined ? { id: ownerId, email: ownerEmail } : null,
          camera_count: cameraCounts.get(r.id) ?? 0,
          member_count: memberCounts.get(r.id) ?? 0,
        };
      }),
    };
  }

  private async mustProject(exid: string) {
    const p = await projects.projectRowByExid(this.db, exid);
    if (!p) throw new ApiError('NOT_FOUND', 'Project not found');
    return p;
  }

  async getProject(exid: string) {
    const p = await this.mustProject(exid);
    const [memberships, cameras] = await Promise.all([membersOf(this.db, p.id), cameraSummariesOf(this.db, p.id)]);
    // By e-mail, as the users' repository orders them.
    const roles = new Map(memberships.map((m) => [m.user_id, m.role]));
    const emails = await users.emailsOf(this.db, [...roles.keys()]);
    const members = [...emails].map(([userId, email]) => ({ user_id: userId, email, role: roles.get(userId)! }));
    const owner = members.find((m) => m.role === 'owner');
    return {
      exid: p.exid,
      name: p.name,
      status: p.status,
      timezone: p.timezone,
      created_at: p.created_at,
      owner: owner ? { id: owner.user_id, email: owner.email } : null,
      members,
      cameras,
    };
  }

  /** Makes a member of the project its owner, as the owner's own transfer does; the previous owner stays on as a project admin. */
  async transferProject(ctx: AuditContext, exid: string, to: { user_id?: string; email?: string }) {
    const p = await this.mustProject(exid);
    await transferProject({ db: this.db, caches: this.caches, audit: this.audit, notifications: this.notifications }, ctx, p, to);
    return this.getProject(exid);
  }

  async searchCameras(q: Page & { q?: string; project_exid?: string }) {
    const project = q.project_exid ? await projects.projectRefByExid(this.db, q.project_exid) : undefined;
    if (q.project_exid && !project) return { meta: pageMeta(q.page, q.pageSize, 0), data: [] };
    const { total, rows } = await searchCameras(this.db, { q: q.q, projectId: project?.id, page: q.page, pageSize: q.pageSize });
    const names = await projects.projectNamesOf(
      this.db,
      rows.map((r) => r.project_id),
    );
    const data = rows.flatMap(({ project_id, ...c }) => {
      const p = names.get(project_id);
      return p ? [{ ...c, project_exid: p.exid, project_name: p.name }] : [];
    });
    return { meta: pageMeta(q.page, q.pageSize, total), data };
  }

  async getCamera(exid: string) {
    const c = await adminCameraByExid(this.db, exid);
    const p = c && (await projects.projectNamesOf(this.db, [c.project_id])).get(c.project_id);
    if (!c || !p) throw new ApiError('NOT_FOUND', 'Camera not found');
    const { project_id: _, ...camera } = c;
    return { ...camera, project_exid: p.exid, project_name: p.name };
  }

  // ---- API keys ----

  async listKeys(q: Page & { user_id?: string; status?: 'valid' | 'expired' | 'revoked' }) {
    const { total, rows } = await searchKeys(this.db, { userId: q.user_id, status: q.status, page: q.page, pageSize: q.pageSize }, new Date().toISOString());
    const [exids, emails] = await Promise.all([
      projectExidsOfKeys(
        this.db,
        rows.map((r) => r.id),
      ),
      users.emailsOf(
        this.db,
        rows.map((r) => r.user_id),
      ),
    ]);
    return {
      meta: pageMeta(q.page, q.pageSize, total),
      // A key whose owner is gone is left out, as the join on users did.
      data: rows.flatMap((r) => {
        const email = emails.get(r.user_id);
        return email === undefined ? [] : [{ ...toApiKeyRecord(r, exids.get(r.id) ?? []), owner: { id: r.user_id, email } }];
      }),
    };
  }

  async revokeKey(ctx: AuditContext, id: string) {
    const row = await keyRowById(this.db, id);
    if (!row) throw new ApiError('NOT_FOUND', 'API key not found');
    if (!row.revoked_at) {
      await revokeKeyRow(this.db, id, new Date().toISOString());
      await this.audit.record(ctx, {
        action: 'admin.api_key_revoked',
        subjectUserId: row.user_id,
        target: { type: 'api_key', id },
        details: { name: row.name, hint: row.key_hint },
      });
    }
    await this.caches.forget([{ kind: 'key', id }]);
    return this.keyById(id);
  }

  private async keyById(id: string) {
    const r = await keyRowByIdOrThrow(this.db, id);
    const [exids, email] = await Promise.all([projectExidsOfKeys(this.db, [id]), users.findUserById(this.db, r.user_id)]);
    return { ...toApiKeyRecord(r, exids.get(id) ?? []), owner: { id: r.user_id, email: email!.email } };
  }

  /** The answer to a leaked key: every key of a person stops working at once. */
  async revokeAllKeys(ctx: AuditContext, userId: string) {
    const user = await this.mustUser(userId);
    const revoked = await revokeKeysOf(this.db, userId, new Date().toISOString());
    await this.caches.forget([{ kind: 'user-keys', id: userId }]);
    await this.audit.record(ctx, {
      action: 'admin.api_keys_revoked_all',
      subjectUserId: userId,
      target: { type: 'user', id: userId },
      details: { email: user.email, revoked },
    });
    return { revoked };
  }

  // ---- statistics ----

  async stats() {
    const now = new Date().toISOString();
    const dayAgo = new Date(Date.now() - 86_400_000).toISOString();
    const [people, projectTotal, cameras, keys, sessions, events] = await Promise.all([
      users.userCounts(this.db),
      projects.projectCount(this.db),
      cameraCount(this.db),
      keyCounts(this.db, now),
      liveSessionCounts(this.db, now),
      countAuditEventsSince(this.db, dayAgo),
    ]);
    return {
      users: people,
      projects: { total: projectTotal },
      cameras: { total: cameras },
      api_keys: { total: keys.total, valid: keys.valid, revoked: keys.revoked, expired: keys.total - keys.valid - keys.revoked },
      sessions,
      audit_events_last_24h: events,
    };
  }
}
