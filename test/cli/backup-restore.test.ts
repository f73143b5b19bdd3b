// `overlook backup` and `overlook restore` (docs/deploy.md, Backup and restore): a backup taken while
// the platform serves and people keep writing holds everything that existed when it began, and a
// platform started on its restore finds it all: people sign in, keys work with their old values, old
// sign-ins still verify, and projects, cameras, frames and media items answer with their bytes. On
// PostgreSQL the objects are in an S3 bucket (s3rver): the backup streams them in, the restore puts
// them into another, empty bucket. The bad inputs (a missing file, a data dir, database or bucket in
// use, a damaged or cut backup) exit non-zero, writing nothing.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { overlookAsync, serve, tempDir } from '../helpers/cli.js';
import { createScratchDatabase } from '../helpers/db.js';
import { eventually } from '../helpers/eventually.js';
import { pgReachable } from '../helpers/pg-reachable.js';

const PG_URL = process.env.OVERLOOK_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Several CLI starts and a platform started twice: 7 to 8 minutes per case measured at load 30 on 2 cores. */
const LONG = 900_000;
const QUIET = { OVERLOOK_LOG_LEVEL: 'warn', OVERLOOK_RECORDING_LOOP: '0', OVERLOOK_MEDIA_JOBS: '0' };

interface Written {
  /** When the write's answer came back: before the backup began, it must be in the backup. */
  at: number;
}
interface Person extends Written {
  email: string;
  password: string;
}
interface Round extends Written {
  project: string;
  camera: string;
  frame: { takenAt: string; size: number };
  item: { id: string; png: Buffer };
  key: string;
}

async function call(base: string, token: string, method: string, path: string, body?: object): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

