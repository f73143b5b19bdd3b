// Applies the platform's migrations: on the node's own database, or, when OVERLOOK_DB_MIGRATIONS_URL is
// set, on a connection of their own. The migrator holds a session-level advisory lock across its
// statements, which a pooler in transaction mode (PgBouncer) cannot carry (docs/deploy.md, Connections).
import type { PlatformConfig } from '../../lib/config.js';
import { openDb } from '../../lib/db/index.js';
import { migrateToLatest } from '../../lib/db/migrate.js';
import type { PlatformDatabase, PlatformDb } from '../database.js';
import { PLATFORM_MIGRATIONS } from './platform-migrations.js';

/** Migrates the platform's database to the latest version; returns the migrations applied. */
export async function migratePlatform(config: Pick<PlatformConfig, 'db'>, db: PlatformDb): Promise<string[]> {
  const url = db.dialect === 'postgres' ? config.db.migrationsUrl : undefined;
  // Two connections: the migrator holds one for its lock and transaction, and reads its tables on another.
  if (!url) return migrateToLatest(db, PLATFORM_MIGRATIONS);
  const direct = openDb<PlatformDatabase>({ databaseUrl: url, pgSchema: db.pgSchema, poolSize: 2, applicationName: `${config.db.applicationName}-migrate` });
  try {
    return await migrateToLatest(direct, PLATFORM_MIGRATIONS);
  } finally {
    await direct.close();
  }
}
