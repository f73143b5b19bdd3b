// The site link through outages, end to end with real processes of the built CLI: the platform on this
// host, the recorder in a network namespace of its own. A linked file device records a cloud frame every
// two seconds. Its connection is killed twice (the kernel resets the recorder's socket), then the platform
// process is stopped for two minutes while the recorder keeps recording, and the recorder itself is
// restarted in the middle of that. Once the platform is back, its snapshot index has every frame the
// recorder took (its outbox counts them), none twice, and they were stored oldest first.
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, SLOW, overlookAsync, serve, tempDir, type Served } from '../../helpers/cli.js';
import { available, siteHost, type SiteHost } from '../../helpers/netns.js';
import { makeTestVideo } from '../../helpers/recorder.js';
import { recorderApiIn, siteCliIn, until } from '../../helpers/site-processes.js';

const canRun = available();
/** How long the platform stays stopped. */
const OUTAGE_MS = 120_000;
/** When, into the outage, the recorder is restarted. */
const RECORDER_RESTART_AT_MS = 40_000;
/** The longest a restarted recorder may take to record its first frame again. */
const RESTART_GAP_MS = 60_000;
const RECORDER_PORT = 4000;
/** One cloud frame every 2 s: 60 owed over the outage, with room for a busy machine's slow ffmpeg. */
const STEP_MS = 2000;
let site: SiteHost;
let platform: Served | undefined;
let platformPort = 0;
let recorder: ChildProcess | undefined;
let recorderOut = '';
const platformDir = tempDir('overlook-outage-platform-');
const siteDir = tempDir('overlook-outage-site-');
let token = '';
let bearer = '';

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(platform!.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as any) : null, text };
};

/** Starts `overlook serve`; after the first start, on the port the recorder knows. */
async function startPlatform(): Promise<void> {
  platform = await serve(['serve', '--host', site.hostAddress, '--port', String(platformPort), '--data-dir', platformDir], { timeoutMs: SLOW });
  platformPort = Number(new URL(platform.url).port);
}

/** Starts `overlook recorder serve` in the namespace and waits until it listens. */
async function startRecorder(): Promise<void> {
  recorderOut = '';
  const proc = site.run(process.execPath, [...CLI, 'recorder', 'serve', '--port', String(RECORDER_PORT), '--data-dir', siteDir], {
    cwd: ROOT,
    // Reconnection waits of at most 4 s: the recorder is back within seconds of the platform.
    env: { ...process.env, DATABASE_URL: '', OVERLOOK_RECORDER_SEGMENT_SECONDS: '2', OVERLOOK_RECORDER_LINK_RETRY_MAX_SECONDS: '4' },
  });
  proc.stdout?.on('data', (d) => (recorderOut += d));
  proc.stderr?.on('data', (d) => (recorderOut += d));
  recorder = proc;
  await until(
    () => `the recorder to listen (it said: ${recorderOut.slice(-1500)})`,
    async () => recorderOut.includes('recorder listening'),
    SLOW,
  );
}

async function stopRecorder(): Promise<void> {
  const proc = recorder;
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  await new Promise((resolve) => {
    proc.once('exit', resolve);
    proc.kill('SIGTERM');
  });
}

/** Every frame of the camera in the platform's index, oldest first, as epoch milliseconds. */
async function framesOf(cameraExid: string): Promise<number[]> {
  const out: number[] = [];
  let cursor: string | null = null;
  do {
    const page = await api(
      'GET',
      `/v2/cameras/${cameraExid}/recordings/snapshots?order=asc&limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(page.status, page.text).toBe(200);
    for (const f of page.json.data as { created_at: string }[]) out.push(Date.parse(f.created_at));
    cursor = page.json.meta.next_cursor as string | null;
  } while (cursor);
  return out;
}

const recorderApi = (method: string, path: string, body?: unknown) => recorderApiIn(site, RECORDER_PORT)(method, path, body, bearer);
const linkState = async () => (await recorderApi('GET', '/api/link')).json as { state: string; backlog: { items: number } };
/** Resets the recorder's TCP connections to the platform, as a flaky mobile network does. */
const killConnection = () => site.exec('ss', ['-K', 'dst', site.hostAddress, 'dport', '=', String(platformPort)]);
const slot = (ms: number) => Math.floor(ms / STEP_MS);

beforeAll(async () => {
  if (!canRun) return;
  site = siteHost();
  // The recorder's admin and test video are made while the platform starts.
  const [, admin] = await Promise.all([
    startPlatform(),
    siteCliIn(site)(['recorder', 'users', 'create', '--email', 'admin@site.example', '--password', 'password-123', '--role', 'admin', '--data-dir', siteDir]),
  ]);
  expect(admin.status, admin.out).toBe(0);
  const created = await overlookAsync(['users', 'create', '--email', 'outage@example.com', '--password', 'correct horse 9', '--data-dir', platformDir]);
  expect(created.status, created.stderr).toBe(0);
  const login = await fetch(`${platform!.url}/v2/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'outage@example.com', password: 'correct horse 9' }),
  });
  token = ((await login.json()) as { token: string }).token;
}, SLOW * 2);

