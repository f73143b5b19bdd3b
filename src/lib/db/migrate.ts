// Applies a database's migrations (the platform's or the recorder's, each passed in) to the latest version.
import { Migrator, sql, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import type { Db } from './index.js';
import { isDatabaseUnreachable } from './unreachable.js';
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run on any schema's database */

class StaticProvider implements MigrationProvider {
  constructor(private readonly migrations: Record<string, Migration>) {}
  async getMigrations() {
    return this.migrations;
  }
}

// Kysely looks for its migration tables in every PostgreSQL schema unless told which one: with another
// schema already migrated (tests run side by side, one schema each) it would skip creating its own.
const inSchema = (db: Db<any>) => (db.pgSchema ? { migrationTableSchema: db.pgSchema } : {});

export async function migrateToLatest(db: Db<any>, migrations: Record<string, Migration>): Promise<string[]> {
  if (db.pgSchema) await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(db.pgSchema)}`.execute(db.kysely);
  const migrator = new Migrator({ db: db.kysely, provider: new StaticProvider(migrations), ...inSchema(db) });
  return check(await migrator.migrateToLatest());
}

export async function migrateDownAll(db: Db<any>, migrations: Record<string, Migration>): Promise<string[]> {
  const migrator = new Migrator({ db: db.kysely, provider: new StaticProvider(migrations), ...inSchema(db) });
  const { NO_MIGRATIONS } = await import('kysely');
  return check(await migrator.migrateTo(NO_MIGRATIONS));
}

function check({ error, results }: MigrationResultSet): string[] {
  const failed = results?.find((r) => r.status === 'Error');
  // An unreachable database is passed on as the driver said it, so a caller can wait and retry.
  if (error && isDatabaseUnreachable(error)) throw error;
  if (error) {
    const what = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`migration failed${what}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).map((r) => r.migrationName);
}

/** The migrations not yet applied to the database (a real query: it fails when the database is out of reach). */
export async function pendingMigrations(db: Db<any>, migrations: Record<string, Migration>): Promise<string[]> {
  const migrator = new Migrator({ db: db.kysely, provider: new StaticProvider(migrations), ...inSchema(db) });
  const all = await migrator.getMigrations();
  return all.filter((m) => !m.executedAt).map((m) => m.name);
}

/** The names of the migrations applied to the database, oldest first (a backup records them). */
export async function appliedMigrations(db: Db<any>, migrations: Record<string, Migration>): Promise<string[]> {
  const migrator = new Migrator({ db: db.kysely, provider: new StaticProvider(migrations), ...inSchema(db) });
  const all = await migrator.getMigrations();
  return all.filter((m) => m.executedAt).map((m) => m.name);
}
