// Live view through the site link whatever the device's recording mode (docs/site-link.md, Live view):
// a real recorder (its ffmpeg, its link over a real WebSocket) linked to a listening platform. Devices
// that do not record now (mode `never`, or a schedule closed at this hour) still play through the
// platform's /hls and give a live snapshot: the recorder starts their live stream when the platform
// asks, and stops it once nobody has asked for the idle time, recording nothing meanwhile. The time to
// the first playable playlist is printed, not asserted (tests never assert on timing): bench/site-link.ts
// measures it.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../helpers/cli-cluster.js';
import { eventually } from '../../helpers/eventually.js';
import { serveRecorder, type ServedRecorder } from '../../helpers/linked-recorder.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { makeTestVideo } from '../../helpers/recorder.js';

const IDLE_SECONDS = 3;
let tp: TestPlatform;
let owner: Person;
let base: string;
let dir: string;
let r: ServedRecorder;
const devices: Record<string, { id: string; exid: string }> = {};

/** A weekday other than today (UTC), so that a schedule open only then is closed now. */
function notToday(): string {
  const days = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
  return days[(new Date().getUTCDay() + 3) % 7]!;
}

async function addDevice(name: string, storage: Record<string, unknown>): Promise<string> {
  const res = await r.running.app.inject({
    method: 'POST',
    url: '/api/devices',
    headers: r.admin,
    payload: { name, type: 'file', timezone: 'UTC', stream_config: { path: join(r.running.config.mediaDir, 'source.mp4') }, storage_config: storage },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

const deviceState = async (id: string) => (await r.running.app.inject({ method: 'GET', url: `/api/devices/${id}`, headers: r.admin })).json().state as string;
const running = (id: string) => r.running.app.recorder.manager.running().some((x) => x.deviceId === id);

beforeAll(async () => {
  // The platform's public URL names its real port: playlists carry absolute URLs, and ffmpeg follows them.
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  tp = await buildTestPlatform({ OVERLOOK_PUBLIC_URL: base });
  owner = await tp.person('on-demand-owner');
  const project = await tp.project(owner, 'Quiet site');
  await tp.app.listen({ host: '127.0.0.1', port });
  const link = await tp.app.inject({ method: 'POST', url: `/v2/projects/${project.exid}/recorder-links`, headers: owner.auth, payload: { name: 'Quiet' } });
  expect(link.statusCode, link.body).toBe(201);

  dir = mkdtempSync(join(tmpdir(), 'overlook-live-demand-'));
  r = await serveRecorder(dir, { OVERLOOK_RECORDER_LIVE_IDLE_SECONDS: String(IDLE_SECONDS) });
  makeTestVideo(r.running.config.mediaDir, 6);
  const paired = await r.running.app.inject({
    method: 'POST',
    url: '/api/link',
    headers: r.admin,
    payload: { platform_url: base, code: link.json().pairing_code },
  });
  expect(paired.statusCode, paired.body).toBe(200);
  const never = await addDevice('Never gate', { recording_mode: 'never' });
  const night = await addDevice('Night gate', { recording_mode: 'always', schedule: { [notToday()]: ['00:00-23:59'] } });
  const cameras = await eventually(
    async () => {
      const res = await tp.app.inject({ method: 'GET', url: `/v2/projects/${project.exid}/cameras`, headers: owner.auth });
      const body = res.json() as { exid: string; name: string }[] | { cameras: { exid: string; name: string }[] };
      const list = Array.isArray(body) ? body : body.cameras;
      const found = ['Never gate', 'Night gate'].map((n) => list.find((c) => c.name === n));
      return found.every(Boolean) && (found as { exid: string }[]);
    },
    'both devices as platform cameras',
    30_000,
  );
  devices.never = { id: never, exid: cameras[0]!.exid };
  devices.night = { id: night, exid: cameras[1]!.exid };
}, 120_000);

afterAll(async () => {
  await r?.running.close();
  await tp?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** From the viewer's first request to a media playlist that lists a segment, and that segment fetched: ms. */
async function firstPlayable(exid: string): Promise<{ ms: number; master: string }> {
  const t0 = Date.now();
  const master = await fetch(`${base}/v2/cameras/${exid}/hls?format=json`, { headers: owner.auth });
  expect(master.status).toBe(200);
  const playlistUrl = ((await master.json()) as { playlist_url: string }).playlist_url;
  // A player asks again when the first answer is not there yet (a busy machine starts ffmpeg slowly).
  let last = '';
  const text = await eventually(
    async () => {
      const playlist = await fetch(playlistUrl);
      last = `${playlist.status} ${await playlist.text()}`;
      return playlist.status === 200 && last.slice(4);
    },
    'a live playlist',
    30_000,
    250,
  ).catch((err: Error) => {
    throw new Error(`${err.message} (last answer: ${last})`);
  });
  const segment = text.split('\n').find((l) => l !== '' && !l.startsWith('#'));
  expect(segment, text).toBeDefined();
  const bytes = Buffer.from(await (await fetch(new URL(segment!, playlistUrl))).arrayBuffer());
  expect(bytes[0]).toBe(0x47); // an MPEG-TS sync byte
  return { ms: Date.now() - t0, master: `${base}/v2/cameras/${exid}/hls` };
}

describe('live view of a linked device that does not record', () => {
  it('neither device records, nor streams, before anyone watches', async () => {
    for (const d of Object.values(devices)) {
      expect(await deviceState(d.id)).toBe('stopped');
      expect(running(d.id)).toBe(false);
    }
  });

  it('plays through the platform’s /hls, in ffmpeg too, and counts the viewer (recording off)', async () => {
    const { ms, master } = await firstPlayable(devices.never!.exid);
    console.log(`first playable playlist through the link, recording off: ${ms} ms`);
    expect(running(devices.never!.id)).toBe(true);
    // Not execFileSync: the platform and the recorder run in this process and must answer ffmpeg.
    await promisify(execFile)(
      'ffmpeg',
      ['-v', 'error', '-headers', `Authorization: ${owner.auth.authorization}\r\n`, '-i', master, '-t', '2', '-f', 'null', '-'],
      {
        timeout: 60_000,
      },
    );
    const streaming = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${devices.never!.exid}/streaming`, headers: owner.auth });
    expect(streaming.json()).toMatchObject({ source: 'linked', hls: { running: true, mode: 'linked' } });
    expect(streaming.json().hls.viewers).toBeGreaterThanOrEqual(1);
  });

  it('gives a live snapshot, then plays (schedule closed now)', async () => {
    const shot = await fetch(`${base}/v2/cameras/${devices.night!.exid}/live/snapshot.jpg`, { headers: owner.auth });
    expect(shot.status).toBe(200);
    const jpeg = Buffer.from(await shot.arrayBuffer());
    expect([jpeg[0], jpeg[1]]).toEqual([0xff, 0xd8]);
    const { ms } = await firstPlayable(devices.night!.exid);
    console.log(`first playable playlist through the link, schedule closed: ${ms} ms`);
  });

  it('stops the live stream once nobody watches, the device still stopped and nothing recorded', async () => {
    for (const d of Object.values(devices)) {
      await eventually(async () => !running(d.id), `the live stream of ${d.id} to stop`, 30_000, 250);
      expect(await deviceState(d.id)).toBe('stopped');
      const recorded = await r.running.app.inject({ method: 'GET', url: `/api/devices/${d.id}/recordings`, headers: r.admin });
      expect(recorded.json()).toEqual([]);
    }
  });
});
