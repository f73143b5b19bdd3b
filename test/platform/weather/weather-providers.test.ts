// The two weather connectors (WeatherStack, AerisWeather) against local fakes: connect checks the key
// with the provider and stores it encrypted, status, current conditions and a day's history at the
// project's camera location, bad inputs, provider failures (502/504), disconnect, the access rules of
// all ten endpoints — and the exact count of the four site connectors' scoped operations (22).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopeMap } from '../../../src/platform/access/scope-map.js';
import { checkEndpointAccess, type AccessWorld, type EndpointSpec } from '../../helpers/access.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { AERIS_ID, AERIS_SECRET, fakeAeris, fakeWeatherstack, WEATHERSTACK_KEY, type Fake } from '../connectors/site-fakes.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

let tp: TestPlatform;
let ws: Fake;
let aeris: Fake;

beforeAll(async () => {
  ws = await fakeWeatherstack();
  aeris = await fakeAeris();
  tp = await buildTestPlatform({ OVERLOOK_WEATHERSTACK_URL: ws.url, OVERLOOK_AERISWEATHER_URL: aeris.url, OVERLOOK_CONNECTOR_TIMEOUT_MS: '400' });
});
afterAll(async () => {
  await tp.close();
  await ws.close();
  await aeris.close();
});

const providers = [
  { id: 'weatherstack', good: () => ({ access_key: WEATHERSTACK_KEY }), bad: { access_key: 'wrongkey0000' }, secrets: [WEATHERSTACK_KEY], fake: () => ws },
  {
    id: 'aerisweather',
    good: () => ({ client_id: AERIS_ID, client_secret: AERIS_SECRET }),
    bad: { client_id: AERIS_ID, client_secret: 'notTheSecret1' },
    secrets: [AERIS_SECRET],
    fake: () => aeris,
  },
] as const;

async function locatedProject(owner: Person) {
  const p = await tp.project(owner, 'Weather site');
  const res = await tp.app.inject({
    method: 'POST',
    url: '/v2/cameras',
    headers: owner.auth,
    payload: { name: 'Crane cam', project_exid: p.exid, simulated: true, location: { lat: 53.349, lng: -6.26 } },
  });
  expect(res.statusCode).toBe(201);
  return p;
}

