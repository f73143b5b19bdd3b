// The mail feature's queries: reset tokens, address preferences, progress-photo send slots.
import type { PlatformDb } from '../database.js';
import type { PasswordResetsTable } from './mail-tables.js';

export const insertPasswordReset = (db: PlatformDb, row: PasswordResetsTable) => db.kysely.insertInto('password_resets').values(row).execute();

export const passwordResetByHash = (db: PlatformDb, hash: string) =>
  db.kysely.selectFrom('password_resets').selectAll().where('token_hash', '=', hash).executeTakeFirst();

/** How many resets the person asked for since `since`. */
export async function resetsSince(db: PlatformDb, userId: string, since: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('password_resets')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('created_at', '>', since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Spends a token: true for the one caller that found it unspent and unexpired. */
export async function spendPasswordReset(db: PlatformDb, id: string, now: string): Promise<boolean> {
  const res = await db.kysely
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Every other unspent token of the person is spent with it: one new password ends them all. */
export const spendOtherResetsOf = (db: PlatformDb, userId: string, now: string) =>
  db.kysely.updateTable('password_resets').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();

/** Forgets tokens that expired before `before`. */
export const deleteResetsExpiredBefore = (db: PlatformDb, before: string) => db.kysely.deleteFrom('password_resets').where('expires_at', '<', before).execute();

export async function preferencesOf(db: PlatformDb, email: string): Promise<string[]> {
  const row = await db.kysely.selectFrom('mail_preferences').select('off').where('email', '=', email).executeTakeFirst();
  return row ? (JSON.parse(row.off) as string[]) : [];
}

export async function preferencesAmong(db: PlatformDb, emails: readonly string[]): Promise<Map<string, string[]>> {
  if (emails.length === 0) return new Map();
  const rows = await db.kysely
    .selectFrom('mail_preferences')
    .select(['email', 'off'])
    .where('email', 'in', [...emails])
    .execute();
  return new Map(rows.map((r) => [r.email, JSON.parse(r.off) as string[]]));
}

export async function savePreferences(db: PlatformDb, email: string, off: string[], now: string): Promise<void> {
  await db.kysely
    .insertInto('mail_preferences')
    .values({ email, off: JSON.stringify(off), updated_at: now })
    .onConflict((oc) => oc.column('email').doUpdateSet({ off: JSON.stringify(off), updated_at: now }))
    .execute();
}

export async function lastSlotsOf(db: PlatformDb, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.kysely
    .selectFrom('progress_photo_sends')
    .selectAll()
    .where('progress_photo_id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.progress_photo_id, r.last_slot]));
}

export async function saveLastSlot(db: PlatformDb, id: string, slot: string): Promise<void> {
  await db.kysely
    .insertInto('progress_photo_sends')
    .values({ progress_photo_id: id, last_slot: slot })
    .onConflict((oc) => oc.column('progress_photo_id').doUpdateSet({ last_slot: slot }))
    .execute();
}
