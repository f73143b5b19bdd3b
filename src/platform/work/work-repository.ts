// The work_leases table: taking, renewing, releasing, listing and sweeping leases. The only file that
// touches it. Every statement is one conditional statement that PostgreSQL and SQLite run alike, so two
// nodes racing for a lease never both get it: the upsert's update happens only when the row is expired or
// ours. Times are the database's clock, read in the statement (`now()` on PostgreSQL), never a node's:
// a node whose clock is off neither steals a live lease nor takes one that is born expired. On SQLite
// (one node) that clock is SQLite's, the machine's.
import { type RawBuilder, sql } from 'kysely';
import type { PlatformDb } from '../database.js';

/** Names per statement when renewing or releasing many leases at once. */
const CHUNK = 500;

const chunks = <T>(items: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
};

/**
 * The database's time `offsetMs` from now, as the ISO-8601 UTC text with milliseconds that every timestamp
 * column holds (`toISOString()`'s form, so it compares as time with the stored values).
 */
function dbTime(db: PlatformDb, offsetMs = 0): RawBuilder<string> {
  const ms = Math.round(offsetMs);
  if (db.dialect === 'postgres') {
    return sql<string>`to_char((now() + ${ms}::integer * interval '1 millisecond') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  }
  return sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${`${ms / 1000} seconds`})`;
}

/**
 * Takes `name` for `holder` (reachable at `holderUrl`) for `leaseMs` when it is free, expired, or already
 * the holder's; true when taken.
 */
export async function takeLease(db: PlatformDb, name: string, holder: string, holderUrl: string | null, leaseMs: number): Promise<boolean> {
  const row = await db.kysely
    .insertInto('work_leases')
    .values({ name, holder, expires_at: dbTime(db, leaseMs), holder_url: holderUrl })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ holder, expires_at: dbTime(db, leaseMs), holder_url: holderUrl })
        .where((eb) => eb.or([eb('work_leases.expires_at', '<', dbTime(db)), eb('work_leases.holder', '=', holder)])),
    )
    .returning('name')
    .executeTakeFirst();
  return row !== undefined;
}

/** Extends the holder's leases among `names` by `leaseMs` from now; returns the names still the holder's. */
export async function renewLeases(db: PlatformDb, holder: string, names: readonly string[], leaseMs: number): Promise<string[]> {
  const kept: string[] = [];
  for (const part of chunks(names)) {
    const rows = await db.kysely
      .updateTable('work_leases')
      .set({ expires_at: dbTime(db, leaseMs) })
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
export async function liveLeases(db: PlatformDb, prefix: string): Promise<Map<string, string>> {
  const rows = await db.kysely
    .selectFrom('work_leases')
    .select(['name', 'holder'])
    .where('name', 'like', `${prefix}%`)
    .where('expires_at', '>=', dbTime(db))
    .execute();
  return new Map(rows.map((r) => [r.name, r.holder]));
}

/** Who holds `name` unexpired, and where that node can be reached; null when nobody does. */
export async function leaseHolder(db: PlatformDb, name: string): Promise<{ holder: string; holderUrl: string | null } | null> {
  const row = await db.kysely
    .selectFrom('work_leases')
    .select(['holder', 'holder_url'])
    .where('name', '=', name)
    .where('expires_at', '>=', dbTime(db))
    .executeTakeFirst();
  return row ? { holder: row.holder, holderUrl: row.holder_url } : null;
}

/**
 * Deletes the leases that expired over `graceMs` ago (their nodes died or stalled that long); returns how
 * many. A row deleted is as free as an expired one, so this races with no taker. The table holds a row per
 * unit of work, so the scan is small.
 */
export async function sweepExpiredLeases(db: PlatformDb, graceMs: number): Promise<number> {
  const res = await db.kysely.deleteFrom('work_leases').where('expires_at', '<', dbTime(db, -graceMs)).executeTakeFirst();
  return Number(res.numDeletedRows);
}
