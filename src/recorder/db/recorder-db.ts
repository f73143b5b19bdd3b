// Opens the recorder's SQLite database in its data dir and brings it to the latest schema. The files
// are the recorder's user's alone (0600): SQLite gives its -wal and -shm files the database file's mode.
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { sql, type Migration } from 'kysely';
import { openDb, type Db } from '../../lib/db/index.js';
import { migrateToLatest } from '../../lib/db/migrate.js';
import type { RecorderDatabase } from './schema.js';
import * as initial from './migrations/20261122_0001_recorder.js';
import * as link from './migrations/20261128_0001_link.js';
import * as uploads from './migrations/20261128_0002_uploads.js';
import * as plates from './migrations/20261128_0003_plates.js';

export type RecorderDb = Db<RecorderDatabase>;

const RECORDER_MIGRATIONS: Record<string, Migration> = {
  '20261122_0001_recorder': initial,
  '20261128_0001_link': link,
  '20261128_0002_uploads': uploads,
  '20261128_0003_plates': plates,
};

const RECORDER_DB_FILE = 'recorder.sqlite';

/** Creates the database file with mode 0600 before SQLite does (with the umask's mode), and tightens files made before. */
function privateFiles(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) chmodSync(f, 0o600);
}

export async function openRecorderDb(dataDir: string): Promise<RecorderDb> {
  const file = join(dataDir, RECORDER_DB_FILE);
  privateFiles(file);
  const db = openDb<RecorderDatabase>({ sqliteFile: file });
  // Deleted and overwritten rows (a password changed, plaintext sealed) are zeroed, not left in free pages.
  await sql`PRAGMA secure_delete = ON`.execute(db.kysely);
  await migrateToLatest(db, RECORDER_MIGRATIONS);
  privateFiles(file);
  return db;
}
