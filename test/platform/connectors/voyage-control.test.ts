// Voyage Control against a local fake: connect with an API key (checked upstream, stored encrypted),
// link a venue to a project, its bookings in a range, signed gate-event webhooks becoming
// notifications for the project's admins (bad signature, stale timestamp and replays refused), the
// events list, provider failures, disconnect, and the access rules of its six scoped endpoints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEndpointAccess, type AccessWorld, type EndpointSpec } from '../../helpers/access.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { fakeVoyage, signedHeaders, VOYAGE_KEY, VOYAGE_VENUE, type Fake } from './site-fakes.js';

let tp: TestPlatform;
let fake: Fake;
const base = '/v2/connectors/voyage-control';

beforeAll(async () => {
  fake = await fakeVoyage();
  tp = await buildTestPlatform({ OVERLOOK_VOYAGE_CONTROL_URL: fake.url, OVERLOOK_CONNECTOR_TIMEOUT_MS: '400' });
});
afterAll(async () => {
  await tp.close();
  await fake.close();
});

const connect = (p: Person, api_key = VOYAGE_KEY) => tp.app.inject({ method: 'POST', url: `${base}/connect`, headers: p.auth, payload: { api_key } });
const link = (p: Person, exid: string, venue_id = VOYAGE_VENUE) =>
  tp.app.inject({ method: 'PUT', url: `${base}/projects/${exid}/site`, headers: p.auth, payload: { venue_id } });
const webhookPath = (url: string) => new URL(url).pathname;
const post = (path: string, body: string, headers: Record<string, string>) => tp.app.inject({ method: 'POST', url: path, headers, payload: body });
const gateEvent = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id,
    type: 'gate.entry',
    occurred_at: new Date().toISOString(),
    gate: { name: 'North gate' },
    booking: { id: 'b1', reference: 'VC-1001', vehicle_registration: '221-D-1234', company: { name: 'Acme Concrete' } },
    ...extra,
  });
const notificationsOf = async (p: Person) =>
  (await tp.app.inject({ method: 'GET', url: '/v2/notifications', headers: p.auth })).json().data as {
    type: string;
    message: string;
    context: Record<string, unknown>;
  }[];

