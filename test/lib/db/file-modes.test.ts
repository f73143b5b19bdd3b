// The files the platform keeps its data in are owner-only whatever the umask: the SQLite database and
// its -wal and -shm files 0600, the data dir and the object store's folders 0700, stored objects 0600;
// files and folders made before with looser modes are tightened when opened.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDb } from '../../../src/lib/db/index.js';
import { resolveDataDir } from '../../../src/lib/config/addresses.js';
import { FsObjectStore } from '../../../src/platform/storage/fs-object-store.js';

const mode = (p: string) => statSync(p).mode & 0o777;

let root: string;
let umask: number;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'overlook-modes-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
// A umask that takes nothing away: every mode below comes from the code, not from the umask.
beforeEach(() => {
  umask = process.umask(0);
});
afterEach(() => {
  process.umask(umask);
});

describe('file modes', () => {
  it('creates the SQLite database, -wal and -shm as 0600', async () => {
    const file = join(root, 'fresh.sqlite');
    const db = openDb<{ t: { a: number } }>({ sqliteFile: file });
    await db.kysely.schema.createTable('t').addColumn('a', 'integer').execute();
    await db.kysely.insertInto('t').values({ a: 1 }).execute();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(mode(f).toString(8), f).toBe('600');
    await db.close();
  });

  it('tightens a database and its -wal and -shm made with the umask’s mode', async () => {
    const file = join(root, 'old.sqlite');
    const first = openDb<{ t: { a: number } }>({ sqliteFile: file });
    await first.kysely.schema.createTable('t').addColumn('a', 'integer').execute();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) chmodSync(f, 0o644);
    const second = openDb<{ t: { a: number } }>({ sqliteFile: file });
    for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(mode(f).toString(8), f).toBe('600');
    await second.close();
    await first.close();
  });

  it('makes the data dir 0700, and tightens an existing one', () => {
    const fresh = join(root, 'data-fresh', 'nested');
    expect(mode(resolveDataDir({ dataDir: fresh }, {})).toString(8)).toBe('700');
    const old = join(root, 'data-old');
    mkdirSync(old, { mode: 0o755 });
    chmodSync(old, 0o755);
    resolveDataDir({ dataDir: old }, {});
    expect(mode(old).toString(8)).toBe('700');
  });

  it('stores objects as 0600 in 0700 folders', async () => {
    const store = new FsObjectStore(join(root, 'objects'));
    await store.put('projects/p1/photo.jpg', Buffer.from('jpeg'));
    expect(mode(join(root, 'objects')).toString(8)).toBe('700');
    expect(mode(join(root, 'objects', 'projects', 'p1')).toString(8)).toBe('700');
    expect(mode(join(root, 'objects', 'projects', 'p1', 'photo.jpg')).toString(8)).toBe('600');
  });
});
