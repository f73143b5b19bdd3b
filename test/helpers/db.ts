// A fresh database per test file: an SQLite file in a temp dir, or (OVERLOOK_TEST_DB=postgres) a
// PostgreSQL database of its own (with the platform in a schema of the same name), dropped afterwards,
// so test files run in parallel without sharing rows. A database, not only a schema, because Kysely's
// migrator reads the catalogue of every schema in its database: a schema dropped by another file at that
// moment fails it ("schema … does not exist").
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
    pgSchema = `t_${randomBytes(6).toString('hex')}`;
    const scratch = await createScratchDatabase(process.env.OVERLOOK_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test', pgSchema);
    databaseUrl = scratch.url;
    db = openDb<PlatformDatabase>({ databaseUrl, pgSchema, poolSize: 4 });
    drop = scratch.drop;
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

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A throw-away database next to the one `adminUrl` names (CREATE DATABASE), dropped by `drop()`. */
export async function createScratchDatabase(adminUrl: string, name = `overlook_scratch_${randomBytes(5).toString('hex')}`): Promise<ScratchDatabase> {
  const admin = async (statement: string) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(statement);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
