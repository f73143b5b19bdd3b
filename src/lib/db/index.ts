// One Kysely instance over either embedded SQLite (default, WAL, in the data dir) or PostgreSQL (DATABASE_URL).
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/** A database of schema `S` (the platform's `PlatformDb`, the recorder's `RecorderDb`). */
export interface Db<S> {
  kysely: Kysely<S>;
  dialect: Dialect;
  /** The PostgreSQL schema in use when not `public` (migrations create it). */
  pgSchema?: string;
  /** PostgreSQL only: the connection string, for a session of its own outside the pool (LISTEN). */
  databaseUrl?: string;
  /** PostgreSQL only: the `application_name` the LISTEN session gives itself. */
  listenApplicationName?: string;
  /** PostgreSQL only: the pool under `kysely`, for a library that takes a pg pool (the sign-in throttle's store). */
  pool?: pg.Pool;
  close(): Promise<void>;
}

export interface DbOptions {
  /** PostgreSQL connection string. Without it, SQLite at `sqliteFile`. */
  databaseUrl?: string;
  /** Only for PostgreSQL: a schema to use instead of `public` (created if missing); tests isolate themselves with it. */
  pgSchema?: string;
  sqliteFile?: string;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
  /** PostgreSQL only: the `application_name` of the pool's connections (seen in pg_stat_activity). */
  applicationName?: string;
  /** PostgreSQL only: where the LISTEN session connects, when not to `databaseUrl` (a pooler in transaction mode cannot carry it). */
  listenUrl?: string;
  /**
   * PostgreSQL only: hears a pooled connection's failure (the server restarted or ended the session).
   * The connection is dropped and a new one opened on the next query; the default writes a line to stderr.
   */
  onConnectionError?: (err: Error) => void;
}

// int8 (count(*), bigint columns) as JS numbers: our values stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

/** Opens a database; the caller names its schema type `S`. */
export function openDb<S>(opts: DbOptions): Db<S> {
  if (opts.databaseUrl) {
    if (opts.pgSchema && !/^[a-z_][a-z0-9_]{0,62}$/.test(opts.pgSchema)) throw new Error(`bad schema name ${opts.pgSchema}`);
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      ...(opts.applicationName ? { application_name: opts.applicationName } : {}),
      ...(opts.pgSchema ? { options: `-c search_path=${opts.pgSchema}` } : {}),
    });
    // Without a listener, an 'error' event of the pool (an idle connection lost) or of a client (lost
    // while checked out) would end the process; the query under way fails on its own and is answered 503.
    const onError = opts.onConnectionError ?? ((err: Error) => process.stderr.write(`database connection lost: ${err.message}\n`));
    pool.on('connect', (client) => client.on('error', onError));
    pool.on('error', () => {}); // an idle connection's failure: heard by that client's own listener above
    const kysely = new Kysely<S>({ dialect: new PostgresDialect({ pool }) });
    return {
      kysely,
      dialect: 'postgres',
      pgSchema: opts.pgSchema,
      databaseUrl: opts.listenUrl ?? opts.databaseUrl,
      ...(opts.applicationName ? { listenApplicationName: `${opts.applicationName}-listen` } : {}),
      pool,
      close: () => kysely.destroy(),
    };
  }
  const file = opts.sqliteFile ?? ':memory:';
  const onDisk = file !== ':memory:' && file !== '' && !file.startsWith('file:');
  // The database holds people's data and hashes: owner-only, whatever the umask. SQLite creates the
  // -wal and -shm files with the database file's mode, so the file exists as 0600 before SQLite opens it.
  if (onDisk) closeSync(openSync(file, 'a', 0o600));
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  if (onDisk) ownerOnly(file);
  const kysely = new Kysely<S>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { kysely, dialect: 'sqlite', close: () => kysely.destroy() };
}

/** Mode 0600 on a SQLite database and its -wal and -shm files (made by an older version with the umask's mode). */
function ownerOnly(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) chmodSync(f, 0o600);
}

/**
 * Kysely's SQLite driver prepares every query anew; preparing costs more than running a small
 * query, so prepared statements are kept per SQL text (Kysely's SQL text is stable per query shape).
 */
function withStatementCache(sqlite: SQLite.Database, limit = 500): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sqlText: string) {
      let stmt = cache.get(sqlText);
      if (!stmt) {
        stmt = sqlite.prepare(sqlText);
        if (cache.size >= limit) cache.delete(cache.keys().next().value!);
        cache.set(sqlText, stmt);
      }
      return stmt;
    },
  };
}

export function platformDbOptions(cfg: {
  dataDir: string;
  databaseUrl?: string;
  db?: { poolSize: number; listenUrl?: string; applicationName: string };
}): DbOptions {
  if (!cfg.databaseUrl) return { sqliteFile: join(cfg.dataDir, 'overlook.sqlite') };
  return { databaseUrl: cfg.databaseUrl, poolSize: cfg.db?.poolSize, listenUrl: cfg.db?.listenUrl, applicationName: cfg.db?.applicationName };
}

/** Current time as the ISO-8601 text every timestamp column holds (sorts as text on both databases). */
export const nowIso = () => new Date().toISOString();

/** Booleans are stored as 0/1 integers on both databases. */
export const toBool = (v: unknown): boolean => v === true || v === 1 || v === '1';
