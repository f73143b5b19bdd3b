// The webhooks tables: a project's webhooks, their failure counts and their attempt log. The only file
// that touches them.
import type { PlatformDb } from '../database.js';
import type { WebhookAttemptRow, WebhookRow } from './webhooks-tables.js';

export async function insertWebhook(db: PlatformDb, row: WebhookRow): Promise<void> {
  await db.kysely.insertInto('webhooks').values(row).execute();
}

export async function webhooksOf(db: PlatformDb, projectId: string): Promise<WebhookRow[]> {
  return db.kysely.selectFrom('webhooks').selectAll().where('project_id', '=', projectId).orderBy('created_at').orderBy('id').execute();
}

export async function countWebhooksOf(db: PlatformDb, projectId: string): Promise<number> {
  const r = await db.kysely
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export async function webhookOf(db: PlatformDb, projectId: string, id: string): Promise<WebhookRow | undefined> {
  return db.kysely.selectFrom('webhooks').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

export async function webhookById(db: PlatformDb, id: string): Promise<WebhookRow | undefined> {
  return db.kysely.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The enabled webhooks of the project with this exid (the event type is filtered by the caller). */
export async function enabledWebhooksOfExid(db: PlatformDb, projectExid: string): Promise<Pick<WebhookRow, 'id' | 'events'>[]> {
  return db.kysely.selectFrom('webhooks').select(['id', 'events']).where('project_exid', '=', projectExid).where('enabled', '=', 1).execute();
}

export async function updateWebhook(
  db: PlatformDb,
  id: string,
  change: Partial<Pick<WebhookRow, 'url' | 'events' | 'enabled' | 'disabled_reason' | 'consecutive_failures' | 'updated_at'>>,
): Promise<void> {
  await db.kysely.updateTable('webhooks').set(change).where('id', '=', id).execute();
}

export async function deleteWebhook(db: PlatformDb, projectId: string, id: string): Promise<number> {
  const r = await db.kysely.deleteFrom('webhooks').where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Counts one more failure in a row; returns the new count (0 when the webhook is gone). */
export async function countFailure(db: PlatformDb, id: string): Promise<number> {
  const row = await db.kysely
    .updateTable('webhooks')
    .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) }))
    .where('id', '=', id)
    .returning('consecutive_failures')
    .executeTakeFirst();
  return row?.consecutive_failures ?? 0;
}

/** Disables an enabled webhook for repeated failures; true when this call did (once, whatever the races). */
export async function disableForFailures(db: PlatformDb, id: string, at: string): Promise<boolean> {
  const r = await db.kysely
    .updateTable('webhooks')
    .set({ enabled: 0, disabled_reason: 'failures', updated_at: at })
    .where('id', '=', id)
    .where('enabled', '=', 1)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function insertAttempt(db: PlatformDb, row: WebhookAttemptRow): Promise<void> {
  await db.kysely.insertInto('webhook_attempts').values(row).execute();
}

/** Removes the attempts made before `before` (ISO time). */
export async function pruneAttempts(db: PlatformDb, before: string): Promise<void> {
  await db.kysely.deleteFrom('webhook_attempts').where('attempted_at', '<', before).execute();
}

/** A webhook's latest attempts, newest first. */
export async function attemptsOf(db: PlatformDb, webhookId: string, limit: number): Promise<WebhookAttemptRow[]> {
  return db.kysely
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('attempted_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
