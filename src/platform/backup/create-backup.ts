// `overlook backup`: one tar file holding a consistent copy of the database (SQLite's online backup, or
// pg_dump's snapshot), the key files and the object store's objects (its files, or its S3 bucket's
// objects streamed in), and a manifest that checks them, made while the platform serves
// (docs/deploy.md, Backup and restore).
import { existsSync } from 'node:fs';
import { link, mkdtemp, open, opendir, rm, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import type { PlatformConfig } from '../../lib/config.js';
import { TarWriter } from '../../lib/archive/tar.js';
import { openDb, platformDbOptions } from '../../lib/db/index.js';
import { appliedMigrations } from '../../lib/db/migrate.js';
import type { PlatformDatabase } from '../database.js';
import { PLATFORM_MIGRATIONS } from '../db/platform-migrations.js';
import { checkKey, S3ObjectStore, type StoredObject } from '../storage/index.js';
import { DATA_PREFIX, MANIFEST, OBJECTS_DIR, PG_DUMP, SQLITE_FILE, TOP_FILES } from './layout.js';
import { FORMAT, FORMAT_VERSION, type Manifest, type ManifestFile } from './manifest.js';
import { PACKAGE_VERSION } from '../../lib/package-version.js';
import { pgDump } from './postgres-tools.js';
import { BackupRefused } from './refusal.js';

export interface BackupSummary {
  file: string;
  bytes: number;
  database: 'sqlite' | 'postgres';
  migration: string | null;
  files: number;
  objects: number;
  /** What the backup does not hold and a restore needs from elsewhere. */
  notes: string[];
}

/** SQLite copies every page in one step: one read transaction, so writers (WAL) go on and the copy never restarts. */
const ALL_PAGES = 0x7fffffff;
/** Objects of a bucket asked for at once, ahead of the one being written. */
const OBJECTS_AHEAD = 8;
/** The object store's writes in progress: `<key>.<12 hex>.tmp`, renamed into place once complete. */
const IN_PROGRESS = /\.[0-9a-f]{12}\.tmp$/;

interface DatabaseCopy {
  file: string;
  archivePath: string;
  migrations: string[];
  pgDump?: string;
}

async function migrationsOf(options: Parameters<typeof openDb>[0]): Promise<string[]> {
  const db = openDb<PlatformDatabase>(options);
  try {
    return await appliedMigrations(db, PLATFORM_MIGRATIONS);
  } finally {
    await db.close();
  }
}

async function copyDatabase(config: PlatformConfig, work: string): Promise<DatabaseCopy> {
  if (config.databaseUrl) {
    const file = join(work, 'overlook.pgdump');
    const options = platformDbOptions(config);
    const before = await migrationsOf({ ...options, poolSize: 1 });
    const version = await pgDump(config.databaseUrl, file);
    // The dump's snapshot lies between the two reads: equal, they are its migration level.
    const after = await migrationsOf({ ...options, poolSize: 1 });
    if (before.join() !== after.join()) throw new Error('migrations ran while the database was being dumped: run the backup again');
    return { file, archivePath: PG_DUMP, migrations: after, pgDump: version };
  }
  const live = join(config.dataDir, SQLITE_FILE);
  const file = join(work, SQLITE_FILE);
  const source = new SQLite(live, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(file, { progress: () => ALL_PAGES });
  } finally {
    source.close();
  }
  return { file, archivePath: `${DATA_PREFIX}${SQLITE_FILE}`, migrations: await migrationsOf({ sqliteFile: file }) };
}

/** Every file under `dir`, as paths relative to it, folder by folder (a store of millions of frames is never listed at once). */
async function* filesUnder(dir: string, prefix = ''): AsyncGenerator<string> {
  let entries: Awaited<ReturnType<typeof opendir>>;
  try {
    entries = await opendir(join(dir, prefix));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  for await (const entry of entries) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* filesUnder(dir, rel);
    else if (entry.isFile()) yield rel;
  }
}

/** Opens a file for copying, or null when it went away meanwhile (an object deleted by retention). */
async function openIfPresent(file: string): Promise<FileHandle | null> {
  try {
    return await open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

const isObjectKey = (key: string) => {
  try {
    checkKey(key);
    return !IN_PROGRESS.test(key);
  } catch {
    return false;
  }
};

export async function createBackup(config: PlatformConfig, to: string): Promise<BackupSummary> {
  const target = resolve(to);
  if (existsSync(target)) throw new BackupRefused(`${target} already exists: name a new file, or remove that one first`);
  if (!existsSync(dirname(target))) throw new BackupRefused(`the folder ${dirname(target)} does not exist`);
  if (!config.databaseUrl && !existsSync(join(config.dataDir, SQLITE_FILE))) {
    throw new BackupRefused(`${config.dataDir} holds no database (${SQLITE_FILE}): nothing to back up`);
  }
  // Beside the target, so the finished file is linked into place on the same file system.
  const work = await mkdtemp(join(dirname(target), '.overlook-backup-'));
  try {
    // The database first: every object its rows name was stored before the row, so it is on disk
    // when the object store is copied after it.
    const database = await copyDatabase(config, work);
    const partial = join(work, 'backup.tar');
    const out = await open(partial, 'wx', 0o600);
    const files: ManifestFile[] = [];
    let objects = 0;
    /** Keys in the bucket the platform never writes (another tool's objects): left out. */
    let foreign = 0;
    try {
      const tar = new TarWriter(out);
      const add = async (path: string, file: string): Promise<boolean> => {
        const source = await openIfPresent(file);
        if (!source) return false;
        try {
          const { size } = await source.stat();
          files.push({ path, size, sha256: await tar.addFile(path, source, size) });
          return true;
        } finally {
          await source.close();
        }
      };
      await add(database.archivePath, database.file);
      await rm(database.file, { force: true });
      for (const name of TOP_FILES) await add(`${DATA_PREFIX}${name}`, join(config.dataDir, name));
      if (config.storage.kind === 'fs') {
        const root = join(config.dataDir, OBJECTS_DIR);
        for await (const key of filesUnder(root)) {
          if (isObjectKey(key) && (await add(`${DATA_PREFIX}${OBJECTS_DIR}/${key}`, join(root, key)))) objects++;
        }
      } else {
        // The bucket's objects, one stream at a time, under the same paths as the files of the `fs`
        // store: a backup restores into either kind of store.
        const bucket = new S3ObjectStore(config.storage);
        try {
          // The next objects are asked for while one is written: a request's latency, not the
          // archive, is what paces a bucket. Their bodies wait, held back by their streams.
          const keys = bucket.keys()[Symbol.asyncIterator]();
          const ahead: { key: string; object: Promise<StoredObject | null> }[] = [];
          let listed = false;
          const askAhead = async () => {
            while (!listed && ahead.length < OBJECTS_AHEAD) {
              const next = await keys.next();
              if (next.done) listed = true;
              else if (!isObjectKey(next.value)) foreign++;
              else {
                const object = bucket.get(next.value);
                object.catch(() => {}); // its failure is thrown when it is its turn
                ahead.push({ key: next.value, object });
              }
            }
          };
          for (await askAhead(); ahead.length; await askAhead()) {
            const { key, object: asked } = ahead.shift()!;
            const object = await asked;
            if (!object) continue; // deleted by retention since it was listed
            const path = `${DATA_PREFIX}${OBJECTS_DIR}/${key}`;
            const sha256 = await tar.addStream(path, object.body, object.size);
            files.push({ path, size: object.size, sha256, content_type: object.contentType });
            objects++;
          }
        } finally {
          bucket.close();
        }
      }
      const manifest: Manifest = {
        format: FORMAT,
        format_version: FORMAT_VERSION,
        overlook_version: PACKAGE_VERSION,
        created_at: new Date().toISOString(),
        database: {
          kind: config.databaseUrl ? 'postgres' : 'sqlite',
          migrations: database.migrations,
          ...(database.pgDump ? { pg_dump: database.pgDump } : {}),
        },
        objects: { store: config.storage.kind, count: objects },
        secret_key: config.secretKey ? 'environment' : 'file',
        files,
      };
      await tar.addBytes(MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
      await tar.finish();
      await out.sync();
    } finally {
      await out.close();
    }
    // A link, not a rename: a file that appeared at the target meanwhile is never replaced.
    await link(partial, target);
    const { size } = await stat(target);
    const notes: string[] = [];
    if (foreign) notes.push(`${foreign} object(s) in the S3 bucket have keys Overlook never writes: they are not in this backup`);
    if (config.secretKey) notes.push('OVERLOOK_SECRET_KEY is not in this backup: a restored platform needs the same value');
    return {
      file: target,
      bytes: size,
      database: config.databaseUrl ? 'postgres' : 'sqlite',
      migration: database.migrations.at(-1) ?? null,
      files: files.length,
      objects,
      notes,
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
