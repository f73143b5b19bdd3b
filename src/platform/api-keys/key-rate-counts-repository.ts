// Where per-key request counts (and the leak report's per-address counts) are kept: the store the sign-in
// throttle uses. On PostgreSQL, the `api_key_rate_counts` table through rate-limiter-flexible's PostgreSQL
// store, so every node counts the same requests (our migration creates the table, so the store is told
// `tableCreated`); on SQLite (one node) in the process's memory, with no database write per request.
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { CounterOptions } from '../../lib/auth/sign-in-throttle.js';
import { counterStore } from '../db/counter-store.js';
import type { PlatformDb } from '../database.js';

/** A request counter: shared by every node on PostgreSQL, in memory on SQLite. */
export const requestCounter = (db: PlatformDb, opts: CounterOptions): RateLimiterAbstract => counterStore(db, 'api_key_rate_counts', opts);

/** Deletes the counts that ended before `beforeMs`. Nothing to do on SQLite. */
export async function pruneKeyRateCounts(db: PlatformDb, beforeMs: number): Promise<void> {
  if (db.dialect === 'sqlite') return;
  await db.kysely.deleteFrom('api_key_rate_counts').where('expire', '<', beforeMs).execute();
}
