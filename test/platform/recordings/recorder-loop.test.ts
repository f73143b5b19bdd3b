// The recorder loop: it really records the simulated camera (rows + decodable JPEGs), respects paused,
// off and the weekly schedule, picks up settings changes at once, backs off a failing real camera
// without disturbing the others, never overlaps two fetches of a camera, bounds concurrency, and runs
// with the app. Scheduling is driven through `tick(now)` on a virtual clock; fetches are real.
import { existsSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { RecorderLoop, type RecorderLoopOptions } from '../../../src/platform/recordings/recorder-loop.js';
import { SnapshotWriter } from '../../../src/platform/recordings/capture.js';
import { RetentionJob } from '../../../src/platform/recordings/retention.js';
import { localWeekMinute } from '../../../src/platform/recordings/recording-schedule.js';
import { snapshotKey } from '../../../src/platform/recordings/snapshot-index.js';
import type { FsObjectStore } from '../../../src/platform/storage/fs-object-store.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

/** The fake cameras listen on 127.0.0.1: opted in as a site's LAN would be (docs/security.md, Outbound connections). */
const LOCAL_CAMERAS = { OVERLOOK_ALLOWED_NETWORKS: '127.0.0.1/32' };

let tp: TestPlatform;
let owner: Person;
let projectExid: string;
let server: Server;
let base: string;
/** Requests per path, in flight now and at most, and whether /flaky fails. */
const hits = new Map<string, number>();
let inFlight = 0;
let maxInFlight = 0;
let flakyFails = true;
let jpeg: Buffer;

beforeAll(async () => {
  tp = await buildTestPlatform(LOCAL_CAMERAS);
  owner = await tp.person('owner');
  projectExid = (await tp.project(owner)).exid;
  jpeg = await sharp({ create: { width: 24, height: 16, channels: 3, background: '#228844' } })
    .jpeg()
    .toBuffer();
  server = createServer((req, res) => {
    const path = req.url!.split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const done = (fn: () => void) => {
      inFlight--;
      fn();
    };
    if (path === '/flaky' && flakyFails) done(() => res.writeHead(503).end());
    else if (path.startsWith('/slow')) setTimeout(() => done(() => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg)), 300);
    else done(() => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await tp.close();
});

async function camera(opts: { name: string; snapshotPath?: string; settings?: Record<string, unknown> }): Promise<{ exid: string; id: string }> {
  const payload = opts.snapshotPath
    ? { name: opts.name, project_exid: projectExid, snapshot_url: `${base}${opts.snapshotPath}` }
    : { name: opts.name, project_exid: projectExid, simulated: true };
  const res = await tp.app.inject({ method: 'POST', url: '/v2/cameras', headers: owner.auth, payload });
  expect(res.statusCode, res.body).toBe(201);
  const exid = res.json().exid;
  if (opts.settings) await settings(exid, opts.settings);
  return { exid, id: (await servicesOf(tp.app).cameras.row(exid)).id };
}

async function settings(exid: string, body: Record<string, unknown>) {
  const res = await tp.app.inject({ method: 'PUT', url: `/v2/cameras/${exid}/cloud-recordings`, headers: owner.auth, payload: body });
  expect(res.statusCode, res.body).toBe(200);
}

// Each test records only the cameras it sets up.
beforeEach(async () => {
  await tp.t.db.kysely.updateTable('camera_recording_settings').set({ status: 'off' }).execute();
  servicesOf(tp.app).recorder.invalidate();
});

const rows = (cameraId: string) => tp.t.db.kysely.selectFrom('snapshots').selectAll().where('camera_id', '=', cameraId).orderBy('taken_at').execute();

/** A loop of its own over the app's services (the app's loop is off in this file). */
function ownLoop(opts: RecorderLoopOptions = {}): RecorderLoop {
  const p = servicesOf(tp.app);
  const writer = new SnapshotWriter(p.storage, p.snapshotIndex);
  return new RecorderLoop(
    { db: p.db, connections: p.connections, writer, retention: new RetentionJob(p.db, p.storage, p.snapshotIndex) },
    { spreadStart: false, ...opts },
  );
}

async function step(loop: RecorderLoop, at: number) {
  await loop.tick(at);
  await loop.idle();
}

describe('recording', () => {
  it('records the simulated camera at its frequency: index rows and decodable JPEGs', async () => {
    const cam = await camera({ name: 'Sim', settings: { status: 'on', frequency: 60 } });
    const loop = ownLoop();
    const t = Date.now();
    await step(loop, t);
    await step(loop, t + 500); // not due yet: one a second
    expect(await rows(cam.id)).toHaveLength(1);
    await step(loop, t + 1000);
    await step(loop, t + 2000);
    const got = await rows(cam.id);
    expect(got).toHaveLength(3);
    for (const r of got) {
      expect(r).toMatchObject({ source: 'schedule', note: null, created_by: null });
      expect(r.object_key).toBe(snapshotKey(cam.id, new Date(r.taken_at)));
      const bytes = await servicesOf(tp.app).storage.getBytes(r.object_key);
      expect(bytes!.length).toBe(r.size);
      expect(await sharp(bytes!).metadata()).toMatchObject({ format: 'jpeg', width: 640, height: 360 });
    }
    expect(loop.stats.captures).toBeGreaterThanOrEqual(3);
  });

  it('skips slots it can no longer make instead of bursting', async () => {
    const cam = await camera({ name: 'Late', settings: { status: 'on', frequency: 60 } });
    const loop = ownLoop();
    const t = Date.now();
    await step(loop, t);
    await step(loop, t + 10_500); // ten slots passed: one capture, nine missed
    expect(await rows(cam.id)).toHaveLength(2);
    expect(loop.stats.missedSlots).toBeGreaterThanOrEqual(9);
    expect(loop.stateOf(cam.id)!.nextDueAt).toBe(t + 11_000);
  });

  it('does not record cameras that are off or paused, and picks up changes without a restart', async () => {
    const cam = await camera({ name: 'Toggle', settings: { status: 'paused', frequency: 60 } });
    const off = await camera({ name: 'Off' });
    const loop = servicesOf(tp.app).recorder; // the app's own instance: settings changes reach it
    const t = Date.now() + 3_600_000;
    await step(loop, t);
    await step(loop, t + 1000);
    expect(await rows(cam.id)).toEqual([]);
    expect(await rows(off.id)).toEqual([]);
    expect(loop.stateOf(cam.id)).toBeUndefined();

    await settings(cam.exid, { status: 'on' });
    await step(loop, t + 1100);
    await step(loop, t + 2100);
    expect((await rows(cam.id)).length).toBeGreaterThanOrEqual(1);
    const n = (await rows(cam.id)).length;

    await settings(cam.exid, { status: 'paused' });
    await step(loop, t + 3100);
    await step(loop, t + 4100);
    expect(await rows(cam.id)).toHaveLength(n);
  });

  it('records only inside the weekly schedule, in the camera time zone', async () => {
    const loop = ownLoop();
    const t = Date.now();
    const cam = await camera({ name: 'Scheduled' });
    const tz = (await servicesOf(tp.app).cameras.row(cam.exid)).timezone;
    const { day, minute } = localWeekMinute(new Date(t), tz);
    const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    // A window that ended before now (or none at all just after midnight): nothing is recorded.
    const before = minute >= 2 ? { [day]: [`00:00-${hhmm(minute - 1)}`] } : {};
    await settings(cam.exid, { status: 'on', frequency: 60, schedule: before });
    await step(loop, t);
    await step(loop, t + 1000);
    expect(await rows(cam.id)).toEqual([]);
    // A window around now: recorded.
    await settings(cam.exid, { schedule: { [day]: [`${hhmm(Math.max(0, minute - 1))}-${minute >= 1438 ? '24:00' : hhmm(minute + 2)}`] } });
    loop.invalidate();
    await step(loop, t + 2000);
    expect((await rows(cam.id)).length).toBe(1);
  });
});

describe('failures', () => {
  it('backs off a failing camera, doubling, while a healthy one keeps recording; recovers on success', async () => {
    flakyFails = true;
    hits.set('/flaky', 0);
    const bad = await camera({ name: 'Flaky', snapshotPath: '/flaky', settings: { status: 'on', frequency: 60 } });
    const good = await camera({ name: 'Healthy', snapshotPath: '/good', settings: { status: 'on', frequency: 60 } });
    const loop = ownLoop();
    const t = Date.now();
    await step(loop, t); // fetch 1 fails: retry after 1 s
    expect(hits.get('/flaky')).toBe(1);
    expect(loop.stateOf(bad.id)).toMatchObject({ failures: 1, nextDueAt: t + 1000 });
    expect(loop.stateOf(bad.id)!.lastError).toMatch(/503/);
    await step(loop, t + 1000); // fetch 2 fails: retry after 2 s
    expect(loop.stateOf(bad.id)).toMatchObject({ failures: 2, nextDueAt: t + 3000 });
    await step(loop, t + 2000); // backing off: not fetched
    expect(hits.get('/flaky')).toBe(2);
    await step(loop, t + 3000); // fetch 3 fails: retry after 4 s
    expect(loop.stateOf(bad.id)).toMatchObject({ failures: 3, nextDueAt: t + 7000 });
    for (const at of [4000, 5000, 6000]) await step(loop, t + at);
    expect(hits.get('/flaky')).toBe(3);
    // The healthy camera was recorded at every one of those ticks.
    expect(await rows(good.id)).toHaveLength(7);
    expect(await rows(bad.id)).toEqual([]);

    flakyFails = false;
    await step(loop, t + 7000);
    expect(loop.stateOf(bad.id)).toMatchObject({ failures: 0, lastError: null, nextDueAt: t + 8000 });
    expect(await rows(bad.id)).toHaveLength(1);
    expect(loop.stats.failures).toBe(3);
  });

  it('caps the back-off', async () => {
    flakyFails = true;
    const bad = await camera({ name: 'Capped', snapshotPath: '/flaky', settings: { status: 'on', frequency: 60 } });
    const loop = ownLoop({ maxBackoffMs: 3000 });
    let t = Date.now();
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      await step(loop, t);
      const next = loop.stateOf(bad.id)!.nextDueAt;
      delays.push(next - t);
      t = next;
    }
    expect(delays).toEqual([1000, 2000, 3000, 3000, 3000]);
  });

  it('never runs two fetches of one camera at once', async () => {
    hits.set('/slow-one', 0);
    const cam = await camera({ name: 'Slow', snapshotPath: '/slow-one', settings: { status: 'on', frequency: 60 } });
    const loop = ownLoop();
    const t = Date.now();
    await loop.tick(t);
    await loop.tick(t + 1000);
    await loop.tick(t + 2000);
    expect(loop.stateOf(cam.id)!.inFlight).toBe(true);
    await loop.idle();
    expect(hits.get('/slow-one')).toBe(1);
    expect(await rows(cam.id)).toHaveLength(1);
  });

  it('a camera deleted during a fetch leaves neither a row nor an object', async () => {
    const cam = await camera({ name: 'Doomed', snapshotPath: '/slow-doomed', settings: { status: 'on', frequency: 60 } });
    const loop = ownLoop();
    await loop.tick(Date.now());
    expect(loop.stateOf(cam.id)!.inFlight).toBe(true);
    await tp.t.db.kysely.deleteFrom('cameras').where('id', '=', cam.id).execute();
    await loop.idle();
    expect(loop.stateOf(cam.id)!.lastError).toMatch(/not found/i);
    expect(await rows(cam.id)).toEqual([]);
    const dir = join((servicesOf(tp.app).storage as FsObjectStore).root, 'cameras', cam.id);
    const files = existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()) : [];
    expect(files).toEqual([]);
    // Gone from the loop at its next reload.
    loop.invalidate();
    await step(loop, Date.now() + 1000);
    expect(loop.stateOf(cam.id)).toBeUndefined();
  });

  it('bounds the fetches in flight', async () => {
    for (let i = 0; i < 5; i++) await camera({ name: `Bounded ${i}`, snapshotPath: `/slow-b${i}`, settings: { status: 'on', frequency: 60 } });
    maxInFlight = 0;
    const loop = ownLoop({ concurrency: 2 });
    const t = Date.now();
    await step(loop, t);
    expect(maxInFlight).toBeLessThanOrEqual(2);
    for (let i = 0; i < 5; i++) expect(hits.get(`/slow-b${i}`) ?? 0).toBeLessThanOrEqual(1);
    // The ones left waiting are taken on the following ticks.
    await step(loop, t + 100);
    await step(loop, t + 200);
    for (let i = 0; i < 5; i++) expect(hits.get(`/slow-b${i}`)).toBe(1);
    expect(maxInFlight).toBeLessThanOrEqual(2);
  });
});

describe('with the app', () => {
  it('starts on ready, records, and stops on close', async () => {
    const live = await buildTestPlatform({ ...LOCAL_CAMERAS, OVERLOOK_RECORDING_LOOP: '1' });
    try {
      const boss = await live.person('boss');
      const p = await live.project(boss);
      const c = await live.camera(boss, p.exid);
      const res = await live.app.inject({
        method: 'PUT',
        url: `/v2/cameras/${c.exid}/cloud-recordings`,
        headers: boss.auth,
        payload: { status: 'on', frequency: 60 },
      });
      expect(res.statusCode).toBe(200);
      const id = (await servicesOf(live.app).cameras.row(c.exid)).id;
      let count = 0;
      for (let i = 0; i < 100 && count < 2; i++) {
        await new Promise((r) => setTimeout(r, 100));
        count = (await live.t.db.kysely.selectFrom('snapshots').select('taken_at').where('camera_id', '=', id).execute()).length;
      }
      expect(count).toBeGreaterThanOrEqual(2);
    } finally {
      await live.close();
    }
  });
});