async function signIn(base: string, email: string, password: string): Promise<{ status: number; token?: string }> {
  const res = await fetch(`${base}/v2/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password }),
  });
  const body = (await res.json()) as { token?: string };
  return { status: res.status, token: body.token };
}

const pngOf = (i: number) =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: { r: (i * 37) % 256, g: (i * 91) % 256, b: 7 } } })
    .png()
    .toBuffer();

/** One of everything, in the order a site is set up. */
async function writeRound(base: string, token: string, i: number): Promise<Round> {
  const project = String((await call(base, token, 'POST', '/v2/projects', { name: `Site ${i}` })).exid);
  const camera = String((await call(base, token, 'POST', '/v2/cameras', { name: `Gate ${i}`, project_exid: project, simulated: true })).exid);
  const shot = await call(base, token, 'POST', `/v2/cameras/${camera}/snapshots`, {});
  const png = await pngOf(i);
  const item = await call(base, token, 'POST', `/v2/projects/${project}/media-hub`, {
    type: 'file',
    title: `Drawing ${i}`,
    file: png.toString('base64'),
    file_name: `drawing-${i}.png`,
    content_type: 'image/png',
  });
  const key = await call(base, token, 'POST', '/v2/api-keys', {
    name: `report ${i}`,
    expires_at: '2030-01-01T00:00:00Z',
    projects: [project],
    scopes: ['cameras:read'],
  });
  return {
    project,
    camera,
    frame: { takenAt: String(shot.created_at), size: Number(shot.size) },
    item: { id: String(item.id), png },
    key: String(key.key),
    at: Date.now(),
  };
}

/**
 * Two loops writing until told to stop, the backup running in between: rounds through the API, and
 * beside them people through `overlook users create` (another process writing the database beside the
 * platform). The rounds never wait for a process to start, so some end while even a quick backup runs.
 */
function keepWriting(base: string, token: string, dataDir: string, env: Record<string, string>) {
  const rounds: Round[] = [];
  const people: Person[] = [];
  let stopped = false;
  let failed: unknown;
  const writeRounds = async () => {
    for (let i = 0; !stopped; i++) rounds.push(await writeRound(base, token, i));
  };
  const writePeople = async () => {
    for (let i = 0; !stopped; i++) {
      const email = `person${i}@example.com`;
      const password = `password-${i}-${randomBytes(4).toString('hex')}`;
      const made = await overlookAsync(['users', 'create', '--email', email, '--password', password, '--data-dir', dataDir], env);
      if (made.status !== 0) throw new Error(`users create: ${made.stderr}`);
      people.push({ email, password, at: Date.now() });
    }
  };
  const done = Promise.all([writeRounds(), writePeople()]);
  done.catch((err) => (failed ??= err));
  return {
    rounds,
    people,
    /** Throws what stopped the writer early. */
    check: () => {
      if (failed) throw failed;
    },
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

/** Everything written before `began` is there on the platform at `base`, with its old credentials. */
async function expectAllThere(base: string, began: number, admin: { email: string; password: string; oldToken: string }, rounds: Round[], people: Person[]) {
  const me = await fetch(`${base}/v2/auth/users/me`, { headers: { authorization: `Bearer ${admin.oldToken}` } });
  expect(me.status, 'a sign-in from before the backup still verifies').toBe(200);
  const { token } = await signIn(base, admin.email, admin.password);
  expect(token).toBeDefined();
  const before = rounds.filter((r) => r.at < began);
  const peopleBefore = people.filter((p) => p.at < began);
  expect(before.length).toBeGreaterThan(0);
  expect(peopleBefore.length).toBeGreaterThan(0);
  for (const p of peopleBefore) expect((await signIn(base, p.email, p.password)).status, p.email).toBe(200);
  for (const r of before) {
    const auth = { authorization: `Bearer ${token}` };
    expect((await fetch(`${base}/v2/projects/${r.project}`, { headers: auth })).status, r.project).toBe(200);
    const byKey = await fetch(`${base}/v2/cameras/${r.camera}`, { headers: { 'x-access-key': r.key } });
    expect(byKey.status, `key of ${r.camera}`).toBe(200);
    const frame = await fetch(`${base}/v2/cameras/${r.camera}/recordings/snapshots/${encodeURIComponent(r.frame.takenAt)}`, {
      headers: { ...auth, accept: 'image/jpeg' },
    });
    expect(frame.status, `frame ${r.frame.takenAt}`).toBe(200);
    expect((await frame.arrayBuffer()).byteLength).toBe(r.frame.size);
    const item = await fetch(`${base}/v2/projects/${r.project}/media-hub/${r.item.id}`, { headers: auth });
    expect(item.status).toBe(200);
    const file = await fetch(`${base}/v2/media-hub/${r.item.id}/file`, { headers: auth });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(r.item.png)).toBe(true);
  }
}

interface Scenario {
  /** The environment of the platform backed up, and of the one restored. */
  source: Record<string, string>;
  target: Record<string, string>;
}

/** Serves, writes, backs up while writing, restores into a fresh data dir and checks the result; returns the paths for the bad-input cases. */
async function backupWhileWriting({ source, target }: Scenario): Promise<{ file: string; restoredDir: string }> {
  const dir = tempDir();
  const admin = { email: 'admin@example.com', password: 'admin-password-1' };
  const made = await overlookAsync(['users', 'create', '--email', admin.email, '--password', admin.password, '--admin', '--data-dir', dir], source);
  expect(made.status, made.stderr).toBe(0);
  const server = await serve(['serve', '--port', '0', '--data-dir', dir], { env: { ...QUIET, ...source }, timeoutMs: 180_000 });
  const file = join(tempDir(), 'site.backup');
  let began = 0;
  let writer: ReturnType<typeof keepWriting> | undefined;
  let oldToken = '';
  try {
    oldToken = (await signIn(server.url, admin.email, admin.password)).token!;
    writer = keepWriting(server.url, oldToken, dir, source);
    const w = writer;
    await eventually(
      () => {
        w.check();
        return w.rounds.length >= 1 && w.people.length >= 1;
      },
      'writes before the backup',
      120_000,
    );
    began = Date.now();
    const backup = await overlookAsync(['backup', '--to', file, '--data-dir', dir], source);
    const ended = Date.now();
    expect(backup.status, backup.stderr).toBe(0);
    const summary = JSON.parse(backup.stdout) as { file: string; files: number; objects: number };
    expect(summary.file).toBe(file);
    expect(summary.objects).toBeGreaterThanOrEqual(4);
    // The writer did go on while the backup ran.
    expect([...w.rounds, ...w.people].some((r) => r.at > began && r.at < ended)).toBe(true);
  } finally {
    await writer?.stop();
    await server.stop();
  }
  expect(statSync(file).mode & 0o777).toBe(0o600);
  // A plain tar file: GNU tar reads it, and its manifest lists every file with its size and SHA-256.
  const manifest = JSON.parse(spawnSync('tar', ['-xOf', file, 'manifest.json'], { encoding: 'utf8' }).stdout) as {
    database: { migrations: string[] };
    objects: { store: string; count: number };
    files: { path: string; size: number; sha256: string; content_type?: string }[];
  };
  expect(manifest.database.migrations.length).toBeGreaterThan(0);
  const objects = manifest.files.filter((f) => f.path.startsWith('data/objects/'));
  expect(objects.length).toBeGreaterThanOrEqual(4);
  const store = source.OVERLOOK_STORAGE ?? 'fs';
  expect(manifest.objects).toEqual({ store, count: objects.length });
  // From a bucket, each object keeps the content type it was stored with.
  if (store === 's3') for (const o of objects) expect(o.content_type, o.path).toMatch(/^(image|video)\//);

  const restoredDir = join(tempDir(), 'restored');
  const restore = await overlookAsync(['restore', '--from', file, '--data-dir', restoredDir], target);
  expect(restore.status, restore.stderr).toBe(0);
  const restoredTo = JSON.parse(restore.stdout) as { objects: number; store: string };
  expect(restoredTo).toMatchObject({ objects: objects.length, store: target.OVERLOOK_STORAGE ?? 'fs' });
  // Into a bucket, nothing of them lands in the data dir.
  expect(existsSync(join(restoredDir, 'objects'))).toBe(target.OVERLOOK_STORAGE !== 's3');
  const restored = await serve(['serve', '--port', '0', '--data-dir', restoredDir], { env: { ...QUIET, ...target }, timeoutMs: 180_000 });
  try {
    await expectAllThere(restored.url, began, { ...admin, oldToken }, writer!.rounds, writer!.people);
  } finally {
    await restored.stop();
  }
  return { file, restoredDir };
}

describe('overlook backup and restore on SQLite', () => {
  it(
    'a backup taken while writing restores into a fresh data dir with every person, key, project, camera, frame and media item; bad inputs write nothing',
    async () => {
      const { file, restoredDir } = await backupWhileWriting({ source: {}, target: {} });

      const bytes = readFileSync(file);
      const work = tempDir();
      // One byte of a stored object changed: its SHA-256 no longer matches.
      const corrupted = Buffer.from(bytes);
      const objectAt = bytes.indexOf(Buffer.from('IHDR')); // inside a media item's PNG
      expect(objectAt).toBeGreaterThan(0);
      corrupted[objectAt + 8] = (corrupted[objectAt + 8] ?? 0) ^ 0xff;
      writeFileSync(join(work, 'corrupted.backup'), corrupted);
      writeFileSync(join(work, 'cut.backup'), bytes.subarray(0, Math.floor(bytes.length / 2)));
      const empty = join(work, 'empty');
      mkdirSync(empty);
      const inUse = readdirSync(restoredDir).sort();

      const [missing, nonEmpty, bad, cut, again, nothing] = await Promise.all([
        overlookAsync(['restore', '--from', join(work, 'nope.backup'), '--data-dir', join(work, 'a')]),
        overlookAsync(['restore', '--from', file, '--data-dir', restoredDir]),
        overlookAsync(['restore', '--from', join(work, 'corrupted.backup'), '--data-dir', empty]),
        overlookAsync(['restore', '--from', join(work, 'cut.backup'), '--data-dir', join(work, 'b')]),
        // A backup never overwrites a file, and needs a database to copy.
        overlookAsync(['backup', '--to', file, '--data-dir', restoredDir]),
        overlookAsync(['backup', '--to', join(work, 'x.backup'), '--data-dir', join(work, 'no-data')]),
      ]);
      expect(missing.status).toBe(2);
      expect(missing.stderr).toContain('nope.backup does not exist');
      expect(nonEmpty.status).toBe(2);
      expect(nonEmpty.stderr).toContain('is not empty');
      expect(bad.status).toBe(2);
      expect(bad.stderr).toMatch(/does not match its SHA-256: the file is corrupted/);
      expect(cut.status).toBe(2);
      expect(cut.stderr).toContain('truncated');
      for (const r of [missing, nonEmpty, bad, cut]) expect(r.stdout).toBe('');
      expect(existsSync(join(work, 'a'))).toBe(false);
      expect(existsSync(join(work, 'b'))).toBe(false);
      expect(readdirSync(empty)).toEqual([]);
      expect(readdirSync(restoredDir).sort()).toEqual(inUse);

      expect(again.status).toBe(2);
      expect(again.stderr).toContain('already exists');
      expect(nothing.status).toBe(2);
      expect(nothing.stderr).toContain('holds no database');
      expect(existsSync(join(work, 'x.backup'))).toBe(false);
    },
    LONG,
  );
});

describe.runIf(await pgReachable(PG_URL))('overlook backup and restore on PostgreSQL with objects in S3', () => {
  it(
    'pg_dump and the bucket streamed in while writing, restored into a fresh database and an empty bucket: everything is there; a database or bucket in use is refused',
    async () => {
      const s3Dir = mkdtempSync(join(tmpdir(), 'overlook-s3-'));
      const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir, configureBuckets: [{ name: 'site' }, { name: 'restored' }] });
      const { port } = await s3.run();
      const bucket = (name: string) => ({
        OVERLOOK_STORAGE: 's3',
        OVERLOOK_S3_BUCKET: name,
        OVERLOOK_S3_ENDPOINT: `http://127.0.0.1:${port}`,
        OVERLOOK_S3_ACCESS_KEY_ID: 'S3RVER',
        OVERLOOK_S3_SECRET_ACCESS_KEY: 'S3RVER',
      });
      const [from, into, empty] = await Promise.all([createScratchDatabase(PG_URL), createScratchDatabase(PG_URL), createScratchDatabase(PG_URL)]);
      try {
        const secret = randomBytes(32).toString('base64');
        const source = { DATABASE_URL: from.url, OVERLOOK_SECRET_KEY: secret, ...bucket('site') };
        const target = { DATABASE_URL: into.url, OVERLOOK_SECRET_KEY: secret, ...bucket('restored') };
        const { file } = await backupWhileWriting({ source, target });
        const fresh = [join(tempDir(), 'fresh'), join(tempDir(), 'fresh')] as const;
        const [dbInUse, bucketInUse] = await Promise.all([
          overlookAsync(['restore', '--from', file, '--data-dir', fresh[0]], source),
          overlookAsync(['restore', '--from', file, '--data-dir', fresh[1]], { ...target, DATABASE_URL: empty.url }),
        ]);
        expect(dbInUse.status).toBe(2);
        expect(dbInUse.stderr).toContain('the database at DATABASE_URL is not empty');
        expect(bucketInUse.status).toBe(2);
        expect(bucketInUse.stderr).toContain('the S3 bucket restored is not empty');
        for (const dir of fresh) expect(existsSync(dir)).toBe(false);
      } finally {
        await Promise.all([from.drop(), into.drop(), empty.drop()]);
        await s3.close();
        rmSync(s3Dir, { recursive: true, force: true });
      }
    },
    LONG,
  );
});
