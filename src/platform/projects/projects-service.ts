// Projects: created by a person who becomes their owner; seen through membership.
import type { PlatformDb } from '../database.js';
import { ApiError, validation } from '../../lib/errors.js';
import type { CacheRegistry } from '../../lib/cache/index.js';
import type { Role } from '../access/index.js';
import type { ProjectsTable } from './projects-tables.js';
import { isTimeZone, makeExid, type ProjectRecord } from './project-record.js';
import * as repo from './projects-repository.js';
import { projectById, projectsByIds, type CameraCounts, type ProjectRow } from './project-listing.js';
import { newId } from '../../lib/ids.js';

const toRecord = (r: ProjectRow, role: Role | null): ProjectRecord => ({
  exid: r.exid,
  name: r.name,
  status: r.status,
  timezone: r.timezone,
  role,
  owner: r.owner_id && r.owner_email ? { id: r.owner_id, email: r.owner_email } : null,
  camera_count: r.camera_count,
  created_at: r.created_at,
});

export class ProjectsService {
  constructor(
    private readonly db: PlatformDb,
    /** A new project forgets its owner's cached roles (docs/architecture.md, Caches). */
    private readonly caches: CacheRegistry,
    private readonly cameras: CameraCounts,
  ) {}

  async create(ownerId: string, input: { name: string; timezone?: string; status?: ProjectsTable['status'] }): Promise<ProjectRecord> {
    const name = input.name.trim();
    if (!name) throw validation('name', 'must not be blank');
    const timezone = input.timezone ?? 'UTC';
    if (!isTimeZone(timezone)) throw validation('timezone', `unknown time zone ${timezone}`);
    let exid = makeExid(name);
    for (let i = 0; i < 5 && (await repo.exidTaken(this.db, exid)); i++) exid = makeExid(name);
    const id = newId();
    await repo.insertProject(this.db, { id, exid, name, status: input.status ?? 'In Progress', timezone, ownerId, now: new Date().toISOString() });
    await this.caches.forget([{ kind: 'user-roles', id: ownerId }]);
    return this.get(id, 'owner');
  }

  async list(visible: ReadonlyMap<string, Role>): Promise<ProjectRecord[]> {
    const rows = await projectsByIds(this.db, this.cameras, [...visible.keys()]);
    return rows.map((r) => toRecord(r, visible.get(r.id) ?? null));
  }

  async get(projectId: string, role: Role | null): Promise<ProjectRecord> {
    const row = await projectById(this.db, this.cameras, projectId);
    if (!row) throw new ApiError('NOT_FOUND', 'Project not found');
    return toRecord(row, role);
  }

  async contacts(projectId: string) {
    const rows = await repo.contactsOf(this.db, projectId);
    return rows.map((r) => ({ user_id: r.id, email: r.email, firstname: r.firstname, lastname: r.lastname, role: r.role }));
  }

  /** Each project's exid and name, by id (absent: no such project). */
  namesOf(ids: readonly string[]) {
    return repo.projectNamesOf(this.db, ids);
  }
}
