// The doorbell connector against a local fake: connect with an API key and secret (checked upstream,
// stored encrypted), list the account's doorbells, link one to a project and camera, signed ring
// webhooks becoming `doorbell_ring` notifications for the project's admins with the camera's frame
// captured into its recordings (bad signature, stale timestamp, replays and other devices refused),
// the events list, provider failures, disconnect, and the access rules of its six scoped endpoints.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEndpointAccess, type AccessWorld, type EndpointSpec } from '../../helpers/access.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { DOORBELL_KEY, DOORBELL_SECRET, fakeDoorbell, signedHeaders, type Fake } from './site-fakes.js';

let tp: TestPlatform;
let fake: Fake;
const base = '/v2/connectors/doorbell';
const creds = { api_key: DOORBELL_KEY, api_secret: DOORBELL_SECRET };

beforeAll(async () => {
  fake = await fakeDoorbell();
  tp = await buildTestPlatform({ OVERLOOK_DOORBELL_URL: fake.url, OVERLOOK_CONNECTOR_TIMEOUT_MS: '400' });
});
afterAll(async () => {
  await tp.close();
  await fake.close();
});

const connect = (p: Person, payload: Record<string, unknown> = creds) => tp.app.inject({ method: 'POST', url: `${base}/connect`, headers: p.auth, payload });
const linkDevice = (p: Person, exid: string, device: string, camera_exid?: string | null) =>
  tp.app.inject({
    method: 'PUT',
    url: `${base}/projects/${exid}/devices/${device}`,
    headers: p.auth,
    payload: camera_exid === undefined ? {} : { camera_exid },
  });
const post = (path: string, body: string, headers: Record<string, string>) => tp.app.inject({ method: 'POST', url: path, headers, payload: body });
const ring = (id: string, device = 'dev-gate', type = 'ring') => JSON.stringify({ id, type, device_id: device, occurred_at: new Date().toISOString() });