describe('the site connectors publish exactly 22 scoped operations', () => {
  it('voyage-control 6, doorbell 6, weatherstack 5, aerisweather 5, all project:connectors', () => {
    const map = scopeMap(servicesOf(tp.app).registeredRoutes);
    const count = (id: string) => map.filter((e) => e.path.startsWith(`/v2/connectors/${id}/`) && e.scopes.includes('project:connectors')).length;
    expect({ v: count('voyage-control'), d: count('doorbell'), ws: count('weatherstack'), a: count('aerisweather') }).toEqual({ v: 6, d: 6, ws: 5, a: 5 });
    // The webhooks are public (signature-checked), not scoped.
    const hooks = map.filter((e) => /^\/v2\/connectors\/(voyage-control|doorbell)\/webhooks\//.test(e.path));
    expect(hooks.map((h) => h.access)).toEqual(['public', 'public']);
  });
});

for (const p of providers) {
  describe(`${p.id}`, () => {
    const base = `/v2/connectors/${p.id}`;

    it('refuses a key the provider refuses, and bad credential bodies, storing nothing', async () => {
      const owner = await tp.person('w');
      const refused = await tp.app.inject({ method: 'POST', url: `${base}/connect`, headers: owner.auth, payload: p.bad });
      expect(refused.statusCode).toBe(400);
      for (const payload of [{}, { nope: 'x' }, { ...p.good(), extra: 1 }, Object.fromEntries(Object.keys(p.good()).map((k) => [k, 'a b']))]) {
        const r = await tp.app.inject({ method: 'POST', url: `${base}/connect`, headers: owner.auth, payload });
        expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      }
      const status = await tp.app.inject({ method: 'GET', url: `${base}/status`, headers: owner.auth });
      expect(status.json().connected).toBe(false);
    });

    it('connects (stored encrypted), reads the weather at the project’s camera, disconnects', async () => {
      const owner = await tp.person('w');
      const project = await tp.project(owner, 'No location yet');
      const con = await tp.app.inject({ method: 'POST', url: `${base}/connect`, headers: owner.auth, payload: p.good() });
      expect(con.statusCode, con.body).toBe(200);
      expect(con.json()).toMatchObject({ provider: p.id, connected: true, auth_kind: 'credentials' });
      expect(con.json().account.checked_location).toBeTruthy();

      // At rest: no plaintext secret anywhere in the row.
      const row = await tp.t.db.kysely
        .selectFrom('connector_connections')
        .selectAll()
        .where('user_id', '=', owner.id)
        .where('provider', '=', p.id)
        .executeTakeFirstOrThrow();
      for (const s of p.secrets) expect(JSON.stringify(row)).not.toContain(s);
      expect(row.credentials_enc).toMatch(/^v1\./);

      const status = await tp.app.inject({ method: 'GET', url: `${base}/status`, headers: owner.auth });
      expect(status.json()).toMatchObject({ connected: true, provider: p.id });

      // A project without a located camera has no place to ask about.
      const none = await tp.app.inject({ method: 'GET', url: `${base}/projects/${project.exid}/current`, headers: owner.auth });
      expect(none.statusCode).toBe(409);

      const located = await locatedProject(owner);
      const before = p.fake().seen.length;
      const cur = await tp.app.inject({ method: 'GET', url: `${base}/projects/${located.exid}/current`, headers: owner.auth });
      expect(cur.statusCode, cur.body).toBe(200);
      const now = cur.json();
      expect(now.provider).toBe(p.id);
      expect(now.location).toMatchObject({ lat: 53.349, lng: -6.26 });
      expect(typeof now.temperature_c).toBe('number');
      expect(typeof now.humidity).toBe('number');
      expect(now.description).toBeTruthy();
      // The provider was asked about the camera's coordinates.
      const asked = p
        .fake()
        .seen.slice(before)
        .map((s) => `${s.path}?${s.query}`)
        .join(' ');
      expect(asked).toContain('53.349');
      expect(asked).toContain('-6.26');

      const day = await tp.app.inject({ method: 'GET', url: `${base}/projects/${located.exid}/history?date=2026-11-20`, headers: owner.auth });
      expect(day.statusCode, day.body).toBe(200);
      const d = day.json();
      expect(d.date).toBe('2026-11-20');
      expect(d.hours.length).toBeGreaterThan(2);
      expect(d.min_temp_c).toBeLessThanOrEqual(d.max_temp_c);
      expect(d.total_precipitation_mm).toBeGreaterThan(0);
      expect(d.hours[0].time).toMatch(/^\d\d:\d\d$/);

      const off = await tp.app.inject({ method: 'DELETE', url: `${base}/connect`, headers: owner.auth });
      expect(off.statusCode).toBe(200);
      expect(off.json()).toMatchObject({ connected: false });
      const gone = await tp.t.db.kysely.selectFrom('connector_connections').select('id').where('user_id', '=', owner.id).where('provider', '=', p.id).execute();
      expect(gone).toHaveLength(0);
      const after = await tp.app.inject({ method: 'GET', url: `${base}/projects/${located.exid}/current`, headers: owner.auth });
      expect(after.statusCode).toBe(409);
      expect(after.json().code).toBe('CONNECTOR_NOT_CONNECTED');
      const again = await tp.app.inject({ method: 'DELETE', url: `${base}/connect`, headers: owner.auth });
      expect(again.statusCode).toBe(404);
    });

    it('bad days are 400; provider failures are 502 and 504', async () => {
      const owner = await tp.person('w');
      const located = await locatedProject(owner);
      expect((await tp.app.inject({ method: 'POST', url: `${base}/connect`, headers: owner.auth, payload: p.good() })).statusCode).toBe(200);
      for (const q of ['', '?date=yesterday', '?date=2026-02-30', '?date=2026-13-01', '?date=2999-01-01', '?date=1999-01-01', '?date=2026-11-20&x=1']) {
        const r = await tp.app.inject({ method: 'GET', url: `${base}/projects/${located.exid}/history${q}`, headers: owner.auth });
        expect(r.statusCode, q).toBe(400);
      }
      const fake = p.fake();
      try {
        fake.fail = 'error';
        const e = await tp.app.inject({ method: 'GET', url: `${base}/projects/${located.exid}/current`, headers: owner.auth });
        expect(e.statusCode).toBe(502);
        fake.fail = 'hang';
        const h = await tp.app.inject({ method: 'GET', url: `${base}/projects/${located.exid}/history?date=2026-11-19`, headers: owner.auth });
        expect(h.statusCode).toBe(504);
      } finally {
        fake.fail = null;
      }
    });

    describe('access rules', () => {
      const connectOwner: EndpointSpec['setup'] = async (t, w) => {
        const r = await t.app.inject({ method: 'POST', url: `${base}/connect`, headers: w.owner.auth, payload: p.good() });
        expect(r.statusCode).toBe(200);
        const cam = await t.app.inject({
          method: 'POST',
          url: '/v2/cameras',
          headers: w.owner.auth,
          payload: { name: 'Located', project_exid: w.projectExid, simulated: true, location: { lat: 51.5, lng: -0.12 } },
        });
        expect(cam.statusCode).toBe(201);
        return {};
      };
      const projectRead = (suffix: string): EndpointSpec => ({
        method: 'GET',
        url: (w: AccessWorld) => `${base}/projects/${w.projectExid}${suffix}`,
        otherUrl: (w: AccessWorld) => `${base}/projects/${w.otherProjectExid}${suffix}`,
        scopes: ['project:connectors'],
        role: 'viewer',
        okStatus: 200,
        setup: connectOwner,
      });
      const specs: [string, EndpointSpec][] = [
        ['POST connect', { method: 'POST', url: () => `${base}/connect`, payload: () => p.good(), scopes: ['project:connectors'], okStatus: 200 }],
        ['GET status', { method: 'GET', url: () => `${base}/status`, scopes: ['project:connectors'], okStatus: 200 }],
        ['DELETE connect', { method: 'DELETE', url: () => `${base}/connect`, scopes: ['project:connectors'], okStatus: 200, setup: connectOwner }],
        ['GET current', projectRead('/current')],
        ['GET history', projectRead('/history?date=2026-11-18')],
      ];
      for (const [name, spec] of specs) it(name, () => checkEndpointAccess(tp, spec), 60_000);
    });
  });
}
