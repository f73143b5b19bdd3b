// Platform administration (`/v2/admin`): people, projects, cameras and API keys across the platform.
// The access layer has already decided the caller is a platform admin; every change here is audited,
// and every change to an account drops the session and key caches so it takes effect at once.
import { sql } from 'kysely';
import type { Db } from '../../lib/db/index.js';
import { toBool } from '../../lib/db/index.js';
import { ApiError, validation } from '../../lib/errors.js';
import { pageMeta, pageOffset } from '../../lib/http/pagination.js';
import type { AccessDirectory } from '../access/directory.js';
import type { KeyStore } from '../api-keys/key-store.js';
import { statusOf, toApiKeyRecord } from '../api-keys/api-key-record.js';
import { projectExidsOfKeys } from '../api-keys/api-keys-repository.js';
import type { SessionStore } from '../auth/session-store.js';
import type { AuditContext, AuditLog } from '../audit/audit-log.js';
import { DEFAULT_FEATURES } from '../users/create-user.js';
import { findUserByEmail, findUserById, toUserRecord } from '../users/user-record.js';

export interface Page {
  page: number;
  pageSize: number;
}

/** Case-insensitive substring match; `%` and `_` in the search mean the characters themselves. */
const contains = (column: string, q: string) =>
  sql<boolean>`lower(${sql.ref(column)}) like ${`%${q.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`;

export class AdminService {
  constructor(
    private readonly db: Db,
    private readonly sessions: SessionStore,
    private readonly keys: KeyStore,
    private readonly directory: AccessDirectory,
    private readonly audit: AuditLog,
  ) {}

  private async mustUser(id: string) {
    const user = await findUserById(this.db, id);
    if (!user) throw new ApiError('NOT_FOUND', 'User not found');
    return user;
  }

  private static adminView(u: Awaited<ReturnType<typeof findUserById>> & object) {
    return { ...toUserRecord(u), disabled: !!u.disabled_at, disabled_at: u.disabled_at ?? null };
  }

  // ---- people ----

  async searchUsers(q: Page & { q?: string; status?: 'active' | 'disabled'; admin?: boolean }) {
    let query = this.db.kysely.selectFrom('users');
    if (q.q) {
      const text = q.q;
      query = query.where((eb) => eb.or([contains('email', text), contains('firstname', text), contains('lastname', text), eb('id', '=', text.trim())]));
    }
    if (q.status === 'disabled') query = query.where('disabled_at', 'is not', null);
    if (q.status === 'active') query = query.where('disabled_at', 'is', null);
    if (q.admin !== undefined) query = query.where('is_admin', '=', q.admin ? 1 : 0);
    const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const rows = await query.selectAll().orderBy('email').limit(q.pageSize).offset(pageOffset(q.page, q.pageSize)).execute();
    return { meta: pageMeta(q.page, q.pageSize, Number(total)), data: rows.map((u) => AdminService.adminView(u)) };
  }

  async getUser(id: string) {
    const user = await this.mustUser(id);
    const now = new Date().toISOString();
    const [sessions, keys, projects, identities] = await Promise.all([
      this.db.kysely.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', id).where('revoked_at', 'is', null).where('expires_at', '>', now).executeTakeFirstOrThrow(),
      this.db.kysely.selectFrom('api_keys').select(['revoked_at', 'expires_at']).where('user_id', '=', id).execute(),
      this.db.kysely
        .selectFrom('project_members')
        .innerJoin('projects', 'projects.id', 'project_members.project_id')
        .select(['projects.exid as project_exid', 'projects.name as project_name', 'project_members.role'])
        .where('project_members.user_id', '=', id)
        .orderBy('projects.name')
        .execute(),
      this.db.kysely.selectFrom('user_identities').select(['provider', 'email', 'created_at', 'last_login_at']).where('user_id', '=', id).orderBy('provider').execute(),
    ]);
    return {
      ...AdminService.adminView(user),
      active_sessions: Number(sessions.n),
      api_keys: { total: keys.length, valid: keys.filter((k) => statusOf(k) === 'valid').length },
      projects,
      identities,
    };
  }

  async setDisabled(ctx: AuditContext, id: string, disabled: boolean) {
    const user = await this.mustUser(id);
    if (disabled && id === ctx.actorUserId) throw new ApiError('CONFLICT', 'You cannot disable your own account');
    const now = new Date().toISOString();
    await this.db.kysely.updateTable('users').set({ disabled_at: disabled ? now : null, updated_at: now }).where('id', '=', id).execute();
    let endedSessions = 0;
    if (disabled) {
      // Ended for good, so enabling the account later does not revive old sign-ins.
      endedSessions = await this.sessions.revokeAllOf(id);
    }
    this.sessions.forgetUser(id);
    this.keys.forgetUser(id);
    await this.audit.record(ctx, {
      action: disabled ? 'admin.user_disabled' : 'admin.user_enabled',
      subjectUserId: id,
      target: { type: 'user', id },
      details: { email: user.email, ...(disabled ? { sessions_ended: endedSessions } : {}) },
    });
    return this.getUser(id);
  }

  async resetSessions(ctx: AuditContext, id: string) {
    const user = await this.mustUser(id);
    const ended = await this.sessions.revokeAllOf(id);
    await this.audit.record(ctx, { action: 'admin.sessions_reset', subjectUserId: id, target: { type: 'user', id }, details: { email: user.email, sessions_ended: ended } });
    return { sessions_ended: ended };
  }

  async setAdmin(ctx: AuditContext, id: string, isAdmin: boolean) {
    const user = await this.mustUser(id);
    if (!isAdmin && id === ctx.actorUserId) throw new ApiError('CONFLICT', 'You cannot remove your own administrator rights');
    const features = (JSON.parse(user.features) as string[]).filter((f) => f !== 'admin');
    if (isAdmin) features.push('admin');
    await this.db.kysely
      .updateTable('users')
      .set({ is_admin: isAdmin ? 1 : 0, features: JSON.stringify(features.length ? features : DEFAULT_FEATURES), updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
    // Live sessions carry the admin flag: drop them from the cache so the next request sees the change.
    this.sessions.forgetUser(id);
    if (toBool(user.is_admin) !== isAdmin) {
      await this.audit.record(ctx, { action: isAdmin ? 'admin.admin_granted' : 'admin.admin_revoked', subjectUserId: id, target: { type: 'user', id }, details: { email: user.email } });
    }
    return this.getUser(id);
  }

  // ---- projects and cameras ----

  private projectsQuery() {
    return this.db.kysely
      .selectFrom('projects')
      .leftJoin('project_members as o', (j) => j.onRef('o.project_id', '=', 'projects.id').on('o.role', '=', 'owner'))
      .leftJoin('users as u', 'u.id', 'o.user_id');
  }

  async searchProjects(q: Page & { q?: string; owner_id?: string }) {
    let query = this.projectsQuery();
    if (q.q) {
      const text = q.q;
      query = query.where((eb) => eb.or([contains('projects.name', text), contains('projects.exid', text)]));
    }
    if (q.owner_id) query = query.where('u.id', '=', q.owner_id);
    const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const rows = await query
      .select(['projects.id', 'projects.exid', 'projects.name', 'projects.status', 'projects.timezone', 'projects.created_at', 'u.id as owner_id', 'u.email as owner_email'])
      .select((eb) => [
        eb.selectFrom('cameras').select((e) => e.fn.countAll<number>().as('n')).whereRef('cameras.project_id', '=', 'projects.id').as('camera_count'),
        eb.selectFrom('project_members').select((e) => e.fn.countAll<number>().as('n')).whereRef('project_members.project_id', '=', 'projects.id').as('member_count'),
      ])
      .orderBy('projects.name')
      .orderBy('projects.exid')
      .limit(q.pageSize)
      .offset(pageOffset(q.page, q.pageSize))
      .execute();
    return {
      meta: pageMeta(q.page, q.pageSize, Number(total)),
      data: rows.map((r) => ({
        exid: r.exid,
        name: r.name,
        status: r.status,
        timezone: r.timezone,
        created_at: r.created_at,
        owner: r.owner_id ? { id: r.owner_id, email: r.owner_email! } : null,
        camera_count: Number(r.camera_count ?? 0),
        member_count: Number(r.member_count ?? 0),
      })),
    };
  }

  private async mustProject(exid: string) {
    const p = await this.db.kysely.selectFrom('projects').selectAll().where('exid', '=', exid).executeTakeFirst();
    if (!p) throw new ApiError('NOT_FOUND', 'Project not found');
    return p;
  }

  async getProject(exid: string) {
    const p = await this.mustProject(exid);
    const [members, cameras] = await Promise.all([
      this.db.kysely
        .selectFrom('project_members')
        .innerJoin('users', 'users.id', 'project_members.user_id')
        .select(['users.id as user_id', 'users.email', 'project_members.role'])
        .where('project_members.project_id', '=', p.id)
        .orderBy('users.email')
        .execute(),
      this.db.kysely.selectFrom('cameras').select(['exid', 'name', 'kind', 'status']).where('project_id', '=', p.id).orderBy('name').execute(),
    ]);
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

  /** Makes another person the project's owner; the previous owner stays on as a project admin. */
  async transferProject(ctx: AuditContext, exid: string, to: { user_id?: string; email?: string }) {
    const p = await this.mustProject(exid);
    if (!to.user_id === !to.email) throw validation('user_id', 'give exactly one of user_id or email');
    const target = to.user_id ? await findUserById(this.db, to.user_id) : await findUserByEmail(this.db, to.email!);
    if (!target) throw new ApiError('NOT_FOUND', 'No such person');
    if (target.disabled_at) throw new ApiError('CONFLICT', 'A disabled account cannot own a project');
    const previous = await this.db.kysely.selectFrom('project_members').select('user_id').where('project_id', '=', p.id).where('role', '=', 'owner').executeTakeFirst();
    if (previous?.user_id === target.id) throw new ApiError('CONFLICT', 'That person already owns the project');
    await this.db.kysely.transaction().execute(async (trx) => {
      if (previous) await trx.updateTable('project_members').set({ role: 'admin' }).where('project_id', '=', p.id).where('user_id', '=', previous.user_id).execute();
      const member = await trx.selectFrom('project_members').select('role').where('project_id', '=', p.id).where('user_id', '=', target.id).executeTakeFirst();
      if (member) await trx.updateTable('project_members').set({ role: 'owner' }).where('project_id', '=', p.id).where('user_id', '=', target.id).execute();
      else await trx.insertInto('project_members').values({ project_id: p.id, user_id: target.id, role: 'owner', created_at: new Date().toISOString() }).execute();
    });
    this.directory.forgetUser(target.id);
    if (previous) this.directory.forgetUser(previous.user_id);
    const details = { project_exid: p.exid, from_user_id: previous?.user_id ?? null, to_user_id: target.id };
    // One entry for each person whose rights changed, so each finds it in their own log.
    for (const subject of [previous?.user_id, target.id]) {
      if (subject) await this.audit.record(ctx, { action: 'project.transferred', subjectUserId: subject, target: { type: 'project', id: p.exid }, details });
    }
    return this.getProject(exid);
  }

  async searchCameras(q: Page & { q?: string; project_exid?: string }) {
    let query = this.db.kysely.selectFrom('cameras').innerJoin('projects', 'projects.id', 'cameras.project_id');
    if (q.q) {
      const text = q.q;
      query = query.where((eb) => eb.or([contains('cameras.name', text), contains('cameras.exid', text)]));
    }
    if (q.project_exid) query = query.where('projects.exid', '=', q.project_exid);
    const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const data = await query
      .select(['cameras.exid', 'cameras.name', 'cameras.kind', 'cameras.status', 'cameras.last_online_at', 'cameras.created_at', 'projects.exid as project_exid', 'projects.name as project_name'])
      .orderBy('cameras.name')
      .orderBy('cameras.exid')
      .limit(q.pageSize)
      .offset(pageOffset(q.page, q.pageSize))
      .execute();
    return { meta: pageMeta(q.page, q.pageSize, Number(total)), data };
  }

  async getCamera(exid: string) {
    const c = await this.db.kysely
      .selectFrom('cameras')
      .innerJoin('projects', 'projects.id', 'cameras.project_id')
      // Never the connection JSON: it holds the camera's credentials.
      .select(['cameras.exid', 'cameras.name', 'cameras.kind', 'cameras.status', 'cameras.timezone', 'cameras.last_online_at', 'cameras.last_checked_at', 'cameras.created_at', 'projects.exid as project_exid', 'projects.name as project_name'])
      .where('cameras.exid', '=', exid)
      .executeTakeFirst();
    if (!c) throw new ApiError('NOT_FOUND', 'Camera not found');
    return c;
  }

  // ---- API keys ----

  async listKeys(q: Page & { user_id?: string; status?: 'valid' | 'expired' | 'revoked' }) {
    let query = this.db.kysely.selectFrom('api_keys').innerJoin('users', 'users.id', 'api_keys.user_id');
    if (q.user_id) query = query.where('api_keys.user_id', '=', q.user_id);
    const now = new Date().toISOString();
    if (q.status === 'revoked') query = query.where('api_keys.revoked_at', 'is not', null);
    if (q.status === 'expired') query = query.where('api_keys.revoked_at', 'is', null).where('api_keys.expires_at', '<=', now);
    if (q.status === 'valid') query = query.where('api_keys.revoked_at', 'is', null).where('api_keys.expires_at', '>', now);
    const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const rows = await query
      .selectAll('api_keys')
      .select(['users.email as owner_email'])
      .orderBy('api_keys.created_at', 'desc')
      .orderBy('api_keys.id')
      .limit(q.pageSize)
      .offset(pageOffset(q.page, q.pageSize))
      .execute();
    const exids = await projectExidsOfKeys(this.db, rows.map((r) => r.id));
    return {
      meta: pageMeta(q.page, q.pageSize, Number(total)),
      data: rows.map(({ owner_email, ...r }) => ({ ...toApiKeyRecord(r, exids.get(r.id) ?? []), owner: { id: r.user_id, email: owner_email } })),
    };
  }

  async revokeKey(ctx: AuditContext, id: string) {
    const row = await this.db.kysely.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new ApiError('NOT_FOUND', 'API key not found');
    if (!row.revoked_at) {
      const now = new Date().toISOString();
      await this.db.kysely.updateTable('api_keys').set({ revoked_at: now, updated_at: now }).where('id', '=', id).execute();
      await this.audit.record(ctx, { action: 'admin.api_key_revoked', subjectUserId: row.user_id, target: { type: 'api_key', id }, details: { name: row.name, hint: row.key_hint } });
    }
    this.keys.forgetKey(id);
    return this.keyById(id);
  }

  private async keyById(id: string) {
    const row = await this.db.kysely.selectFrom('api_keys').innerJoin('users', 'users.id', 'api_keys.user_id').selectAll('api_keys').select('users.email as owner_email').where('api_keys.id', '=', id).executeTakeFirstOrThrow();
    const { owner_email, ...r } = row;
    const exids = await projectExidsOfKeys(this.db, [id]);
    return { ...toApiKeyRecord(r, exids.get(id) ?? []), owner: { id: r.user_id, email: owner_email } };
  }

  /** The answer to a leaked key: every key of a person stops working at once. */
  async revokeAllKeys(ctx: AuditContext, userId: string) {
    const user = await this.mustUser(userId);
    const now = new Date().toISOString();
    const res = await this.db.kysely.updateTable('api_keys').set({ revoked_at: now, updated_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst();
    this.keys.forgetUser(userId);
    const revoked = Number(res.numUpdatedRows);
    await this.audit.record(ctx, { action: 'admin.api_keys_revoked_all', subjectUserId: userId, target: { type: 'user', id: userId }, details: { email: user.email, revoked } });
    return { revoked };
  }

  // ---- statistics ----

  async stats() {
    const k = this.db.kysely;
    const now = new Date().toISOString();
    const dayAgo = new Date(Date.now() - 86_400_000).toISOString();
    const total = async (q: { select: (f: (eb: any) => any) => { executeTakeFirstOrThrow(): Promise<unknown> } }) =>
      Number(((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()) as { n: unknown }).n);
    const live = k.selectFrom('sessions').where('revoked_at', 'is', null).where('expires_at', '>', now);
    const [users, admins, disabled, projects, cameras, keysValid, keysRevoked, keysTotal, sessions, impersonations, events] = await Promise.all([
      total(k.selectFrom('users')),
      total(k.selectFrom('users').where('is_admin', '=', 1)),
      total(k.selectFrom('users').where('disabled_at', 'is not', null)),
      total(k.selectFrom('projects')),
      total(k.selectFrom('cameras')),
      total(k.selectFrom('api_keys').where('revoked_at', 'is', null).where('expires_at', '>', now)),
      total(k.selectFrom('api_keys').where('revoked_at', 'is not', null)),
      total(k.selectFrom('api_keys')),
      total(live),
      total(live.where('impersonator_id', 'is not', null)),
      total(k.selectFrom('audit_events').where('created_at', '>=', dayAgo)),
    ]);
    return {
      users: { total: users, admins, disabled },
      projects: { total: projects },
      cameras: { total: cameras },
      api_keys: { total: keysTotal, valid: keysValid, revoked: keysRevoked, expired: keysTotal - keysValid - keysRevoked },
      sessions: { active: sessions, impersonated: impersonations },
      audit_events_last_24h: events,
    };
  }
}
