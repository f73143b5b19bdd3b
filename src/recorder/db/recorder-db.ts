// Opens the recorder's SQLite database in its data dir and brings it to the latest schema.
import { join } from 'node:path';
import type { Migration } from 'kysely';
import { openDb, type Db } from '../../lib/db/index.js';
import { migrateToLatest } from '../../lib/db/migrate.js';
import type { RecorderDatabase } from './schema.js';
import * as initial from './migrations/20261122_0001_recorder.js';

export type RecorderDb = Db<RecorderDatabase>;

export const RECORDER_MIGRATIONS: Record<string, Migration> = { '20261122_0001_recorder': initial };

export async function openRecorderDb(dataDir: string): Promise<RecorderDb> {
  const db = openDb<RecorderDatabase>({ sqliteFile: join(dataDir, 'recorder.sqlite') });
  await migrateToLatest(db, RECORDER_MIGRATIONS);
  return db;
}
