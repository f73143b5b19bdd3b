// Applies the platform's migrations (one set for SQLite and PostgreSQL) to the latest version.
import { Migrator, sql, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import type { Db } from './index.js';
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run on any schema's database */
import * as foundation from './migrations/20261122_0001_foundation.js';
import * as snapshotIndex from './migrations/20261123_0001_snapshot_index.js';
import * as cloudRecordings from './migrations/20261123_0002_cloud_recordings.js';
import * as anpr from './migrations/20261123_0003_anpr.js';
import * as oauth from './migrations/20261123_0005_oauth.js';
import * as audit from './migrations/20261123_0006_audit.js';
import * as settings from './migrations/20261123_0007_settings.js';
import * as mediaHub from './migrations/20261123_0008_media_hub.js';
import * as bim from './migrations/20261123_0009_bim.js';
import * as weatherWallsComments from './migrations/20261123_0010_weather_walls_comments.js';
import * as connectors from './migrations/20261123_0011_connectors.js';
import * as siteConnectors from './migrations/20261123_0012_site_connectors.js';

// Listed by hand, not read from the folder, so the same code works from `src/` under tsx and from `dist/`.
export const PLATFORM_MIGRATIONS: Record<string, Migration> = {
  '20261122_0001_foundation': foundation,
  '20261123_0001_snapshot_index': snapshotIndex,
  '20261123_0002_cloud_recordings': cloudRecordings,
  '20261123_0003_anpr': anpr,
  '20261123_0005_oauth': oauth,
  '20261123_0006_audit': audit,
  '20261123_0007_settings': settings,
  '20261123_0008_media_hub': mediaHub,
  '20261123_0009_bim': bim,
  '20261123_0010_weather_walls_comments': weatherWallsComments,
  '20261123_0011_connectors': connectors,
  '20261123_0012_site_connectors': siteConnectors,
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly migrations: Record<string, Migration>) {}
  async getMigrations() {
    return this.migrations;
  }
}

// Kysely looks for its migration tables in every PostgreSQL schema unless told which one: with another
// schema already migrated (tests run side by side, one schema each) it would skip creating its own.
const inSchema = (db: Db<any>) => (db.pgSchema ? { migrationTableSchema: db.pgSchema } : {});

export async function migrateToLatest(db: Db<any>, migrations: Record<string, Migration> = PLATFORM_MIGRATIONS): Promise<string[]> {
  if (db.pgSchema) await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(db.pgSchema)}`.execute(db.kysely);
  const migrator = new Migrator({ db: db.kysely, provider: new StaticProvider(migrations), ...inSchema(db) });
  return check(await migrator.migrateToLatest());
}

export async function migrateDownAll(db: Db<any>, migrations: Record<string, Migration> = PLATFORM_MIGRATIONS): Promise<string[]> {
  const migrator = new Migrator({ db: db.kysely, provider: new StaticProvider(migrations), ...inSchema(db) });
  const { NO_MIGRATIONS } = await import('kysely');
  return check(await migrator.migrateTo(NO_MIGRATIONS));
}

function check({ error, results }: MigrationResultSet): string[] {
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const what = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`migration failed${what}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).map((r) => r.migrationName);
}
