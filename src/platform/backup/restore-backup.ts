// `overlook restore`: a backup file written back into an empty data dir (and, on PostgreSQL, an empty
// database; with OVERLOOK_STORAGE=s3, an empty bucket). Every file is checked against the manifest's
// size and SHA-256 before anything is written; the files go to a folder inside the data dir and are
// moved into place only once all are written, and objects put into a bucket are deleted again on failure.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, rmdir, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { BadArchiveError, entryChunks, entrySha256, listTar, type TarEntry } from '../../lib/archive/tar.js';
import type { StorageConfig } from '../../lib/config.js';
import { contentTypeOf, S3ObjectStore } from '../storage/index.js';
import { DATA_PREFIX, MANIFEST, OBJECTS_DIR, PG_DUMP, restorablePath, SQLITE_FILE } from './layout.js';
import { type Manifest, parseManifest } from './manifest.js';
import { pgRestore, userTables } from './postgres-tools.js';
import { BackupRefused } from './refusal.js';

export interface RestoreOptions {
  from: string;
  /** The data dir to restore into: missing or empty. */
  dataDir: string;
  /** PostgreSQL: the empty database to restore into. */
  databaseUrl?: string;
  /** Where the restored platform keeps its objects: `fs` (the data dir), or an S3 bucket that must be empty. */
  storage?: StorageConfig;
  /** The migrations this version knows: a backup applied to more was made by a newer version. */
  knownMigrations: readonly string[];
}

export interface RestoreSummary {
  data_dir: string;
  database: 'sqlite' | 'postgres';
  migration: string | null;
  files: number;
  objects: number;
  /** Where the objects went: the data dir (`fs`) or the bucket (`s3`). */
  store: 'fs' | 's3';
  created_at: string;
  notes: string[];
}

const STAGING = '.restore-partial';
const PUTS_AT_ONCE = 8;
const MANIFEST_MAX_BYTES = 1 << 30;

async function openBackup(from: string): Promise<FileHandle> {
  try {
    const file = await open(from, 'r');
    if (!(await file.stat()).isFile()) {
      await file.close();
      throw new BackupRefused(`${from} is not a file`);
    }
    return file;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new BackupRefused(`${from} does not exist`);
    if ((err as NodeJS.ErrnoException).code === 'EISDIR') throw new BackupRefused(`${from} is not a file`);
    throw err;
  }
}

async function checkEmptyDataDir(dataDir: string): Promise<void> {
  if (!existsSync(dataDir)) return;
  if (!(await stat(dataDir)).isDirectory()) throw new BackupRefused(`${dataDir} is not a folder`);
  const inside = await readdir(dataDir);
  if (inside.length) {
    const some = inside.slice(0, 3).join(', ') + (inside.length > 3 ? ', …' : '');
    throw new BackupRefused(`${dataDir} is not empty (${some}): restore into a new or empty data dir`);
  }
}