describe('doorbell', () => {
  it('connect checks the key and secret upstream and stores them encrypted', async () => {
    const owner = await tp.person('db');
    expect((await connect(owner, { ...creds, api_secret: 'wrong-secret-000' })).statusCode).toBe(400);
    expect((await connect(owner, { api_key: DOORBELL_KEY })).statusCode).toBe(400);
    const ok = await connect(owner);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().account).toMatchObject({ account_id: 'acct-1', name: 'Builder Co' });
    const row = await tp.t.db.kysely.selectFrom('connector_connections').selectAll().where('user_id', '=', owner.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(DOORBELL_SECRET);
    expect(JSON.stringify(row)).not.toContain(Buffer.from(`${DOORBELL_KEY}:${DOORBELL_SECRET}`).toString('base64'));
    const devices = await tp.app.inject({ method: 'GET', url: `${base}/devices`, headers: owner.auth });
    expect(devices.statusCode).toBe(200);
    expect(devices.json().data.map((d: { id: string }) => d.id)).toEqual(['dev-gate', 'dev-office']);
    expect(devices.json().data[0]).toMatchObject({ name: 'Main gate bell', online: true });
  });

  it('a signed ring notifies the admins with the linked camera’s frame; forgeries and replays are refused', async () => {
    const owner = await tp.person('db');
    const admin = await tp.person('admin');
    const viewer = await tp.person('viewer');
    const project = await tp.project(owner, 'Gate site');
    const camera = await tp.camera(owner, project.exid, 'Gate cam');
    const elsewhere = await tp.project(owner, 'Elsewhere');
    const foreignCam = await tp.camera(owner, elsewhere.exid, 'Far cam');
    await tp.addMember(owner, project.exid, admin, 'admin');
    await tp.addMember(owner, project.exid, viewer, 'viewer');
    expect((await connect(owner)).statusCode).toBe(200);

    expect((await linkDevice(owner, project.exid, 'dev-nope', camera.exid)).statusCode).toBe(404);
    expect((await linkDevice(owner, project.exid, 'dev-gate', foreignCam.exid)).statusCode).toBe(400);
    expect((await linkDevice(owner, project.exid, 'dev-gate', 'no-such-camera')).statusCode).toBe(404);
    expect((await linkDevice(owner, project.exid, 'bad id!', camera.exid)).statusCode).toBe(400);
    const linked = await linkDevice(owner, project.exid, 'dev-gate', camera.exid);
    expect(linked.statusCode, linked.body).toBe(200);
    const hook = linked.json();
    expect(hook).toMatchObject({ camera_exid: camera.exid, device: { id: 'dev-gate', name: 'Main gate bell' } });
    const path = new URL(hook.webhook_url).pathname;

    const body = ring('ring-1');
    const ok = await post(path, body, signedHeaders('doorbell', hook.webhook_secret, body));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ received: true, event_id: 'ring-1', notified: 2 });

    for (const p of [owner, admin]) {
      const list = (await tp.app.inject({ method: 'GET', url: '/v2/notifications', headers: p.auth })).json().data as {
        type: string;
        message: string;
        context: Record<string, any>;
      }[];
      const n = list.find((x) => x.type === 'doorbell_ring');
      expect(n?.message).toContain('Main gate bell');
      expect(n?.context).toMatchObject({ project_exid: project.exid, camera_exid: camera.exid, device_id: 'dev-gate', event_id: 'ring-1' });
      // The frame captured at the ring is in the camera's recordings, and decodes.
      const snap = n!.context.snapshot as { url: string; created_at: string };
      expect(snap.url).toContain(`/v2/cameras/${camera.exid}/recordings/snapshots/`);
      const img = await tp.app.inject({ method: 'GET', url: new URL(snap.url).pathname, headers: { ...p.auth, accept: 'image/jpeg' } });
      expect(img.statusCode).toBe(200);
      expect((await sharp(img.rawPayload).metadata()).format).toBe('jpeg');
      const meta = await tp.app.inject({ method: 'GET', url: new URL(snap.url).pathname, headers: p.auth });
      expect(meta.json().note).toBe('Doorbell ring: Main gate bell');
    }
    const viewerList = (await tp.app.inject({ method: 'GET', url: '/v2/notifications', headers: viewer.auth })).json().data as { type: string }[];
    expect(viewerList.filter((x) => x.type === 'doorbell_ring')).toHaveLength(0);

    // Replay, wrong secret, stale timestamp, another device, altered body: refused.
    expect((await post(path, body, signedHeaders('doorbell', hook.webhook_secret, body))).statusCode).toBe(409);
    const r2 = ring('ring-2');
    expect((await post(path, r2, signedHeaders('doorbell', 'whsec_wrong', r2))).statusCode).toBe(401);
    expect((await post(path, r2, signedHeaders('doorbell', hook.webhook_secret, r2, Math.floor(Date.now() / 1000) + 3600))).statusCode).toBe(401);
    expect((await post(path, r2, signedHeaders('doorbell', hook.webhook_secret, r2, Math.floor(Date.now() / 1000) - 301))).statusCode).toBe(401);
    expect((await post(path, r2.replace('ring-2', 'ring-9'), signedHeaders('doorbell', hook.webhook_secret, r2))).statusCode).toBe(401);
    const otherDevice = ring('ring-3', 'dev-office');
    expect((await post(path, otherDevice, signedHeaders('doorbell', hook.webhook_secret, otherDevice))).statusCode).toBe(400);
    const noTime = JSON.stringify({ id: 'ring-4', type: 'ring', device_id: 'dev-gate' });
    expect((await post(path, noTime, signedHeaders('doorbell', hook.webhook_secret, noTime))).statusCode).toBe(400);
    // Loose times (a bare year, a US date, a day that does not exist) are refused (docs/security.md, "Times").
    for (const [i, occurred_at] of ['2026', '12/25/2026', '2026-02-30T10:00:00Z'].entries()) {
      const loose = JSON.stringify({ id: `ring-loose-${i}`, type: 'ring', device_id: 'dev-gate', occurred_at });
      expect((await post(path, loose, signedHeaders('doorbell', hook.webhook_secret, loose))).statusCode, occurred_at).toBe(400);
    }

    // A motion event: recorded and told as a doorbell event, no frame taken.
    const motion = ring('motion-1', 'dev-gate', 'motion');
    expect((await post(path, motion, signedHeaders('doorbell', hook.webhook_secret, motion))).statusCode).toBe(200);

    const events = await tp.app.inject({ method: 'GET', url: `${base}/projects/${project.exid}/events?limit=10`, headers: viewer.auth });
    expect(events.statusCode).toBe(200);
    expect(events.json().data.map((e: { event: { id: string } }) => e.event.id)).toEqual(['motion-1', 'ring-1']);
    expect(events.json().data[0].event.snapshot).toBeNull();
    const page2 = await tp.app.inject({ method: 'GET', url: `${base}/projects/${project.exid}/events?limit=1&page=2`, headers: viewer.auth });
    expect(page2.json().data.map((e: { event: { id: string } }) => e.event.id)).toEqual(['ring-1']);
    expect((await tp.app.inject({ method: 'GET', url: `${base}/projects/${project.exid}/events?page=0`, headers: viewer.auth })).statusCode).toBe(400);

    // Provider failures.
    try {
      fake.fail = 'error';
      expect((await tp.app.inject({ method: 'GET', url: `${base}/devices`, headers: owner.auth })).statusCode).toBe(502);
      fake.fail = 'hang';
      expect((await linkDevice(owner, project.exid, 'dev-office')).statusCode).toBe(504);
    } finally {
      fake.fail = null;
    }

    // Deleting the camera removes its links (cascade); disconnecting stops the webhooks.
    expect((await tp.app.inject({ method: 'DELETE', url: `${base}/connect`, headers: owner.auth })).statusCode).toBe(200);
    const r5 = ring('ring-5');
    expect((await post(path, r5, signedHeaders('doorbell', hook.webhook_secret, r5))).statusCode).toBe(409);
    expect((await tp.app.inject({ method: 'GET', url: `${base}/devices`, headers: owner.auth })).statusCode).toBe(409);
  });

  it('a link without a camera still notifies, with no frame', async () => {
    const owner = await tp.person('db');
    const project = await tp.project(owner, 'Office');
    expect((await connect(owner)).statusCode).toBe(200);
    const hook = (await linkDevice(owner, project.exid, 'dev-office', null)).json();
    expect(hook.camera_exid).toBeNull();
    const body = ring('office-1', 'dev-office');
    const res = await post(new URL(hook.webhook_url).pathname, body, signedHeaders('doorbell', hook.webhook_secret, body));
    expect(res.json()).toMatchObject({ received: true, notified: 1 });
    const n = (await tp.app.inject({ method: 'GET', url: '/v2/notifications', headers: owner.auth }))
      .json()
      .data.find((x: { type: string }) => x.type === 'doorbell_ring');
    expect(n.context).toMatchObject({ camera_exid: null, snapshot: null });
  });

  it('deleting the linked camera or the project leaves no link or delivery rows', async () => {
    const owner = await tp.person('db');
    const project = await tp.project(owner, 'Short-lived');
    const camera = await tp.camera(owner, project.exid, 'Doomed cam');
    expect((await connect(owner)).statusCode).toBe(200);
    const hook = (await linkDevice(owner, project.exid, 'dev-gate', camera.exid)).json();
    const body = ring('gone-1');
    expect((await post(new URL(hook.webhook_url).pathname, body, signedHeaders('doorbell', hook.webhook_secret, body))).statusCode).toBe(200);
    const { id: projectId } = await tp.t.db.kysely.selectFrom('projects').select('id').where('exid', '=', project.exid).executeTakeFirstOrThrow();
    const rows = () => tp.t.db.kysely.selectFrom('site_connector_links').select('id').where('project_id', '=', projectId).execute();
    const deliveries = () =>
      tp.t.db.kysely.selectFrom('site_connector_deliveries').select('event_id').where('link_id', '=', hook.webhook_url.split('/').pop()).execute();
    expect(await rows()).toHaveLength(1);
    expect(await deliveries()).toHaveLength(1);
    const del = await tp.app.inject({ method: 'DELETE', url: `/v2/cameras/${camera.exid}`, headers: owner.auth });
    expect(del.statusCode, del.body).toBe(204);
    expect(await rows()).toHaveLength(0);
    expect(await deliveries()).toHaveLength(0);
    // The webhook of a removed link is unknown.
    const again = ring('gone-2');
    expect((await post(new URL(hook.webhook_url).pathname, again, signedHeaders('doorbell', hook.webhook_secret, again))).statusCode).toBe(404);

    // A project's links and events go with the project.
    const hook2 = (await linkDevice(owner, project.exid, 'dev-office', null)).json();
    const b2 = ring('gone-3', 'dev-office');
    expect((await post(new URL(hook2.webhook_url).pathname, b2, signedHeaders('doorbell', hook2.webhook_secret, b2))).statusCode).toBe(200);
    await tp.t.db.kysely.deleteFrom('projects').where('id', '=', projectId).execute();
    expect(await rows()).toHaveLength(0);
    expect(await tp.t.db.kysely.selectFrom('connector_events').select('id').where('project_id', '=', projectId).execute()).toHaveLength(0);
  });

  describe('access rules', () => {
    const connected: EndpointSpec['setup'] = async (t, w) => {
      expect((await t.app.inject({ method: 'POST', url: `${base}/connect`, headers: w.owner.auth, payload: creds })).statusCode).toBe(200);
      return {};
    };
    const onProject = (suffix: string, extra: Partial<EndpointSpec>): EndpointSpec => ({
      method: 'GET',
      url: (w: AccessWorld) => `${base}/projects/${w.projectExid}${suffix}`,
      otherUrl: (w: AccessWorld) => `${base}/projects/${w.otherProjectExid}${suffix}`,
      scopes: ['project:connectors'],
      role: 'viewer',
      okStatus: 200,
      ...extra,
    });
    const specs: [string, EndpointSpec][] = [
      ['POST connect', { method: 'POST', url: () => `${base}/connect`, payload: () => creds, scopes: ['project:connectors'], okStatus: 200 }],
      ['GET status', { method: 'GET', url: () => `${base}/status`, scopes: ['project:connectors'], okStatus: 200 }],
      ['DELETE connect', { method: 'DELETE', url: () => `${base}/connect`, scopes: ['project:connectors'], okStatus: 200, setup: connected }],
      ['GET devices', { method: 'GET', url: () => `${base}/devices`, scopes: ['project:connectors'], okStatus: 200, setup: connected }],
      [
        'PUT device link',
        onProject('/devices/dev-gate', {
          method: 'PUT',
          role: 'admin',
          payload: (w) => ({ camera_exid: w.cameraExid }),
          otherPayload: (w) => ({ camera_exid: w.otherCameraExid }),
          setup: connected,
        }),
      ],
      ['GET events', onProject('/events', {})],
    ];
    for (const [name, spec] of specs) it(name, () => checkEndpointAccess(tp, spec), 60_000);
  });
});
