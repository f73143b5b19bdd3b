// The picture checks through the platform: frames fetched from a real HTTP camera and stored by
// "capture now" are analysed after they are stored; the health endpoint reports each check, a fault
// notifies the project's members, thresholds change what is found, and resetting the reference view
// accepts a moved camera. The clock is faked (Date only) so frames are a minute apart.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import { RetentionJob } from '../../../src/platform/recordings/retention.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { startReceiver } from '../../helpers/webhook-receiver.js';
import { eventually } from '../../helpers/eventually.js';
import { FrameCamera } from './frame-camera.js';
import type { FrameOptions } from './synthetic-frames.js';

let tp: TestPlatform;
const camera = new FrameCamera();
let owner: Person;
let viewer: Person;
let projectExid: string;

beforeAll(async () => {
  await camera.start();
  // The fake camera listens on 127.0.0.1: opted in as a site's LAN would be (docs/security.md, Outbound connections).
  tp = await buildTestPlatform({ OVERLOOK_ALLOWED_NETWORKS: '127.0.0.1/32', OVERLOOK_OUTBOX_POLL_SECONDS: '0.2' });
  owner = await tp.person('owner');
  viewer = await tp.person('viewer');
  projectExid = (await tp.project(owner)).exid;
  await tp.addMember(owner, projectExid, viewer, 'viewer');
});
afterEach(() => vi.useRealTimers());
afterAll(async () => {
  await tp.close();
  await camera.stop();
});

async function ipCamera(name: string): Promise<string> {
  const res = await tp.app.inject({
    method: 'POST',
    url: '/v2/cameras',
    headers: owner.auth,
    payload: { name, project_exid: projectExid, snapshot_url: camera.snapshotUrl },
  });
  expect(res.statusCode).toBe(201);
  return res.json().exid;
}

/** Stores one frame per option, a minute apart, through "capture now", and waits for the analysis. */
const store = (exid: string, frames: FrameOptions[]) => camera.store(tp, owner, exid, frames);

