// Request and failure counters (rate-limiter-flexible) kept where every node sees them: on PostgreSQL in
// a table of the owning feature, through the library's PostgreSQL store (the store's own SQL reads and
// writes it; our migration creates it, so the store is told `tableCreated`); on SQLite, which has one
// node, in the process's memory, with no database write per counted request.
import type pg from 'pg';
import { type RateLimiterAbstract, RateLimiterPostgres } from 'rate-limiter-flexible';
import { type CounterOptions, memoryCounter } from '../../lib/auth/sign-in-throttle.js';
import type { PlatformDb } from '../database.js';

/** A counter in `table` (the owner's; it prunes ended rows itself) on PostgreSQL, in memory on SQLite. */
export function counterStore(db: PlatformDb, table: string, opts: CounterOptions): RateLimiterAbstract {
  if (db.dialect === 'sqlite') return memoryCounter(opts);
  if (!db.pool) throw new Error(`the ${table} counters need the PostgreSQL pool (openDb sets it)`);
  return new RateLimiterPostgres({
    ...opts,
    storeClient: unnamedStatements(db.pool),
    storeType: 'pool',
    tableName: table,
    // Named outright rather than left to the pool's search_path.
    schemaName: db.pgSchema,
    tableCreated: true,
    // Ended rows are pruned by the owner, on a timer the app stops when it closes.
    clearExpiredByTimeout: false,
  });
}

/**
 * The pool as the store sees it, its queries sent as unnamed statements: the store names its prepared
 * statements, which a pooler in transaction mode (PgBouncer before 1.21) cannot keep across transactions
 * (docs/deploy.md, Connections). The store only ever calls `query`.
 */
function unnamedStatements(pool: pg.Pool): Pick<pg.Pool, 'query'> {
  return { query: ((q: pg.QueryConfig) => pool.query(q.text, q.values)) as pg.Pool['query'] };
}
