// The work_leases table: taking, renewing, releasing and listing leases. The only file that touches it.
// Every statement is one conditional statement that PostgreSQL and SQLite run alike, so two nodes racing
// for a lease never both get it: the upsert's update happens only when the row is expired or ours.
import type { PlatformDb } from '../database.js';

/** Names per statement when renewing or releasing many leases at once. */
const CHUNK = 500;

const chunks = <T>(items: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
};

/**
 * Takes `name` for `holder` (reachable at `holderUrl`) until `expiresAt` when it is free, expired at `now`,
 * or already the holder's; true when taken.
 */
export async function takeLease(db: PlatformDb, name: string, holder: string, holderUrl: string | null, now: string, expiresAt: string): Promise<boolean> {
  const row = await db.kysely
    .insertInto('work_leases')
    .values({ name, holder, expires_at: expiresAt, holder_url: holderUrl })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ holder, expires_at: expiresAt, holder_url: holderUrl })
        .where((eb) => eb.or([eb('work_leases.expires_at', '<', now), eb('work_leases.holder', '=', holder)])),
    )
    .returning('name')
    .executeTakeFirst();
  return row !== undefined;
}

/** Extends the holder's leases among `names` to `expiresAt`; returns the names still the holder's. */
export async function renewLeases(db: PlatformDb, holder: string, names: readonly string[], expiresAt: string): Promise<string[]> {
  const kept: string[] = [];
  for (const part of chunks(names)) {
    const rows = await db.kysely
      .updateTable('work_leases')
      .set({ expires_at: expiresAt })
      .where('holder', '=', holder)
      .where('name', 'in', part)
      .returning('name')
      .execute();
    for (const r of rows) kept.push(r.name);
  }
  return kept;
}

/** Gives up the holder's leases among `names` (another holder's are left alone). */
export async function releaseLeases(db: PlatformDb, holder: string, names: readonly string[]): Promise<void> {
  for (const part of chunks(names)) await db.kysely.deleteFrom('work_leases').where('holder', '=', holder).where('name', 'in', part).execute();
}

/** The unexpired leases whose name starts with `prefix` (which holds no `%` or `_`), name → holder. */
export async function liveLeases(db: PlatformDb, prefix: string, now: string): Promise<Map<string, string>> {
  const rows = await db.kysely
    .selectFrom('work_leases')
    .select(['name', 'holder'])
    .where('name', 'like', `${prefix}%`)
    .where('expires_at', '>=', now)
    .execute();
  return new Map(rows.map((r) => [r.name, r.holder]));
}

/** Who holds `name` unexpired at `now`, and where that node can be reached; null when nobody does. */
export async function leaseHolder(db: PlatformDb, name: string, now: string): Promise<{ holder: string; holderUrl: string | null } | null> {
  const row = await db.kysely
    .selectFrom('work_leases')
    .select(['holder', 'holder_url'])
    .where('name', '=', name)
    .where('expires_at', '>=', now)
    .executeTakeFirst();
  return row ? { holder: row.holder, holderUrl: row.holder_url } : null;
}