afterAll(async () => {
  if (!canRun) return;
  await stopRecorder();
  await platform?.stop();
});

describe.skipIf(!canRun)('the site link through outages', () => {
  it(
    'has every frame the recorder owed after killed connections, a 2-minute platform outage and a recorder restart, once each, oldest first',
    async () => {
      const projectExid = (await api('POST', '/v2/projects', { name: 'Quay' })).json.exid as string;
      const link = await api('POST', `/v2/projects/${projectExid}/recorder-links`, { name: 'Quay recorder' });
      expect(link.status, link.text).toBe(201);
      const video = makeTestVideo(join(siteDir, 'recorder', 'media'), 6);
      await startRecorder();
      bearer = (await recorderApiIn(site, RECORDER_PORT)('POST', '/api/users/login', { username: 'admin@site.example', password: 'password-123' })).json
        .access_token as string;
      const linked = await recorderApi('POST', '/api/link', { platform_url: platform!.url, code: link.json.pairing_code });
      expect(linked.status, JSON.stringify(linked.json)).toBe(200);
      const device = await recorderApi('POST', '/api/devices', { name: 'Quay cam', type: 'file', stream_config: { path: video } });
      expect(device.status, JSON.stringify(device.json)).toBe(201);
      const camera = await until('the linked camera', async () => {
        const cams = await api('GET', `/v2/projects/${projectExid}/cameras`);
        const list = (Array.isArray(cams.json) ? cams.json : (cams.json?.cameras ?? [])) as { exid: string; name: string }[];
        return list.find((c) => c.name === 'Quay cam');
      });
      // A cloud frame every STEP_MS.
      const on = await api('PUT', `/v2/cameras/${camera.exid}/cloud-recordings`, { status: 'on', frequency: 60_000 / STEP_MS });
      expect(on.status, on.text).toBeLessThan(300);
      const diagnose = () => `(recorder said: ${recorderOut.slice(-2000)}; platform said: ${platform?.output().slice(-2000)})`;
      // Generous waits: on a busy machine a device's first live segment alone can take a minute.
      const frameSince = (t: number) =>
        until(
          () => `a frame after ${new Date(t).toISOString()} ${diagnose()}`,
          async () => (await framesOf(camera.exid)).some((f) => f > t),
          120_000,
        );
      await frameSince(0);

      // The connection is reset twice; the recorder connects again and goes on.
      for (let i = 0; i < 2; i++) {
        await until('the link up', async () => (await linkState()).state === 'connected', 30_000);
        await new Promise((r) => setTimeout(r, 2000));
        const killedAt = Date.now();
        killConnection();
        await frameSince(killedAt + 1000);
      }

      // The platform goes away for two minutes; the recorder records on, and restarts in the middle.
      await platform!.stop();
      const outageStart = Date.now();
      await until('the recorder to see the platform gone', async () => (await linkState()).state !== 'connected', 30_000);
      let state = await linkState();
      await until(
        () => `the recorder to owe frames (${JSON.stringify(state)}) ${diagnose()}`,
        async () => {
          state = await linkState();
          return state.backlog.items >= 3;
        },
        30_000,
      );
      await new Promise((r) => setTimeout(r, outageStart + RECORDER_RESTART_AT_MS - Date.now()));
      const recorderStoppedAt = Date.now();
      await stopRecorder();
      const recorderExitedAt = Date.now();
      await startRecorder();
      const recorderStartedAt = Date.now();
      await new Promise((r) => setTimeout(r, Math.max(0, outageStart + OUTAGE_MS - Date.now())));
      const backlog = (await linkState()).backlog.items;
      await startPlatform();
      const platformBack = Date.now();

      // Back: the backlog goes oldest first, so a frame from after the return means the rest are in.
      await frameSince(platformBack + STEP_MS);
      const caughtUp = Date.now();
      await until('the backlog sent', async () => (await linkState()).backlog.items <= 2, 30_000);
      // The recorder stops, so nothing more is owed: what it queued, ever (its outbox's AUTOINCREMENT
      // counts every frame queued, across its restart; this device sends no events), is what the
      // platform stored plus what is still waiting.
      await stopRecorder();
      const outboxDb = new SQLite(join(siteDir, 'recorder', 'recorder.sqlite'), { readonly: true });
      let queued = 0;
      let waiting = 0;
      try {
        queued = (outboxDb.prepare("select seq from sqlite_sequence where name = 'link_outbox'").get() as { seq: number }).seq;
        waiting = (outboxDb.prepare('select count(*) as n from link_outbox').get() as { n: number }).n;
      } finally {
        outboxDb.close();
      }
      const frames = await framesOf(camera.exid);
      // Every frame the recorder took is in the platform's index once: none lost, none twice.
      expect(frames.length + waiting, diagnose()).toBe(queued);
      const slots = frames.map(slot);
      const counts = new Map<number, number>();
      for (const s of slots) counts.set(s, (counts.get(s) ?? 0) + 1);
      // Each process takes one frame a slot; the slot the recorder restarts in may hold the old
      // process's last frame and the new one's first.
      const inSlot = (s: number) => frames.filter((f) => slot(f) === s);
      const acrossRestart = (s: number) => {
        const [a, b, ...more] = inSlot(s);
        return more.length === 0 && a! < recorderExitedAt && b! > recorderExitedAt;
      };
      const twice = [...counts].filter(([s, n]) => n > 1 && !acrossRestart(s)).map(([s]) => inSlot(s).map((f) => new Date(f).toISOString()));
      expect(twice, `frames sharing a slot (recorder exited ${new Date(recorderExitedAt).toISOString()}) ${diagnose()}`).toEqual([]);
      const restarted = frames.find((f) => f > recorderStartedAt)!;
      expect(restarted - recorderStartedAt).toBeLessThan(RESTART_GAP_MS);
      // The recorder recorded through the outage. A slot that comes while the previous frame is still
      // being taken is skipped by the recorder itself (a busy machine's slow ffmpeg), not lost on the
      // link: the count above is what proves the link; this only says the outage was recorded.
      const owed = slots.filter((s) => s >= slot(outageStart) && s < slot(platformBack));
      const recorderDown = restarted - recorderStoppedAt;
      const slotsRecording = Math.floor((OUTAGE_MS - recorderDown) / STEP_MS);
      expect(owed.length).toBeGreaterThanOrEqual(Math.floor(slotsRecording / 2));
      console.log(
        `outage: ${owed.length} frames owed over ${Math.round((platformBack - outageStart) / 1000)} s of ${slotsRecording} slots recording ` +
          `(backlog ${backlog} items), recorder down ${Math.round(recorderDown / 1000)} s, ` +
          `caught up ${((caughtUp - platformBack) / 1000).toFixed(1)} s after the platform listened; ${queued} frames queued in all, ${waiting} waiting at the end`,
      );

      // Stored oldest first: in the order they were taken, their rows were written.
      const db = new SQLite(join(platformDir, 'overlook.sqlite'), { readonly: true });
      try {
        const rows = db
          .prepare('select s.taken_at, s.created_at from snapshots s join cameras c on c.id = s.camera_id where c.exid = ? order by s.taken_at')
          .all(camera.exid) as { taken_at: string; created_at: string }[];
        expect(rows).toHaveLength(frames.length);
        const outOfOrder = rows.filter((r, i) => i > 0 && r.created_at < rows[i - 1]!.created_at);
        expect(outOfOrder).toEqual([]);
      } finally {
        db.close();
      }
    },
    OUTAGE_MS + SLOW * 2,
  );
});
