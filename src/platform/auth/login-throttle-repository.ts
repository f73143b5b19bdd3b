// Where the sign-in throttle keeps its counters. On PostgreSQL, in the `login_throttle` table through
// rate-limiter-flexible's PostgreSQL store, so every node counts the same failures: this file is the one
// that hands the table to the store (the store's own SQL reads and writes it; our migration creates it,
// so the store is told `tableCreated`), and the one that prunes it. On SQLite there is one node, whose
// memory holds every count: no write to the database file per failed sign-in, and a restart clears
// blocks as it always has.
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { CounterOptions } from '../../lib/auth/sign-in-throttle.js';
import { counterStore } from '../db/counter-store.js';
import type { PlatformDb } from '../database.js';

/** A failure counter: shared by every node on PostgreSQL, in the process's memory on SQLite. */
export const failureCounter = (db: PlatformDb, opts: CounterOptions): RateLimiterAbstract => counterStore(db, 'login_throttle', opts);

/** Deletes the counters (and blocks) that ended before `beforeMs`. Nothing to do on SQLite. */
export async function pruneLoginThrottle(db: PlatformDb, beforeMs: number): Promise<void> {
  if (db.dialect === 'sqlite') return;
  await db.kysely.deleteFrom('login_throttle').where('expire', '<', beforeMs).execute();
}
