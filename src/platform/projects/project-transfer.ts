// Transferring a project (docs/settings.md): the one implementation behind the owner's
// `POST /v2/projects/{exid}/transfer` and the administrators' `POST /v2/admin/projects/{exid}/transfer`.
// The new owner must already be a member; the previous owner stays on as an admin.
import { ApiError, validation } from '../../lib/errors.js';
import type { CacheFact, CacheRegistry } from '../../lib/cache/index.js';
import type { AuditContext, AuditLog } from '../audit/index.js';
import type { PlatformDb } from '../database.js';
import { memberOf, moveOwnership, ownerOf } from '../members/index.js';
import type { NotificationsService } from '../notifications/index.js';
import { findUserByEmail, findUserById } from '../users/index.js';

export interface TransferDeps {
  db: PlatformDb;
  /** The people's cached roles and keys are forgotten, so the new rights apply on the next request. */
  caches: CacheRegistry;
  audit: AuditLog;
  notifications: NotificationsService;
}

/** Makes a member the project's owner, by `user_id` or `email`; audited for both people, both notified. */
export async function transferProject(
  deps: TransferDeps,
  ctx: AuditContext,
  project: { id: string; exid: string },
  to: { user_id?: string; email?: string },
): Promise<void> {
  const { db } = deps;
  if (!to.user_id === !to.email) throw validation('user_id', 'give exactly one of user_id or email');
  const person = to.user_id ? await findUserById(db, to.user_id) : await findUserByEmail(db, to.email!);
  const membership = person && (await memberOf(db, project.id, person.id));
  if (!person || !membership) throw new ApiError('NOT_FOUND', 'That person is not a member of this project; add them first');
  if (membership.role === 'owner') throw new ApiError('CONFLICT', 'That person already owns the project');
  if (person.disabled_at) throw new ApiError('CONFLICT', 'A disabled account cannot own a project');
  const previous = await ownerOf(db, project.id);
  await moveOwnership(db, project.id, previous, person.id);
  const people = previous ? [person.id, previous] : [person.id];
  await deps.caches.forget(
    people.flatMap((id): CacheFact[] => [
      { kind: 'user-roles', id },
      { kind: 'user-keys', id },
    ]),
  );
  const details = { project_exid: project.exid, from_user_id: previous ?? null, to_user_id: person.id, to_previous_role: membership.role };
  // One entry for each person whose rights changed, so each finds it in their own log.
  for (const subject of [previous, person.id]) {
    if (subject)
      await deps.audit.record(ctx, { action: 'project.transferred', subjectUserId: subject, target: { type: 'project', id: project.exid }, details });
  }
  await deps.notifications.notify(person.id, 'role_changed', `You are now the owner of project ${project.exid}`, { project_exid: project.exid, role: 'owner' });
  if (previous)
    await deps.notifications.notify(previous, 'role_changed', `Project ${project.exid} was transferred; you are now an admin`, {
      project_exid: project.exid,
      role: 'admin',
    });
}
