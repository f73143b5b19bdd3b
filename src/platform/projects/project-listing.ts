// Projects as their lists show them: each with its owner (members' and users' repositories) and its
// camera count, which the cameras feature answers through the port below (cameras import projects, so
// projects ask the cameras plugin's service rather than import its code).
import type { PlatformDb } from '../database.js';
import type { ProjectsTable } from './projects-tables.js';
import { ownersOf } from '../members/index.js';
import { emailsOf } from '../users/index.js';
import { projectRowsByIds, type ProjectColumns } from './projects-repository.js';

/** What a project list needs of the cameras feature (its service offers it). */
export interface CameraCounts {
  /** How many cameras each of the given projects has (absent: none). */
  countsOf(projectIds: readonly string[]): Promise<Map<string, number>>;
}

/** A project row with its owner and camera count. */
export interface ProjectRow extends Omit<ProjectsTable, 'updated_at'> {
  owner_id: string | null;
  owner_email: string | null;
  camera_count: number;
}

/** Each project with its owner (from members, e-mail from users) and its camera count (from cameras). */
async function withOwnersAndCounts(db: PlatformDb, rows: ProjectColumns[], owners: Map<string, string>, counts: Map<string, number>): Promise<ProjectRow[]> {
  const emails = await emailsOf(db, [...owners.values()]);
  return rows.map((r) => {
    const ownerId = owners.get(r.id);
    const email = ownerId === undefined ? undefined : emails.get(ownerId);
    // A person deleted meanwhile counts as no owner, as the join on users did.
    return { ...r, owner_id: email === undefined ? null : ownerId!, owner_email: email ?? null, camera_count: counts.get(r.id) ?? 0 };
  });
}

export async function projectsByIds(db: PlatformDb, cameras: CameraCounts, ids: string[]): Promise<ProjectRow[]> {
  if (ids.length === 0) return [];
  const [rows, owners, counts] = await Promise.all([projectRowsByIds(db, ids), ownersOf(db, ids), cameras.countsOf(ids)]);
  return withOwnersAndCounts(db, rows, owners, counts);
}

export async function projectById(db: PlatformDb, cameras: CameraCounts, id: string): Promise<ProjectRow | undefined> {
  const [rows, owners, counts] = await Promise.all([projectRowsByIds(db, [id]), ownersOf(db, [id]), cameras.countsOf([id])]);
  return (await withOwnersAndCounts(db, rows, owners, counts))[0];
}
