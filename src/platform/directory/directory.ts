// The facts the access layer needs on every request, cached in memory: which project an exid or a
// camera belongs to, and each person's role per project. Writers forget the facts they change
// (`CacheRegistry.forget`: membership, role, deletion) so a change takes effect on the very next
// request (docs/architecture.md, Caches).
import type { Cache, CacheRegistry } from '../../lib/cache/index.js';
import type { PlatformDb } from '../database.js';
import { isRole, type Role, type Principal, type ProjectFact, type ProjectRef } from '../access/index.js';
import { projectIdOfCamera } from '../cameras/index.js';
import { membershipsOf } from '../members/index.js';
import { projectRefByExid, projectRefById } from '../projects/index.js';

const NOT_FOUND: ProjectFact = { found: false };

/** How long a cached access fact may lag a change another process made (this one's own changes forget it at once). */
const DIRECTORY_TTL_MS = 60_000;

export class AccessDirectory {
  /** Bounded, so hostile lookups cannot grow memory; unknown exids are not kept. */
  private readonly projectsByExid: Cache<string, ProjectRef>;
  private readonly projectsByCamera: Cache<string, ProjectRef>;
  private readonly memberships: Cache<string, ReadonlyMap<string, Role>>;

  constructor(
    private readonly db: PlatformDb,
    caches: CacheRegistry,
  ) {
    this.projectsByExid = caches.create('access.projects-by-exid', {
      max: 10_000,
      ttlMs: DIRECTORY_TTL_MS,
      facts: (_exid, ref) => [{ kind: 'project', id: ref.id }],
    });
    this.projectsByCamera = caches.create('access.projects-by-camera', {
      max: 50_000,
      ttlMs: DIRECTORY_TTL_MS,
      facts: (camera, ref) => [
        { kind: 'camera', id: camera },
        { kind: 'project', id: ref.id },
      ],
    });
    // Tagged with each of its projects too: deleting a project drops every person's roles that name it.
    this.memberships = caches.create('access.memberships', {
      max: 10_000,
      ttlMs: DIRECTORY_TTL_MS,
      facts: (userId, roles) => [{ kind: 'user-roles', id: userId }, ...[...roles.keys()].map((id) => ({ kind: 'project' as const, id }))],
    });
  }

  async projectByExid(exid: string): Promise<ProjectFact> {
    const ref = await this.projectsByExid.load(exid, async () => (await projectRefByExid(this.db, exid)) ?? undefined);
    return ref ? { found: true, ...ref } : NOT_FOUND;
  }

  async projectOfCamera(cameraExid: string): Promise<ProjectFact> {
    const ref = await this.projectsByCamera.load(cameraExid, async () => {
      const projectId = await projectIdOfCamera(this.db, cameraExid);
      return (projectId === undefined ? undefined : await projectRefById(this.db, projectId)) ?? undefined;
    });
    return ref ? { found: true, ...ref } : NOT_FOUND;
  }

  async projectById(id: string): Promise<ProjectFact> {
    const row = await projectRefById(this.db, id);
    return row ? { found: true, ...row } : NOT_FOUND;
  }

  /** Every project the person is a member of, with their role. */
  async rolesOf(userId: string): Promise<ReadonlyMap<string, Role>> {
    return this.memberships.load(userId, async () => {
      const rows = await membershipsOf(this.db, userId);
      return new Map(rows.filter((r) => isRole(r.role)).map((r) => [r.project_id, r.role as Role]));
    });
  }

  async roleOf(userId: string, projectId: string): Promise<Role | null> {
    return (await this.rolesOf(userId)).get(projectId) ?? null;
  }

  /**
   * The projects a caller may see in lists: a person's memberships; for a key, the key's list
   * intersected with its owner's memberships (a key never exceeds its owner).
   */
  async visibleProjects(principal: Principal): Promise<Map<string, Role>> {
    if (principal.kind === 'anonymous') return new Map();
    const roles = await this.rolesOf(principal.userId);
    if (principal.kind === 'user') return new Map(roles);
    const visible = new Map<string, Role>();
    for (const id of principal.projectIds) {
      const role = roles.get(id);
      if (role) visible.set(id, role);
    }
    return visible;
  }
}
