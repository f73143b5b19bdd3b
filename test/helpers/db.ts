// A fresh database per test file: an SQLite file in a temp dir, or (OVERLOOK_TEST_DB=postgres) a
// PostgreSQL schema of its own, dropped afterwards, so test files run in parallel without sharing rows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDb } from '../../src/lib/db/index.js';
import { migrateToLatest } from '../../src/lib/db/migrate.js';
import type { PlatformDatabase, PlatformDb } from '../../src/platform/database.js';
import { PLATFORM_MIGRATIONS } from '../../src/platform/db/platform-migrations.js';

export const testDialect = (): 'sqlite' | 'postgres' => (process.env.OVERLOOK_TEST_DB === 'postgres' ? 'postgres' : 'sqlite');

export interface TestDb {
  db: PlatformDb;
  dataDir: string;
  /** Set when running on PostgreSQL. */
  databaseUrl?: string;
  pgSchema?: string;
  cleanup(): Promise<void>;
}

export async function createTestDb(opts: { migrate?: boolean } = {}): Promise<TestDb> {
  const dataDir = mkdtempSync(join(tmpdir(), 'overlook-test-'));
  let db: PlatformDb;
  let drop = async () => {};
  let databaseUrl: string | undefined;
  let pgSchema: string | undefined;
  if (testDialect() === 'postgres') {
    databaseUrl = process.env.OVERLOOK_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    pgSchema = `t_${randomBytes(6).toString('hex')}`;
    db = openDb<PlatformDatabase>({ databaseUrl, pgSchema, poolSize: 4 });
    const url = databaseUrl;
    const schema = pgSchema;
    drop = async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    };
  } else {
    db = openDb<PlatformDatabase>({ sqliteFile: join(dataDir, 'overlook.sqlite') });
  }
  if (opts.migrate !== false) await migrateToLatest(db, PLATFORM_MIGRATIONS);
  return {
    db,
    dataDir,
    databaseUrl,
    pgSchema,
    async cleanup() {
      await db.close().catch(() => {});
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
