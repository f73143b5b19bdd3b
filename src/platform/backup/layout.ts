// What of a data dir a backup holds, and where each piece sits in the archive (docs/deploy.md, Backup
// and restore): `data/…` mirrors the data dir (the SQLite database, the key files, the object store's
// files), `postgres/overlook.pgdump` is the PostgreSQL database, `manifest.json` lists and checks them.
import { LEGACY_OAUTH_KEYS_FILE } from '../oauth/index.js';
import { LEGACY_JWT_KEY_FILE, SECRET_KEY_FILE } from '../secrets/index.js';
import { checkKey } from '../storage/index.js';

export const SQLITE_FILE = 'overlook.sqlite';
export const OBJECTS_DIR = 'objects';
export const MANIFEST = 'manifest.json';
export const DATA_PREFIX = 'data/';
export const PG_DUMP = 'postgres/overlook.pgdump';

/**
 * The files at the top of a data dir that a backup carries besides the database: the secret key that
 * seals the keys kept in the database, the key files of older versions, and the demo sign-in `overlook up` wrote.
 */
export const TOP_FILES = [SECRET_KEY_FILE, LEGACY_JWT_KEY_FILE, LEGACY_OAUTH_KEYS_FILE, 'demo-credentials.txt'];

/** Whether an archive path may be written into a data dir: a known top file, the database, or an object under a valid key. */
export function restorablePath(path: string, withSqlite: boolean): boolean {
  if (!path.startsWith(DATA_PREFIX)) return false;
  const inDir = path.slice(DATA_PREFIX.length);
  if (TOP_FILES.includes(inDir) || (withSqlite && inDir === SQLITE_FILE)) return true;
  if (!inDir.startsWith(`${OBJECTS_DIR}/`)) return false;
  try {
    checkKey(inDir.slice(OBJECTS_DIR.length + 1));
    return true;
  } catch {
    return false;
  }
}
