// The recorder as its users run it: `overlook recorder users create` and `overlook recorder serve` as
// real processes. The kill test: `kill -9` mid-recording, restart, and check that every complete
// segment is kept, the partial one indexed or removed, the orphaned ffmpeg stopped, and recording resumes.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT_CLI, ROOT } from '../helpers/built-cli.js';
import { eventually, makeTestVideo } from '../helpers/recorder.js';

const CLI = [BUILT_CLI];
const dir = mkdtempSync(join(tmpdir(), 'overlook-recorder-kill-'));
const storage = join(dir, 'recorder', 'storage');
const env = { ...process.env, DATABASE_URL: '', OVERLOOK_RECORDER_SEGMENT_SECONDS: '1', OVERLOOK_LOG_LEVEL: 'info' };
const running: ChildProcess[] = [];
afterAll(() => {
  for (const p of running) if (p.exitCode === null) p.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const overlook = (args: string[]) => spawnSync(process.execPath, [...CLI, ...args], { cwd: ROOT, encoding: 'utf8', env, timeout: 60_000 });

async function serve(): Promise<{ proc: ChildProcess; url: string; output: () => string }> {
  const proc = spawn(process.execPath, [...CLI, 'recorder', 'serve', '--data-dir', dir, '--port', '0'], { cwd: ROOT, env });
  running.push(proc);
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const url = await eventually(async () => /recorder listening on (http:\/\/\S+)/.exec(out)?.[1], 30_000, `the recorder to start: ${out}`);
  return { proc, url, output: () => out };
}

const ffprobeDuration = async (file: string) =>
  Number((await promisify(execFile)('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file])).stdout.trim());

/** Every .ts file under the storage root, outside the staging folders, relative to it. */
function storedFiles(): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      // Working files, not footage: staging (.incoming), the live view's rolling segments (.live) and
      // a file source's MPEG-TS remux (.source.ts).
      if (name.startsWith('.')) continue;
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.ts')) found.push(relative(storage, p));
    }
  };
  if (existsSync(storage)) walk(storage);
  return found.sort();
}

function indexRows() {
  const db = new Database(join(dir, 'recorder', 'recorder.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return {
      segments: db.prepare('select id, run_id, path, start_date, end_date from segments order by start_date').all() as {
        id: string;
        run_id: string;
        path: string;
        start_date: string;
        end_date: string;
      }[],
      runs: db.prepare('select id, active, end_date from runs order by start_date').all() as { id: string; active: number; end_date: string }[],
    };
  } finally {
    db.close();
  }
}

const ffmpegPidsUnder = (folder: string) =>
  readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(folder);
      } catch {
        return false;
      }
    });

describe('overlook recorder users create', () => {
  it('creates a user and prints it; a second one with that e-mail exits 3; a bad role exits 2', () => {
    const first = overlook([
      'recorder',
      'users',
      'create',
      '--email',
      'admin@site.example',
      '--password',
      'password-123',
      '--role',
      'admin',
      '--data-dir',
      dir,
    ]);
    expect(first.status, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ email: 'admin@site.example', role: 'admin' });
    expect(first.stdout).not.toContain('password-123');
    const again = overlook(['recorder', 'users', 'create', '--email', 'admin@site.example', '--password', 'password-123', '--data-dir', dir]);
    expect(again.status).toBe(3);
    expect(
      overlook(['recorder', 'users', 'create', '--email', 'x@site.example', '--password', 'password-123', '--role', 'owner', '--data-dir', dir]).status,
    ).toBe(2);
  });
});

describe('kill -9 mid-recording', () => {
  it('keeps every complete segment, indexes or removes the partial one, stops the orphan, and records again', async () => {
    // File devices play only from the media folder (docs/recorder.md, Devices).
    const video = makeTestVideo(join(dir, 'recorder', 'media'));
    const first = await serve();
    const login = await fetch(`${first.url}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin@site.example', password: 'password-123' }),
    });
    expect(login.status).toBe(200);
    const { access_token } = (await login.json()) as { access_token: string };
    const auth = { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' };
    const created = await fetch(`${first.url}/api/devices`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'Crane', type: 'file', stream_config: { path: video } }),
    });
    expect(created.status).toBe(201);
    const deviceId = ((await created.json()) as { id: string }).id;

    await eventually(async () => indexRows().segments.length >= 5, 30_000, 'five segments before the kill');
    // Kill half-way through a segment, so a partial one is being written.
    await new Promise((r) => setTimeout(r, 500));
    const before = indexRows();
    const staging = join(storage, deviceId, 'main', '.incoming');
    const [runId] = readdirSync(staging);
    expect(runId).toBeTruthy();
    first.proc.kill('SIGKILL');
    await new Promise((r) => first.proc.once('exit', r));

    const second = await serve();
    const after = indexRows();
    // Nothing indexed before the kill is lost; the index and the disk agree file for file; every file plays.
    for (const seg of before.segments) expect(after.segments.map((s) => s.id)).toContain(seg.id);
    expect(after.segments.length).toBeGreaterThanOrEqual(before.segments.length);
    const indexedPaths = after.segments.map((s) => s.path).sort();
    expect(storedFiles()).toEqual(indexedPaths);
    for (const seg of after.segments) {
      expect(await ffprobeDuration(join(storage, seg.path)), seg.path).toBeGreaterThan(0);
      expect(Date.parse(seg.end_date)).toBeGreaterThan(Date.parse(seg.start_date));
    }
    // Segments do not overlap in time.
    for (let i = 1; i < after.segments.length; i++)
      expect(Date.parse(after.segments[i]!.start_date)).toBeGreaterThanOrEqual(Date.parse(after.segments[i - 1]!.end_date) - 5);
    // The dead life's staging folder and its ffmpeg are gone; its run is closed.
    expect(existsSync(join(staging, runId!))).toBe(false);
    expect(ffmpegPidsUnder(join(staging, runId!))).toEqual([]);
    expect(after.runs.find((r) => r.id === before.segments[0]!.run_id)).toMatchObject({ active: 0 });

    // Recording resumes: a new active run with new segments, and the device says so.
    await eventually(async () => indexRows().segments.length >= after.segments.length + 3, 30_000, 'segments after the restart');
    const runs = indexRows().runs;
    expect(runs.filter((r) => r.active === 1)).toHaveLength(1);
    expect(runs.find((r) => r.active === 1)!.id).not.toBe(before.segments[0]!.run_id);
    const device = (await (await fetch(`${second.url}/api/devices/${deviceId}`, { headers: auth })).json()) as { state: string };
    expect(device.state).toBe('recording');
    // The token issued before the kill still works: tokens live in the database, not in memory.

    // A clean stop (SIGTERM) indexes the segment in hand and leaves no staging behind.
    second.proc.kill('SIGTERM');
    const code = await new Promise((r) => second.proc.once('exit', r));
    expect(code).toBe(0);
    expect(readdirSync(staging)).toEqual([]);
    expect(storedFiles()).toEqual(
      indexRows()
        .segments.map((s) => s.path)
        .sort(),
    );
    expect(indexRows().runs.every((r) => r.active === 0)).toBe(true);
  }, 120_000);
});
