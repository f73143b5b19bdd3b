// A fresh database per test file: an SQLite file in a temp dir, or (OVERLOOK_TEST_DB=postgres) a
// PostgreSQL database of its own (with the platform in a schema of the same name), dropped afterwards,
// so test files run in parallel without sharing rows. A database, not only a schema, because Kysely's
// migrator reads the catalogue of every schema in its database: a schema dropped by another file at that
// moment fails it ("schema … does not exist"). On PostgreSQL each database is a copy of a template
// migrated once per set of migrations (test/helpers/pg-template.ts): CREATE DATABASE … TEMPLATE copies
// it in a fraction of the time migrating a fresh one takes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { openDb } from '../../src/lib/db/index.js';
import { migrateToLatest } from '../../src/lib/db/migrate.js';
import type { PlatformDatabase, PlatformDb } from '../../src/platform/database.js';
import { PLATFORM_MIGRATIONS } from '../../src/platform/db/platform-migrations.js';
import { databaseUrlOf, onDatabase } from './pg-admin.js';
import { migratedTemplate } from './pg-template.js';

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
  const migrate = opts.migrate !== false;
  if (testDialect() === 'postgres') {
    pgSchema = `t_${randomBytes(6).toString('hex')}`;
    const adminUrl = process.env.OVERLOOK_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    const template = migrate ? await migratedTemplate(adminUrl) : undefined;
    const scratch = await createScratchDatabase(adminUrl, pgSchema, template?.name);
    databaseUrl = scratch.url;
    drop = scratch.drop;
    // The copy's schema gets this database's own name, as a freshly migrated one would have.
    if (template) await onDatabase(databaseUrl, `ALTER SCHEMA ${template.schema} RENAME TO ${pgSchema}`);
    db = openDb<PlatformDatabase>({ databaseUrl, pgSchema, poolSize: 4 });
  } else {
    db = openDb<PlatformDatabase>({ sqliteFile: join(dataDir, 'overlook.sqlite') });
    if (migrate) await migrateToLatest(db, PLATFORM_MIGRATIONS);
  }
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

/**
 * A throw-away database next to the one `adminUrl` names (CREATE DATABASE, a copy of `template` when
 * given), dropped by `drop()`.
 */
export async function createScratchDatabase(
  adminUrl: string,
  name = `overlook_scratch_${randomBytes(5).toString('hex')}`,
  template?: string,
): Promise<ScratchDatabase> {
  await onDatabase(adminUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  return { url: databaseUrlOf(adminUrl, name), drop: () => onDatabase(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
