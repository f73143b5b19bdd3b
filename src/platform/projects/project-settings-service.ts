// A project's own settings (contract §4): its update by admins; its transfer and deletion by the owner.
// The access layer has already checked the role; this enforces what the ladder itself cannot (the new
// owner must already be a member) and records every change in the audit log.
import type { Db } from '../../lib/db/index.js';
import { ApiError, validation } from '../../lib/errors.js';
import type { AccessDirectory } from '../access/directory.js';
import { ROLES, type Role } from '../access/policy.js';
import { SYSTEM_CONTEXT, type AuditContext, type AuditLog } from '../audit/audit-log.js';
import type { DeletionHooks } from '../lifecycle/deletion-hooks.js';
import type { NotificationsService } from '../notifications/notifications-service.js';
import { isTimeZone } from './project-record.js';
import type { CameraTeardown } from '../cameras/camera-teardown.js';

export interface SettingsActor {
  userId: string;
  role: Role;
  audit: AuditContext;
}

export interface ProjectRef {
  id: string;
  exid: string;
}

/** What each role may do, as `GET /v2/projects/{exid}/roles` shows it (contract §4). */
export const ROLE_LADDER: { role: Role; rank: number; allows: string[] }[] = [
  { role: 'viewer', rank: 1, allows: ['see the project, its cameras, recordings, live views and every feature'] },
  { role: 'editor', rank: 2, allows: ['move PTZ cameras and change presets', 'take snapshots', 'write to the media hub, BIM, comments and video walls'] },
  { role: 'admin', rank: 3, allows: ['change project settings (name, status, time zone, logos, thumbnail)', 'add and remove members and change their roles (up to admin)', 'change camera settings and connections, delete cameras', 'manage connectors'] },
  { role: 'owner', rank: 4, allows: ['transfer the project to another member', 'delete the project'] },
];

export class ProjectSettingsService {
  constructor(
    private readonly db: Db,
    private readonly directory: AccessDirectory,
    private readonly audit: AuditLog,
    private readonly notifications: NotificationsService,
    private readonly hooks: DeletionHooks,
    private readonly teardown: CameraTeardown,
    /** Drops cached API keys of a person whose role changed or who left. */
    private readonly forgetKeysOf: (userId: string) => void,
  ) {}

  roles() {
    return ROLE_LADDER.map((r) => ({ ...r, includes: ROLES.filter((x) => ROLE_LADDER.find((l) => l.role === x)!.rank <= r.rank) }));
  }

  async update(actor: SettingsActor, project: ProjectRef, input: { name?: string; status?: string; timezone?: string }): Promise<void> {
    const set: { name?: string; status?: string; timezone?: string; updated_at: string } = { updated_at: new Date().toISOString() };
    if (input.name !== undefined) {
      set.name = input.name.trim();
      if (!set.name) throw validation('name', 'must not be blank');
    }
    if (input.status !== undefined) set.status = input.status;
    if (input.timezone !== undefined) {
      if (!isTimeZone(input.timezone)) throw validation('timezone', `unknown time zone ${input.timezone}`);
      set.timezone = input.timezone;
    }
    const before = await this.db.kysely.selectFrom('projects').select(['name', 'status', 'timezone']).where('id', '=', project.id).executeTakeFirst();
    if (!before) throw new ApiError('NOT_FOUND', 'Project not found');
    await this.db.kysely.updateTable('projects').set(set).where('id', '=', project.id).execute();
    const changed = Object.fromEntries(
      (['name', 'status', 'timezone'] as const).filter((k) => set[k] !== undefined && set[k] !== before[k]).map((k) => [k, { from: before[k], to: set[k] }]),
    );
    if (Object.keys(changed).length) await this.record(actor, 'project.updated', project, null, { changes: changed });
  }