/** The manifest, once every file it lists is in the archive exactly once, of its size and SHA-256, and nothing else is. */
async function verify(file: FileHandle, from: string): Promise<{ manifest: Manifest; entries: Map<string, TarEntry> }> {
  const bad = (why: string) => new BackupRefused(`${from} is not a valid backup: ${why}`);
  let list: TarEntry[];
  try {
    list = await listTar(file);
  } catch (err) {
    if (err instanceof BadArchiveError) throw bad(err.message);
    throw err;
  }
  const entries = new Map<string, TarEntry>();
  for (const e of list) {
    if (entries.has(e.path)) throw bad(`it holds ${e.path} twice`);
    entries.set(e.path, e);
  }
  const manifestEntry = entries.get(MANIFEST);
  if (!manifestEntry) throw bad('it has no manifest (a backup that did not finish, or not a backup)');
  if (manifestEntry.size > MANIFEST_MAX_BYTES) throw bad('its manifest is too large');
  const chunks: Buffer[] = [];
  for await (const c of entryChunks(file, manifestEntry)) chunks.push(c);
  const manifest = parseManifest(Buffer.concat(chunks).toString('utf8'));
  if (typeof manifest === 'string') throw bad(manifest);
  entries.delete(MANIFEST);

  const sqlite = manifest.database.kind === 'sqlite';
  const required = sqlite ? `${DATA_PREFIX}${SQLITE_FILE}` : PG_DUMP;
  if (!manifest.files.some((f) => f.path === required)) throw bad(`its manifest lists no ${required}`);
  for (const f of manifest.files) {
    if (f.path !== PG_DUMP && !restorablePath(f.path, sqlite)) throw bad(`it names a file outside a data dir: ${JSON.stringify(f.path)}`);
    if (f.path === PG_DUMP && sqlite) throw bad('it holds both an SQLite database and a PostgreSQL dump');
    const e = entries.get(f.path);
    if (!e) throw bad(`${f.path} is missing`);
    if (e.size !== f.size) throw bad(`${f.path} has ${e.size} bytes, its manifest says ${f.size}: the file is corrupted`);
    if ((await entrySha256(file, e)) !== f.sha256) throw bad(`${f.path} does not match its SHA-256: the file is corrupted`);
  }
  const listed = new Set(manifest.files.map((f) => f.path));
  for (const path of entries.keys()) if (!listed.has(path)) throw bad(`it holds ${path}, which its manifest does not list`);
  return { manifest, entries };
}

/** One entry's bytes, checked again against its SHA-256 as they are read. */
async function entryBytes(file: FileHandle, entry: TarEntry, sha256: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of entryChunks(file, entry)) chunks.push(chunk);
  const bytes = Buffer.concat(chunks);
  if (createHash('sha256').update(bytes).digest('hex') !== sha256) {
    throw new BackupRefused(`${entry.path} changed while it was being restored: the backup file is being written to`);
  }
  return bytes;
}

/** The bucket to restore objects into: refused unless empty, so a restore never mixes with another platform's objects. */
async function emptyBucket(storage: StorageConfig & { kind: 's3' }): Promise<S3ObjectStore> {
  const bucket = new S3ObjectStore(storage);
  try {
    const some: string[] = [];
    for await (const key of bucket.keys()) if (some.push(key) >= 3) break;
    if (some.length) {
      throw new BackupRefused(
        `the S3 bucket ${storage.bucket} is not empty (${some.join(', ')}${some.length >= 3 ? ', …' : ''}): restore into a new, empty bucket`,
      );
    }
    return bucket;
  } catch (err) {
    bucket.close();
    throw err;
  }
}

/** Writes one entry to `dest` (owner-only), checking its bytes again as they are written. */
async function extract(file: FileHandle, entry: TarEntry, sha256: string, dest: string): Promise<void> {
  await mkdir(dirname(dest), { recursive: true, mode: 0o700 });
  const out = await open(dest, 'wx', 0o600);
  const hash = createHash('sha256');
  try {
    for await (const chunk of entryChunks(file, entry)) {
      hash.update(chunk);
      await out.write(chunk);
    }
    await out.sync();
  } finally {
    await out.close();
  }
  if (hash.digest('hex') !== sha256) throw new BackupRefused(`${entry.path} changed while it was being restored: the backup file is being written to`);
}

