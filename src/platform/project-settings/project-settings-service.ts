// A project's own settings (docs/settings.md): its update by admins; its transfer and deletion by the owner.
// The access layer has already checked the role; this enforces what the ladder itself cannot (the new
// owner must already be a member) and records every change in the audit log.
import type { PlatformDb } from '../database.js';
import { ApiError, validation } from '../../lib/errors.js';
import type { CacheFact, CacheRegistry } from '../../lib/cache/index.js';
import { ROLES, type Role } from '../access/index.js';
import { type ProjectsTable, isTimeZone, deleteProject, projectRowById, updateProject, transferProject, type SettingsActor } from '../projects/index.js';
import { SYSTEM_CONTEXT, type AuditLog } from '../audit/index.js';
import type { DeletionHooks } from '../lifecycle/index.js';
import type { NotificationsService } from '../notifications/index.js';
import type { CameraTeardown } from '../camera-lifecycle/index.js';
import { camerasOfProject } from '../cameras/index.js';
import { membersOf } from '../members/index.js';

export interface ProjectRef {
  id: string;
  exid: string;
}

/** What each role may do, as `GET /v2/projects/{exid}/roles` shows it (docs/access-model.md, Roles). */
const ROLE_LADDER: { role: Role; rank: number; allows: string[] }[] = [
  { role: 'viewer', rank: 1, allows: ['see the project, its cameras, recordings, live views and every feature'] },
  { role: 'editor', rank: 2, allows: ['move PTZ cameras and change presets', 'take snapshots', 'write to the media hub, BIM, comments and video walls'] },
  {
    role: 'admin',
    rank: 3,
    allows: [
      'change project settings (name, status, time zone, logos, thumbnail)',
      'add and remove members and change their roles (up to admin)',
      'change camera settings and connections, delete cameras',
      'manage connectors',
    ],
  },
  { role: 'owner', rank: 4, allows: ['transfer the project to another member', 'delete the project'] },
];

export class ProjectSettingsService {
  constructor(
    private readonly db: PlatformDb,
    /** Role changes and deletions forget the people's roles and keys, the project and its cameras. */
    private readonly caches: CacheRegistry,
    private readonly audit: AuditLog,
    private readonly notifications: NotificationsService,
    private readonly hooks: DeletionHooks,
    private readonly teardown: CameraTeardown,
  ) {}

  roles() {
    return ROLE_LADDER.map((r) => ({ ...r, includes: ROLES.filter((x) => ROLE_LADDER.find((l) => l.role === x)!.rank <= r.rank) }));
  }

  async update(actor: SettingsActor, project: ProjectRef, input: { name?: string; status?: ProjectsTable['status']; timezone?: string }): Promise<void> {
    const set: { name?: string; status?: ProjectsTable['status']; timezone?: string; updated_at: string } = { updated_at: new Date().toISOString() };
    if (input.name !== undefined) {
      set.name = input.name.trim();
      if (!set.name) throw validation('name', 'must not be blank');
    }
    if (input.status !== undefined) set.status = input.status;
    if (input.timezone !== undefined) {
      if (!isTimeZone(input.timezone)) throw validation('timezone', `unknown time zone ${input.timezone}`);
      set.timezone = input.timezone;
    }
    const before = await projectRowById(this.db, project.id);
    if (!before) throw new ApiError('NOT_FOUND', 'Project not found');
    await updateProject(this.db, project.id, set);
    // Camera records show the project's name: drop them here and on every other node.
    await this.caches.forget([{ kind: 'project-details', id: project.exid }]);
    const changed = Object.fromEntries(
      (['name', 'status', 'timezone'] as const).filter((k) => set[k] !== undefined && set[k] !== before[k]).map((k) => [k, { from: before[k], to: set[k] }]),
    );
    if (Object.keys(changed).length) await this.record(actor, 'project.updated', project, null, { changes: changed });
  }

  /** Makes a member the owner; the previous owner stays as an admin. */
  transfer(actor: SettingsActor, project: ProjectRef, to: { user_id?: string; email?: string }): Promise<void> {
    const deps = { db: this.db, caches: this.caches, audit: this.audit, notifications: this.notifications };
    return transferProject(deps, actor.audit ?? { ...SYSTEM_CONTEXT, actorUserId: actor.userId }, project, to);
  }

  /** Deletes the project: every camera's and the project's deletion hooks, then the row (rows cascade). */
  async delete(actor: SettingsActor, project: ProjectRef): Promise<void> {
    const cameras = await camerasOfProject(this.db, project.id);
    const members = await membersOf(this.db, project.id);
    const name = (await projectRowById(this.db, project.id))?.name;
    await this.hooks.beforeProjectDelete({
      id: project.id,
      exid: project.exid,
      cameras: cameras.map((c) => ({ id: c.id, exid: c.exid, projectId: project.id })),
    });
    for (const c of cameras) await this.teardown.stop(c.exid);
    await this.caches.forget(cameras.map((c): CacheFact => ({ kind: 'camera-stream', id: c.exid })));
    await deleteProject(this.db, project.id);
    await this.caches.forget([
      ...cameras.flatMap((c): CacheFact[] => [
        { kind: 'camera', id: c.exid },
        // The cameras' recorded frames' rows go by cascade.
        { kind: 'camera-snapshots', id: c.id },
      ]),
      { kind: 'project', id: project.id },
      ...members.flatMap((m): CacheFact[] => [
        { kind: 'user-roles', id: m.user_id },
        { kind: 'user-keys', id: m.user_id },
      ]),
    ]);
    await this.record(actor, 'project.deleted', project, null, { name, cameras: cameras.map((c) => c.exid), members: members.length });
    for (const m of members) {
      if (m.user_id !== actor.userId)
        await this.notifications.notify(m.user_id, 'removed_from_project', `Project ${name ?? project.exid} was deleted`, { project_exid: project.exid });
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