  /** Makes a member the owner; the previous owner stays as an admin. */
  async transfer(actor: SettingsActor, project: ProjectRef, to: { user_id?: string; email?: string }): Promise<void> {
    if (!to.user_id === !to.email) throw validation('user_id', 'give exactly one of user_id or email');
    const q = this.db.kysely
      .selectFrom('project_members')
      .innerJoin('users', 'users.id', 'project_members.user_id')
      .select(['users.id', 'users.email', 'users.disabled_at', 'project_members.role'])
      .where('project_members.project_id', '=', project.id);
    const target = await (to.user_id ? q.where('users.id', '=', to.user_id) : q.where('users.email', '=', to.email!.trim().toLowerCase())).executeTakeFirst();
    if (!target) throw new ApiError('NOT_FOUND', 'That person is not a member of this project; add them first');
    if (target.role === 'owner') throw new ApiError('CONFLICT', 'That person already owns the project');
    if (target.disabled_at) throw new ApiError('CONFLICT', 'A disabled account cannot own a project');
    const previous = await this.db.kysely.selectFrom('project_members').select('user_id').where('project_id', '=', project.id).where('role', '=', 'owner').executeTakeFirst();
    await this.db.kysely.transaction().execute(async (trx) => {
      if (previous) await trx.updateTable('project_members').set({ role: 'admin' }).where('project_id', '=', project.id).where('user_id', '=', previous.user_id).execute();
      await trx.updateTable('project_members').set({ role: 'owner' }).where('project_id', '=', project.id).where('user_id', '=', target.id).execute();
    });
    for (const id of [target.id, previous?.user_id]) {
      if (!id) continue;
      this.directory.forgetUser(id);
      this.forgetKeysOf(id);
    }
    const details = { from_user_id: previous?.user_id ?? null, to_user_id: target.id, to_previous_role: target.role };
    // One entry for each person whose rights changed, so each finds it in their own log.
    for (const subject of [previous?.user_id, target.id]) if (subject) await this.record(actor, 'project.transferred', project, subject, details);
    await this.notifications.notify(target.id, 'role_changed', `You are now the owner of project ${project.exid}`, { project_exid: project.exid, role: 'owner' });
    if (previous) await this.notifications.notify(previous.user_id, 'role_changed', `Project ${project.exid} was transferred; you are now an admin`, { project_exid: project.exid, role: 'admin' });
  }

  /** Deletes the project: every camera's and the project's deletion hooks, then the row (rows cascade). */
  async delete(actor: SettingsActor, project: ProjectRef): Promise<void> {
    const cameras = await this.db.kysely.selectFrom('cameras').select(['id', 'exid']).where('project_id', '=', project.id).execute();
    const members = await this.db.kysely.selectFrom('project_members').select(['user_id']).where('project_id', '=', project.id).execute();
    const name = (await this.db.kysely.selectFrom('projects').select('name').where('id', '=', project.id).executeTakeFirst())?.name;
    await this.hooks.beforeProjectDelete({ id: project.id, exid: project.exid, cameras: cameras.map((c) => ({ id: c.id, exid: c.exid, projectId: project.id })) });
    for (const c of cameras) await this.teardown.stop(c.exid);
    await this.db.kysely.deleteFrom('projects').where('id', '=', project.id).execute();
    for (const c of cameras) this.teardown.forget(c.exid);
    this.directory.forgetProject(project);
    for (const m of members) {
      this.directory.forgetUser(m.user_id);
      this.forgetKeysOf(m.user_id);
    }
    await this.record(actor, 'project.deleted', project, null, { name, cameras: cameras.map((c) => c.exid), members: members.length });
    for (const m of members) {
      if (m.user_id !== actor.userId) await this.notifications.notify(m.user_id, 'removed_from_project', `Project ${name ?? project.exid} was deleted`, { project_exid: project.exid });
    }
  }

  /** The project's settings history: transfers, deletions of its cameras, member and role changes, updates. */
  history(project: ProjectRef, q: { page: number; pageSize: number }) {
    return this.audit.list({ targetType: 'project', targetId: project.exid, page: q.page, pageSize: q.pageSize });
  }

  private record(actor: SettingsActor, action: string, project: ProjectRef, subject: string | null, details: Record<string, unknown>) {
    return this.audit.record(actor.audit ?? { ...SYSTEM_CONTEXT, actorUserId: actor.userId }, {
      action,
      subjectUserId: subject ?? actor.userId,
      target: { type: 'project', id: project.exid },
      details: { project_exid: project.exid, ...details },
    });
  }
}
