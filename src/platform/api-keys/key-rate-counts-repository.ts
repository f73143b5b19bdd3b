// Where per-key request counts (and the leak report's per-address counts) are kept: the store the sign-in
// throttle uses. On PostgreSQL, the `api_key_rate_counts` table through rate-limiter-flexible's PostgreSQL
// store, so every node counts the same requests (our migration creates the table, so the store is told
// `tableCreated`); on SQLite (one node) in the process's memory, with no database write per request.
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres } from 'rate-limiter-flexible';
import type { PlatformDb } from '../db/database.js';

export interface CounterOptions {
  /** Names the counter; its rows' keys start with it. */
  keyPrefix: string;
  /** Points allowed in a window before `consume` rejects. */
  points: number;
  /** The window, in seconds (a call may give its own). */
  duration: number;
}

/** A request counter: shared by every node on PostgreSQL, in memory on SQLite. */
export function requestCounter(db: PlatformDb, opts: CounterOptions): RateLimiterAbstract {
  if (db.dialect === 'sqlite') return new RateLimiterMemory(opts);
  if (!db.pool) throw new Error('the key rate counter needs the PostgreSQL pool (openDb sets it)');
  return new RateLimiterPostgres({
    ...opts,
    storeClient: db.pool,
    storeType: 'pool',
    tableName: 'api_key_rate_counts',
    schemaName: db.pgSchema,
    tableCreated: true,
    // Ended counts are pruned by pruneKeyRateCounts, on a timer the app stops when it closes.
    clearExpiredByTimeout: false,
  });
}

/** Deletes the counts that ended before `beforeMs`. Nothing to do on SQLite. */
export async function pruneKeyRateCounts(db: PlatformDb, beforeMs: number): Promise<void> {
  if (db.dialect === 'sqlite') return;
  await db.kysely.deleteFrom('api_key_rate_counts').where('expire', '<', beforeMs).execute();
}
