// The migrated database every PostgreSQL test database is copied from. One per set of migrations: its
// name carries a hash of their source, so a changed migration gets a new template and runs side by side
// (other checkouts on the same server) never share a stale one. The first worker that needs it makes it,
// under an advisory lock, so the workers of a run make it once.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { openDb } from '../../src/lib/db/index.js';
import { migrateToLatest } from '../../src/lib/db/migrate.js';
import type { PlatformDatabase } from '../../src/platform/database.js';
import { PLATFORM_MIGRATIONS } from '../../src/platform/db/platform-migrations.js';
import { databaseUrlOf } from './pg-admin.js';

export interface Template {
  /** The database to copy (CREATE DATABASE … TEMPLATE). */
  name: string;
  /** The schema the platform's tables are in, in the template and so in every copy. */
  schema: string;
}

const SCHEMA = 'overlook_template';
const MIGRATIONS_DIR = join(import.meta.dirname, '..', '..', 'src', 'platform', 'db', 'migrations');
/** Any fixed number: the advisory lock the template's maker holds. */
const LOCK = 4_262_026;

function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS_DIR).sort()) hash.update(file).update(readFileSync(join(MIGRATIONS_DIR, file)));
  return hash.digest('hex').slice(0, 16);
}

let made: Promise<Template> | undefined;

/** The migrated template on the server `adminUrl` names, made on first use. */
export function migratedTemplate(adminUrl: string): Promise<Template> {
  made ??= make(adminUrl);
  return made;
}

async function make(adminUrl: string): Promise<Template> {
  const name = `overlook_template_${migrationsHash()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock($1)', [LOCK]);
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) {
      // Made under another name and renamed when complete: a run stopped half-way leaves no broken template.
      const partial = `${name}_partial`;
      await admin.query(`DROP DATABASE IF EXISTS ${partial} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${partial}`);
      const db = openDb<PlatformDatabase>({ databaseUrl: databaseUrlOf(adminUrl, partial), pgSchema: SCHEMA, poolSize: 1 });
      try {
        await migrateToLatest(db, PLATFORM_MIGRATIONS);
      } finally {
        await db.close();
      }
      await admin.query(`ALTER DATABASE ${partial} RENAME TO ${name}`);
    }
    return { name, schema: SCHEMA };
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1)', [LOCK]).catch(() => {});
    await admin.end();
  }
}