export async function restoreBackup(opts: RestoreOptions): Promise<RestoreSummary> {
  const file = await openBackup(opts.from);
  try {
    await checkEmptyDataDir(opts.dataDir);
    const { manifest, entries } = await verify(file, opts.from);
    const kind = manifest.database.kind;
    if (kind === 'sqlite' && opts.databaseUrl) throw new BackupRefused('this backup holds an SQLite database: restore it without DATABASE_URL');
    if (kind === 'postgres' && !opts.databaseUrl) {
      throw new BackupRefused('this backup holds a PostgreSQL database: set DATABASE_URL to the empty database to restore it into');
    }
    const unknown = manifest.database.migrations.filter((m) => !opts.knownMigrations.includes(m));
    if (unknown.length) {
      throw new BackupRefused(`this backup was made by a newer version of Overlook (migration ${unknown[0]} is unknown here): restore it with that version`);
    }
    if (opts.databaseUrl) {
      const tables = await userTables(opts.databaseUrl);
      if (tables.length) throw new BackupRefused(`the database at DATABASE_URL is not empty (${tables.join(', ')}): restore into a new, empty database`);
    }

    const objectPrefix = `${DATA_PREFIX}${OBJECTS_DIR}/`;
    const holdsObjects = manifest.files.some((f) => f.path.startsWith(objectPrefix));
    // An older backup of an `s3` store holds no objects: the bucket was restored on its own, so it may hold them.
    const bucket = opts.storage?.kind === 's3' && holdsObjects ? await emptyBucket(opts.storage) : null;
    const putKeys: string[] = [];
    /** Puts under way: a few at once, as a bucket's pace is its requests' latency. They never reject: the first failure is kept. */
    const puts = new Set<Promise<void>>();
    let putFailed: { error: unknown } | undefined;
    const putsDone = async () => {
      await Promise.all(puts);
      if (putFailed) throw putFailed.error;
    };
    const putObject = async (store: S3ObjectStore, key: string, bytes: Buffer, contentType: string) => {
      if (putFailed) throw putFailed.error;
      putKeys.push(key);
      const put: Promise<void> = store
        .put(key, bytes, contentType)
        .catch((error: unknown) => {
          putFailed ??= { error };
        })
        .finally(() => puts.delete(put));
      puts.add(put);
      if (puts.size >= PUTS_AT_ONCE) await Promise.race(puts);
    };
    const created = !existsSync(opts.dataDir);
    await mkdir(opts.dataDir, { recursive: true, mode: 0o700 }).catch((err: unknown) => {
      bucket?.close();
      throw err;
    });
    const staging = join(opts.dataDir, STAGING);
    try {
      await mkdir(staging, { mode: 0o700 });
      let objects = 0;
      for (const f of manifest.files) {
        const entry = entries.get(f.path)!;
        if (f.path === PG_DUMP) continue;
        const inDir = f.path.slice(DATA_PREFIX.length);
        const isObject = f.path.startsWith(objectPrefix);
        if (isObject && bucket) {
          const key = f.path.slice(objectPrefix.length);
          await putObject(bucket, key, await entryBytes(file, entry, f.sha256), f.content_type ?? contentTypeOf(key));
        } else {
          await extract(file, entry, f.sha256, join(staging, inDir));
        }
        if (isObject) objects++;
      }
      await putsDone();
      if (opts.databaseUrl) {
        const dump = join(staging, 'overlook.pgdump');
        const f = manifest.files.find((x) => x.path === PG_DUMP)!;
        await extract(file, entries.get(PG_DUMP)!, f.sha256, dump);
        await pgRestore(opts.databaseUrl, dump);
        await rm(dump);
      }
      for (const name of await readdir(staging)) await rename(join(staging, name), join(opts.dataDir, name));
      await rmdir(staging);
      const notes: string[] = [];
      if (manifest.objects.store === 's3' && !holdsObjects) {
        notes.push('the backup holds no objects (made by an older version): the S3 bucket must be restored on its own');
      }
      if (holdsObjects && opts.storage?.kind !== 's3' && manifest.objects.store === 's3') {
        notes.push(
          `the objects of the S3 bucket went into ${join(opts.dataDir, OBJECTS_DIR)}: start the platform without OVERLOOK_STORAGE=s3, or restore with it set`,
        );
      }
      if (manifest.secret_key === 'environment') notes.push('start the platform with the OVERLOOK_SECRET_KEY it had when the backup was made');
      return {
        data_dir: opts.dataDir,
        database: kind,
        migration: manifest.database.migrations.at(-1) ?? null,
        files: manifest.files.length,
        objects,
        store: bucket ? 's3' : 'fs',
        created_at: manifest.created_at,
        notes,
      };
    } catch (err) {
      await rm(staging, { recursive: true, force: true });
      if (created) await rmdir(opts.dataDir).catch(() => {});
      // Best effort: the bucket was empty, and a restore that failed leaves it so where it can.
      await Promise.all(puts);
      if (bucket && putKeys.length) await bucket.delete(putKeys).catch(() => {});
      throw err;
    } finally {
      bucket?.close();
    }
  } finally {
    await file.close();
  }
}
