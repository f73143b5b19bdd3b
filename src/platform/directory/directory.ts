// The facts the access layer needs on every request, cached in memory: which project an exid or a
// camera belongs to, and each person's role per project. Writers call the `forget…` methods so a change
// (membership, role, deletion) takes effect on the very next request.
import type { Db } from '../../lib/db/index.js';
import { isRole, type Role } from './policy.js';
import type { Principal } from './principal.js';
import type { ProjectFact } from './decide.js';

export interface ProjectRef {
  id: string;
  exid: string;
}

/** A Map that forgets its oldest entries past a size, so hostile lookups cannot grow memory without bound. */
class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }
  override set(key: K, value: V): this {
    if (this.size >= this.limit && !this.has(key)) {
      const oldest = this.keys().next();
      if (!oldest.done) this.delete(oldest.value);
    }
    return super.set(key, value);
  }
}

const NOT_FOUND: ProjectFact = { found: false };

export class AccessDirectory {
  private readonly projectsByExid = new BoundedMap<string, ProjectRef | null>(10_000);
  private readonly projectsByCamera = new BoundedMap<string, ProjectRef | null>(50_000);
  private readonly memberships = new BoundedMap<string, Map<string, Role>>(10_000);

  constructor(private readonly db: Db) {}

  async projectByExid(exid: string): Promise<ProjectFact> {
    let ref = this.projectsByExid.get(exid);
    if (ref === undefined) {
      const row = await this.db.kysely.selectFrom('projects').select(['id', 'exid']).where('exid', '=', exid).executeTakeFirst();
      ref = row ?? null;
      if (ref) this.projectsByExid.set(exid, ref);
    }
    return ref ? { found: true, ...ref } : NOT_FOUND;
  }

  async projectOfCamera(cameraExid: string): Promise<ProjectFact> {
    let ref = this.projectsByCamera.get(cameraExid);
    if (ref === undefined) {
      const row = await this.db.kysely
        .selectFrom('cameras')
        .innerJoin('projects', 'projects.id', 'cameras.project_id')
        .select(['projects.id as id', 'projects.exid as exid'])
        .where('cameras.exid', '=', cameraExid)
        .executeTakeFirst();
      ref = row ?? null;
      if (ref) this.projectsByCamera.set(cameraExid, ref);
    }
    return ref ? { found: true, ...ref } : NOT_FOUND;
  }

  async projectById(id: string): Promise<ProjectFact> {
    const row = await this.db.kysely.selectFrom('projects').select(['id', 'exid']).where('id', '=', id).executeTakeFirst();
    return row ? { found: true, ...row } : NOT_FOUND;
  }

  /** Every project the person is a member of, with their role. */
  async rolesOf(userId: string): Promise<ReadonlyMap<string, Role>> {
    let roles = this.memberships.get(userId);
    if (!roles) {
      const rows = await this.db.kysely.selectFrom('project_members').select(['project_id', 'role']).where('user_id', '=', userId).execute();
      roles = new Map(rows.filter((r) => isRole(r.role)).map((r) => [r.project_id, r.role as Role]));
      this.memberships.set(userId, roles);
    }
    return roles;
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

  forgetUser(userId: string): void {
    this.memberships.delete(userId);
  }

  forgetProject(project: { id: string; exid: string }): void {
    this.projectsByExid.delete(project.exid);
    for (const [cam, ref] of this.projectsByCamera) if (ref?.id === project.id) this.projectsByCamera.delete(cam);
    this.memberships.clear();
  }

  forgetCamera(cameraExid: string): void {
    this.projectsByCamera.delete(cameraExid);
  }
}