describe('voyage control', () => {
  it('connect checks the key with Voyage and stores it encrypted', async () => {
    const owner = await tp.person('vc');
    const bad = await connect(owner, 'vc_wrong_key_000');
    expect(bad.statusCode).toBe(400);
    expect((await tp.app.inject({ method: 'POST', url: `${base}/connect`, headers: owner.auth, payload: { api_key: 'short' } })).statusCode).toBe(400);
    const ok = await connect(owner);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().account).toMatchObject({ organisation: 'Main Contractor Ltd', email: 'logistics@example.com' });
    const row = await tp.t.db.kysely.selectFrom('connector_connections').selectAll().where('user_id', '=', owner.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(VOYAGE_KEY);
    expect((await tp.app.inject({ method: 'GET', url: `${base}/status`, headers: owner.auth })).json().connected).toBe(true);
  });

  it('links a venue, lists its bookings, turns signed gate events into notifications for admins only', async () => {
    const owner = await tp.person('vc');
    const admin = await tp.person('admin');
    const viewer = await tp.person('viewer');
    const project = await tp.project(owner, 'Dock Road');
    await tp.addMember(owner, project.exid, admin, 'admin');
    await tp.addMember(owner, project.exid, viewer, 'viewer');
    expect((await connect(owner)).statusCode).toBe(200);

    // Before a venue is linked there are no bookings to read.
    const early = await tp.app.inject({
      method: 'GET',
      url: `${base}/projects/${project.exid}/bookings?from=2026-11-19T00:00:00Z&to=2026-11-22T00:00:00Z`,
      headers: viewer.auth,
    });
    expect(early.statusCode).toBe(409);

    expect((await link(owner, project.exid, 'no-such-venue')).statusCode).toBe(404);
    // An admin without their own Voyage connection cannot link.
    const notConnected = await link(admin, project.exid);
    expect(notConnected.statusCode).toBe(409);
    expect(notConnected.json().code).toBe('CONNECTOR_NOT_CONNECTED');

    const linked = await link(owner, project.exid);
    expect(linked.statusCode, linked.body).toBe(200);
    const site = linked.json();
    expect(site).toMatchObject({ venue_id: VOYAGE_VENUE, venue_name: 'Dock Road Tower', timezone: 'Europe/Dublin' });
    expect(site.webhook_secret).toMatch(/^whsec_/);
    // The secret is sealed at rest.
    const stored = await tp.t.db.kysely.selectFrom('site_connector_links').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(site.webhook_secret);

    // A viewer reads the bookings through the linking admin's connection.
    const list = await tp.app.inject({
      method: 'GET',
      url: `${base}/projects/${project.exid}/bookings?from=2026-11-19T00:00:00Z&to=2026-11-22T00:00:00Z`,
      headers: viewer.auth,
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((b: { reference: string }) => b.reference)).toEqual(['VC-1001', 'VC-1002']);
    expect(list.json().data[0]).toMatchObject({ company: 'Acme Concrete', gate: 'North gate', vehicle_registration: '221-D-1234' });
    const arrived = await tp.app.inject({
      method: 'GET',
      url: `${base}/projects/${project.exid}/bookings?from=2026-11-19T00:00:00Z&to=2026-11-22T00:00:00Z&status=arrived`,
      headers: viewer.auth,
    });
    expect(arrived.json().data.map((b: { id: string }) => b.id)).toEqual(['b2']);
    for (const q of [
      '',
      '?from=2026-11-19T00:00:00Z',
      '?from=yesterday&to=2026-11-22T00:00:00Z',
      '?from=2026-11-22T00:00:00Z&to=2026-11-19T00:00:00Z',
      '?from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z',
      '?from=2026-11-19T00:00:00Z&to=2026-11-22T00:00:00Z&status=NOT%20ONE',
    ]) {
      const r = await tp.app.inject({ method: 'GET', url: `${base}/projects/${project.exid}/bookings${q}`, headers: viewer.auth });
      expect(r.statusCode, q).toBe(400);
    }

    // A signed gate event: stored, and every admin and the owner are told; the viewer is not.
    const path = webhookPath(site.webhook_url);
    const body = gateEvent('evt-1');
    const ok = await post(path, body, signedHeaders('voyage', site.webhook_secret, body));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ received: true, event_id: 'evt-1', notified: 2 });
    for (const p of [owner, admin]) {
      const n = (await notificationsOf(p)).find((x) => x.type === 'site_access_event');
      expect(n?.context).toMatchObject({
        project_exid: project.exid,
        event_id: 'evt-1',
        event_type: 'gate.entry',
        gate: 'North gate',
        vehicle_registration: '221-D-1234',
      });
      expect(n?.message).toContain('North gate');
    }
    expect((await notificationsOf(viewer)).filter((x) => x.type === 'site_access_event')).toHaveLength(0);

    // Replay of the same event, a bad signature, a stale or missing timestamp, another link's secret: refused.
    expect((await post(path, body, signedHeaders('voyage', site.webhook_secret, body))).statusCode).toBe(409);
    const other = gateEvent('evt-2');
    expect((await post(path, other, signedHeaders('voyage', 'whsec_not_the_secret', other))).statusCode).toBe(401);
    expect((await post(path, other, { ...signedHeaders('voyage', site.webhook_secret, other), 'x-voyage-signature': 'sha256=00' })).statusCode).toBe(401);
    const stale = await post(path, other, signedHeaders('voyage', site.webhook_secret, other, Math.floor(Date.now() / 1000) - 3600));
    expect(stale.statusCode).toBe(401);
    expect(stale.json().message).toContain('timestamp');
    expect((await post(path, other, { 'content-type': 'application/json' })).statusCode).toBe(401);
    // No JSON body (another content type, or none): refused, never checked as if it were empty.
    for (const payload of ['', 'evt']) {
      const noJson = await post(path, payload, { ...signedHeaders('voyage', site.webhook_secret, ''), 'content-type': 'text/plain' });
      expect(noJson.statusCode, payload).toBe(400);
      expect(noJson.json(), payload).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('JSON body') });
    }
    // The signature covers the exact bytes: a body altered after signing fails.
    const signed = signedHeaders('voyage', site.webhook_secret, other);
    expect((await post(path, other.replace('North', 'South'), signed)).statusCode).toBe(401);
    // Well signed but malformed events: 400.
    for (const bad of [
      '{',
      JSON.stringify({ id: 'evt-3', type: 'gate.entry', occurred_at: 'soon' }),
      JSON.stringify({ type: 'gate.entry', occurred_at: new Date().toISOString() }),
      JSON.stringify({ id: 'evt-4', type: 'Gate Entry!', occurred_at: new Date().toISOString() }),
    ]) {
      const r = await post(path, bad, signedHeaders('voyage', site.webhook_secret, bad));
      expect(r.statusCode, bad).toBe(400);
    }
    expect((await post(`${base}/webhooks/00000000-0000-7000-8000-000000000000`, other, signedHeaders('voyage', site.webhook_secret, other))).statusCode).toBe(
      404,
    );
    expect((await post(`${base}/webhooks/not-a-uuid`, other, signedHeaders('voyage', site.webhook_secret, other))).statusCode).toBe(400);

    // The events list shows the one accepted event.
    const events = await tp.app.inject({ method: 'GET', url: `${base}/projects/${project.exid}/events`, headers: viewer.auth });
    expect(events.statusCode).toBe(200);
    expect(events.json().data).toHaveLength(1);
    expect(events.json().data[0].event).toMatchObject({ id: 'evt-1', type: 'gate.entry', venue_id: VOYAGE_VENUE, booking_reference: 'VC-1001' });
    expect((await tp.app.inject({ method: 'GET', url: `${base}/projects/${project.exid}/events?limit=0`, headers: viewer.auth })).statusCode).toBe(400);

    // Relinking rotates the secret: the old one stops working.
    const relinked = (await link(owner, project.exid)).json();
    const e5 = gateEvent('evt-5');
    expect((await post(path, e5, signedHeaders('voyage', site.webhook_secret, e5))).statusCode).toBe(404);
    expect((await post(webhookPath(relinked.webhook_url), e5, signedHeaders('voyage', relinked.webhook_secret, e5))).statusCode).toBe(200);

    // Provider failures: 502 and 504.
    try {
      fake.fail = 'error';
      expect(
        (
          await tp.app.inject({
            method: 'GET',
            url: `${base}/projects/${project.exid}/bookings?from=2026-11-19T00:00:00Z&to=2026-11-22T00:00:00Z`,
            headers: viewer.auth,
          })
        ).statusCode,
      ).toBe(502);
      fake.fail = 'hang';
      expect(
        (
          await tp.app.inject({
            method: 'GET',
            url: `${base}/projects/${project.exid}/bookings?from=2026-11-19T00:00:00Z&to=2026-11-22T00:00:00Z`,
            headers: viewer.auth,
          })
        ).statusCode,
      ).toBe(504);
    } finally {
      fake.fail = null;
    }

    // Disconnecting stops the bookings and the webhooks; the received events stay listed.
    expect((await tp.app.inject({ method: 'DELETE', url: `${base}/connect`, headers: owner.auth })).statusCode).toBe(200);
    expect(
      (
        await tp.app.inject({
          method: 'GET',
          url: `${base}/projects/${project.exid}/bookings?from=2026-11-19T00:00:00Z&to=2026-11-22T00:00:00Z`,
          headers: viewer.auth,
        })
      ).statusCode,
    ).toBe(409);
    const e6 = gateEvent('evt-6');
    expect((await post(webhookPath(relinked.webhook_url), e6, signedHeaders('voyage', relinked.webhook_secret, e6))).statusCode).toBe(409);
    expect((await tp.app.inject({ method: 'GET', url: `${base}/projects/${project.exid}/events`, headers: viewer.auth })).json().data).toHaveLength(2);
  });

  describe('access rules', () => {
    const connected: EndpointSpec['setup'] = async (t, w) => {
      expect((await t.app.inject({ method: 'POST', url: `${base}/connect`, headers: w.owner.auth, payload: { api_key: VOYAGE_KEY } })).statusCode).toBe(200);
      return {};
    };
    const linked: EndpointSpec['setup'] = async (t, w) => {
      await connected(t, w);
      expect(
        (await t.app.inject({ method: 'PUT', url: `${base}/projects/${w.projectExid}/site`, headers: w.owner.auth, payload: { venue_id: VOYAGE_VENUE } }))
          .statusCode,
      ).toBe(200);
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
      [
        'POST connect',
        { method: 'POST', url: () => `${base}/connect`, payload: () => ({ api_key: VOYAGE_KEY }), scopes: ['project:connectors'], okStatus: 200 },
      ],
      ['GET status', { method: 'GET', url: () => `${base}/status`, scopes: ['project:connectors'], okStatus: 200 }],
      ['DELETE connect', { method: 'DELETE', url: () => `${base}/connect`, scopes: ['project:connectors'], okStatus: 200, setup: connected }],
      ['PUT site', onProject('/site', { method: 'PUT', role: 'admin', payload: () => ({ venue_id: VOYAGE_VENUE }), setup: connected })],
      ['GET bookings', onProject('/bookings?from=2026-11-19T00:00:00Z&to=2026-11-22T00:00:00Z', { setup: linked })],
      ['GET events', onProject('/events', {})],
    ];
    for (const [name, spec] of specs) it(name, () => checkEndpointAccess(tp, spec), 60_000);
  });
});