const health = async (exid: string, who: Person = viewer) => {
  const res = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${exid}/health`, headers: who.auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { status: string; picture_status: string; picture_checks: { check: string; state: string; since: string }[] };
};
const stateOf = (h: Awaited<ReturnType<typeof health>>, check: string) => h.picture_checks.find((c) => c.check === check);
const normal = (n: number): FrameOptions => ({ n, people: 3, seed: n });

describe('picture checks on stored frames', () => {
  it('reports every check ok after the first frames, then a black fault from its first frame until the picture returns', async () => {
    const exid = await ipCamera('Black camera');
    expect((await health(exid)).picture_checks).toEqual([]);
    const first = await store(exid, [normal(0), normal(1), normal(2)]);
    let h = await health(exid);
    expect(h.status).toBe('online');
    expect(h.picture_status).toBe('ok');
    expect(h.picture_checks).toEqual(['black', 'frozen', 'blurred', 'moved'].map((check) => ({ check, state: 'ok', since: first[0] })));

    const black = await store(exid, [
      { n: 3, black: true },
      { n: 4, black: true },
    ]);
    h = await health(exid);
    expect(h.picture_status).toBe('fault');
    expect(stateOf(h, 'black')).toEqual({ check: 'black', state: 'fault', since: black[0] });
    // Other checks keep their state while the picture is black.
    expect(stateOf(h, 'frozen')?.state).toBe('ok');

    const back = await store(exid, [normal(5)]);
    h = await health(exid);
    expect(h.picture_status).toBe('ok');
    expect(stateOf(h, 'black')).toEqual({ check: 'black', state: 'ok', since: back[0] });

    // The members were told when it started and when it ended.
    const res = await tp.app.inject({ method: 'GET', url: '/v2/notifications', headers: viewer.auth });
    const mine = (res.json().data as { type: string; context: Record<string, string> }[]).filter((n) => n.context.camera_exid === exid);
    expect(mine.map((n) => [n.type, n.context.check, n.context.state, n.context.since]).sort()).toEqual(
      [
        ['camera_status_changed', 'black', 'fault', black[0]],
        ['camera_status_changed', 'black', 'ok', back[0]],
      ].sort(),
    );
  });

  it('tells a webhook once when a fault starts and once when it ends, and the camera record shows it', async () => {
    const receiver = await startReceiver();
    try {
      const hook = await tp.app.inject({
        method: 'POST',
        url: `/v2/projects/${projectExid}/webhooks`,
        headers: owner.auth,
        payload: { url: receiver.url, events: ['camera.picture_fault'] },
      });
      expect(hook.statusCode, hook.body).toBe(201);
      const exid = await ipCamera('Hooked camera');
      const record = async () => (await tp.app.inject({ method: 'GET', url: `/v2/cameras/${exid}`, headers: viewer.auth })).json();
      await store(exid, [normal(0), normal(1)]);
      expect((await record()).picture_status).toBe('ok');
      const black = await store(exid, [
        { n: 2, black: true },
        { n: 3, black: true },
      ]);
      const camera = await record();
      expect(camera.picture_status).toBe('fault');
      // The connection's status is its own.
      expect(camera.status).not.toBe('fault');
      const back = await store(exid, [normal(4), normal(5)]);
      expect((await record()).picture_status).toBe('ok');

      const ours = () => receiver.got.map((r) => JSON.parse(r.body)).filter((b) => b.data.camera_exid === exid);
      await eventually(() => ours().length >= 2, 'two webhook deliveries');
      // One delivery per event, each delivered at its first attempt: nothing is sent again.
      const log = async () =>
        (await tp.app.inject({ method: 'GET', url: `/v2/projects/${projectExid}/webhooks/${hook.json().id}/deliveries`, headers: owner.auth })).json();
      const deliveries = await eventually(async () => {
        const d = (await log()).deliveries as { status: string; attempts: number }[];
        return d.every((x) => x.status === 'delivered') && d;
      }, 'every delivery done');
      expect(deliveries.map((d) => [d.status, d.attempts])).toEqual([
        ['delivered', 1],
        ['delivered', 1],
      ]);
      expect(receiver.got).toHaveLength(2);
      expect(ours().map((b) => [b.type, b.project_exid, b.data])).toEqual([
        ['camera.picture_fault', projectExid, { camera_exid: exid, check: 'black', state: 'fault', since: black[0], picture_status: 'fault' }],
        ['camera.picture_fault', projectExid, { camera_exid: exid, check: 'black', state: 'ok', since: back[0], picture_status: 'ok' }],
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('finds a freeze after the configured number of frames, dated from the first frozen frame', async () => {
    const exid = await ipCamera('Frozen camera');
    const patch = await tp.app.inject({
      method: 'PATCH',
      url: `/v2/cameras/${exid}/picture-checks/thresholds`,
      headers: owner.auth,
      payload: { frozen_frames: 3 },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    expect(patch.json().thresholds.frozen_frames).toBe(3);
    const times = await store(exid, [normal(0), normal(1), { n: 2, people: 3, seed: 99 }, { n: 3, people: 3, seed: 99 }]);
    expect(stateOf(await health(exid), 'frozen')?.state).toBe('ok');
    await store(exid, [{ n: 4, people: 3, seed: 99 }]);
    expect(stateOf(await health(exid), 'frozen')).toEqual({ check: 'frozen', state: 'fault', since: times[2] });
    const moving = await store(exid, [normal(5)]);
    expect(stateOf(await health(exid), 'frozen')).toEqual({ check: 'frozen', state: 'ok', since: moving[0] });
  });

  it('does not find a fresh simulated (demo) camera frozen: its scene changes every minute', async () => {
    const res = await tp.app.inject({
      method: 'POST',
      url: '/v2/cameras',
      headers: owner.auth,
      payload: { name: 'Demo', project_exid: projectExid, simulated: true },
    });
    expect(res.statusCode, res.body).toBe(201);
    const exid = res.json().exid as string;
    // More frames than frozen_frames (10), a minute apart, as the demo records them.
    for (let i = 0; i < 12; i++) {
      camera.tick();
      const shot = await tp.app.inject({ method: 'POST', url: `/v2/cameras/${exid}/snapshots`, headers: owner.auth, payload: {} });
      expect(shot.statusCode, shot.body).toBe(201);
    }
    await servicesOf(tp.app).pictureChecks.idle();
    const h = await health(exid);
    expect(h.picture_checks.map((c) => [c.check, c.state])).toEqual(['black', 'frozen', 'blurred', 'moved'].map((c) => [c, 'ok']));
    expect(h.picture_status).toBe('ok');
  });

  it('removes the activity of frames with the frames, when retention removes them', async () => {
    const exid = await ipCamera('Retained camera');
    const times = await store(exid, [normal(0), normal(1), normal(2), normal(3)]);
    const s = servicesOf(tp.app);
    const cameraId = (await s.db.kysely.selectFrom('cameras').select('id').where('exid', '=', exid).executeTakeFirstOrThrow()).id;
    const scored = () => s.db.kysely.selectFrom('picture_frame_activity').select('taken_at').where('camera_id', '=', cameraId).orderBy('taken_at').execute();
    expect((await scored()).map((r) => r.taken_at)).toEqual(times.slice(1));
    const removed = await new RetentionJob(s.db, s.storage, s.snapshotIndex, undefined, s.storedFrames).runCamera(cameraId, new Date(times[3]!));
    expect(removed).toBe(3);
    expect((await scored()).map((r) => r.taken_at)).toEqual([times[3]]);
  });

  it('finds a moved view and accepts it as the new reference when an admin resets it', async () => {
    const exid = await ipCamera('Knocked camera');
    await store(exid, [normal(0), normal(1)]);
    const moved = await store(exid, [{ ...normal(2), dx: 32 }]);
    expect(stateOf(await health(exid), 'moved')).toEqual({ check: 'moved', state: 'fault', since: moved[0] });

    const byViewer = await tp.app.inject({ method: 'POST', url: `/v2/cameras/${exid}/picture-checks/reference`, headers: viewer.auth });
    expect(byViewer.statusCode).toBe(403);
    const reset = await tp.app.inject({ method: 'POST', url: `/v2/cameras/${exid}/picture-checks/reference`, headers: owner.auth });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().moved.state).toBe('ok');
    await store(exid, [
      { ...normal(3), dx: 32 },
      { ...normal(4), dx: 32 },
    ]);
    expect(stateOf(await health(exid), 'moved')?.state).toBe('ok');
  });

  it('refuses a reference reset before any frame, and bad thresholds, with 4xx and nothing changed', async () => {
    const exid = await ipCamera('Fresh camera');
    const reset = await tp.app.inject({ method: 'POST', url: `/v2/cameras/${exid}/picture-checks/reference`, headers: owner.auth });
    expect(reset.statusCode).toBe(409);
    const url = `/v2/cameras/${exid}/picture-checks/thresholds`;
    for (const payload of [{}, { frozen_frames: 1 }, { black_level: 200 }, { blur_ratio: 'half' }, { shiny: true }, { moved_percent: 8 }]) {
      const res = await tp.app.inject({ method: 'PATCH', url, headers: owner.auth, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    const byViewer = await tp.app.inject({ method: 'PATCH', url, headers: viewer.auth, payload: { frozen_frames: 5 } });
    expect(byViewer.statusCode).toBe(403);
    const stranger = await tp.person('stranger');
    expect((await tp.app.inject({ method: 'GET', url, headers: stranger.auth })).statusCode).toBe(404);
    const key = await tp.key(owner, { projects: [projectExid], scopes: ['cameras:read', 'project:settings'] });
    const byKey = await tp.app.inject({ method: 'PATCH', url, headers: key.headers, payload: { frozen_frames: 5 } });
    expect(byKey.json().code).toBe('ENDPOINT_CLOSED_TO_KEYS');
    const now = await tp.app.inject({ method: 'GET', url, headers: viewer.auth });
    expect(now.statusCode).toBe(200);
    expect(now.json().thresholds).toEqual(now.json().defaults);
  });
});
