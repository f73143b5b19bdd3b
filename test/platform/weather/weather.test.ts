// Weather at a project's site (project:weather): the location from the cameras, history by day from the
// provider's archive or forecast, current conditions, filters; the database cache (the fake provider
// counts requests), upstream failures as 502/504, bad input as 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEndpointAccess, type AccessWorld, type EndpointSpec } from '../../helpers/access.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { fakeTemp, startFakeOpenMeteo, type FakeWeather } from './fake-open-meteo.js';

let tp: TestPlatform;
let fake: FakeWeather;
beforeAll(async () => {
  fake = await startFakeOpenMeteo();
  tp = await buildTestPlatform({ OVERLOOK_WEATHER_URL: fake.url, OVERLOOK_WEATHER_TIMEOUT_MS: '300' });
});
afterAll(async () => {
  await tp.close();
  await fake.close();
});

const PAST = '2026-10-01';

const projectIdOf = async (exid: string) => (await tp.t.db.kysely.selectFrom('projects').select('id').where('exid', '=', exid).executeTakeFirstOrThrow()).id;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function cameraAt(owner: Person, projectExid: string, location?: { lat: number; lng: number }) {
  const res = await tp.app.inject({
    method: 'POST',
    url: '/v2/cameras',
    headers: owner.auth,
    payload: { name: 'Crane cam', project_exid: projectExid, simulated: true, ...(location ? { location } : {}) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { exid: string };
}

/** A project whose cameras stand at the given places. */
async function site(...places: { lat: number; lng: number }[]) {
  const owner = await tp.person('owner');
  const project = await tp.project(owner, 'Weather site');
  for (const p of places) await cameraAt(owner, project.exid, p);
  const get = (path: string) => tp.app.inject({ method: 'GET', url: `/v2/projects/${project.exid}/weather${path}`, headers: owner.auth });
  return { owner, project, get };
}

const located: EndpointSpec['setup'] = async (t, w) => {
  await t.t.db.kysely.updateTable('cameras').set({ lat: 51.5, lng: -0.12 }).where('exid', 'in', [w.cameraExid, w.otherCameraExid]).execute();
  return {};
};
const spec = (path: (w: AccessWorld) => string): EndpointSpec => ({
  method: 'GET',
  url: (w) => `/v2/projects/${w.projectExid}/weather${path(w)}`,
  otherUrl: (w) => `/v2/projects/${w.otherProjectExid}/weather${path(w)}`,
  scopes: ['project:weather'],
  role: 'viewer',
  okStatus: 200,
  setup: located,
});

describe('access (project:weather, viewer)', () => {
  it('GET …/weather', () =>
    checkEndpointAccess(
      tp,
      spec(() => `?date=${PAST}`),
    ));
  it('GET …/weather/current', () =>
    checkEndpointAccess(
      tp,
      spec(() => '/current'),
    ));
  it('GET …/weather/filters', () =>
    checkEndpointAccess(
      tp,
      spec(() => '/filters'),
    ));
});

describe('location', () => {
  it('is unknown without a camera location: 409 LOCATION_UNKNOWN, and filters say so', async () => {
    const owner = await tp.person('owner');
    const project = await tp.project(owner, 'Nowhere');
    await cameraAt(owner, project.exid);
    for (const path of [`?date=${PAST}`, '/current']) {
      const res = await tp.app.inject({ method: 'GET', url: `/v2/projects/${project.exid}/weather${path}`, headers: owner.auth });
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('LOCATION_UNKNOWN');
    }
    const filters = await tp.app.inject({ method: 'GET', url: `/v2/projects/${project.exid}/weather/filters`, headers: owner.auth });
    expect(filters.statusCode).toBe(200);
    expect(filters.json().location).toBeNull();
  });

  it('is the centre of the cameras with a location, asked of the provider', async () => {
    const s = await site({ lat: 53.0, lng: -6.0 }, { lat: 53.2, lng: -6.2 });
    const res = await s.get(`?date=2026-09-10`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().location).toEqual({ lat: 53.1, lng: -6.1, source: 'cameras_centroid', camera_count: 2 });
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe('/v1/archive');
    expect(sent.query.get('latitude')).toBe('53.1');
    expect(sent.query.get('longitude')).toBe('-6.1');
    expect(sent.query.get('timezone')).toBe('UTC');
    expect(sent.query.get('hourly')).toContain('temperature_2m');
  });
});

describe('history by day', () => {
  it('maps the provider’s hourly values and fetches a past day once', async () => {
    const s = await site({ lat: 40.1, lng: -3.1 });
    const before = fake.count('/v1/archive');
    const res = await s.get(`?date=${PAST}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.days).toHaveLength(1);
    expect(body.days[0].date).toBe(PAST);
    const hours = body.days[0].hourly;
    expect(hours).toHaveLength(24);
    expect(hours[13]).toEqual({
      hour: `${PAST}T13:00`,
      temp: fakeTemp(PAST, 13),
      feels_like: fakeTemp(PAST, 13) - 2,
      humidity: 80,
      pressure: 1013.2,
      clouds: 75,
      wind_speed: 4.5,
      wind_degree: 270,
      weather: [{ main: 'Rain', description: 'slight rain', icon: '10d' }],
      precipitation: 0.4,
      rain: 0.4,
      snow: 0,
    });
    expect(hours[2].weather[0].icon).toBe('10n');
    expect(fake.count('/v1/archive')).toBe(before + 1);

    // Cached: the same day again, from the database.
    const again = await s.get(`?date=${PAST}`);
    expect(again.json()).toEqual(body);
    expect(fake.count('/v1/archive')).toBe(before + 1);
    const row = await tp.t.db.kysely
      .selectFrom('weather_cache')
      .selectAll()
      .where('project_id', '=', await projectIdOf(s.project.exid))
      .where('key', '=', `day:40.1,-3.1:UTC:${PAST}`)
      .executeTakeFirst();
    expect(row).toBeTruthy();
  });

  it('fetches only the days of a range it does not hold yet', async () => {
    const s = await site({ lat: 41.2, lng: 2.2 });
    await s.get('?date=2026-09-01');
    const before = fake.requests.length;
    const res = await s.get('?from=2026-09-01&to=2026-09-03');
    expect(res.statusCode).toBe(200);
    expect(res.json().days.map((d: { date: string; hourly: unknown[] }) => [d.date, d.hourly.length])).toEqual([
      ['2026-09-01', 24],
      ['2026-09-02', 24],
      ['2026-09-03', 24],
    ]);
    const sent = fake.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect([sent[0]!.query.get('start_date'), sent[0]!.query.get('end_date')]).toEqual(['2026-09-02', '2026-09-03']);
    expect(res.json().days[2].hourly[0].temp).toBe(fakeTemp('2026-09-03', 0));
  });

  it('takes recent days from the forecast endpoint (the archive lags)', async () => {
    const s = await site({ lat: 48.8, lng: 2.3 });
    const before = fake.count('/v1/forecast');
    const res = await s.get(`?date=${day(-1)}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().days[0].hourly).toHaveLength(24);
    expect(fake.count('/v1/forecast')).toBe(before + 1);
    await s.get(`?date=${day(-1)}`);
    expect(fake.count('/v1/forecast')).toBe(before + 1);
  });

  it('refuses bad dates and ranges with 400', async () => {
    const s = await site({ lat: 10, lng: 10 });
    const before = fake.requests.length;
    for (const q of [
      '',
      '?date=2026-02-30',
      '?date=yesterday',
      '?date=2026-1-1',
      `?date=${day(2)}`,
      '?from=2026-09-05&to=2026-09-01',
      '?from=2026-01-01&to=2026-03-01',
      `?date=${PAST}&from=${PAST}`,
      '?from=1900-01-01&to=1900-01-02',
      '?to=2026-09-01',
      '?date=2026-09-01T00:00:00Z',
      '?foo=1',
    ]) {
      const res = await s.get(q);
      expect(res.statusCode, `${q}: ${res.body}`).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    expect(fake.requests.length).toBe(before);
  });
});

describe('current weather', () => {
  it('is fetched, then served from the cache for a few minutes', async () => {
    const s = await site({ lat: 35.6, lng: 139.7 });
    const before = fake.count('/v1/forecast');
    const res = await s.get('/current');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().current).toMatchObject({ hour: '2026-11-23T12:15', temp: 7.7, humidity: 80, weather: [{ main: 'Rain' }] });
    expect(res.json().location).toMatchObject({ lat: 35.6, lng: 139.7, source: 'camera' });
    const sent = fake.requests.at(-1)!;
    expect(sent.query.get('current')).toContain('wind_speed_10m');
    expect(sent.query.get('wind_speed_unit')).toBe('ms');
    const again = await s.get('/current');
    expect(again.json()).toEqual(res.json());
    expect(fake.count('/v1/forecast')).toBe(before + 1);
  });
});

describe('filters', () => {
  it('list the fields with units, the conditions and the date range', async () => {
    const s = await site({ lat: 1, lng: 2 });
    const res = await s.get('/filters');
    expect(res.statusCode).toBe(200);
    const f = res.json();
    expect(f.location).toEqual({ lat: 1, lng: 2, source: 'camera', camera_count: 1 });
    expect(f.date_range).toEqual({ earliest: '1940-01-01', latest: day(0), max_days: 31 });
    expect(f.fields).toContainEqual({ name: 'temp', unit: '°C', description: 'Air temperature at 2 m' });
    expect(f.fields.map((x: { name: string }) => x.name)).toEqual([
      'temp',
      'feels_like',
      'humidity',
      'pressure',
      'clouds',
      'wind_speed',
      'wind_degree',
      'precipitation',
      'rain',
      'snow',
      'weather',
    ]);
    expect(f.conditions).toContain('Snow');
  });
});

describe('time zone and deletion', () => {
  it('asks for local days in the project’s time zone', async () => {
    const owner = await tp.person('owner');
    const res = await tp.app.inject({ method: 'POST', url: '/v2/projects', headers: owner.auth, payload: { name: 'Tokyo', timezone: 'Asia/Tokyo' } });
    const project = res.json() as { exid: string; id: string };
    await cameraAt(owner, project.exid, { lat: 35.7, lng: 139.8 });
    const got = await tp.app.inject({ method: 'GET', url: `/v2/projects/${project.exid}/weather?date=${PAST}`, headers: owner.auth });
    expect(got.statusCode).toBe(200);
    expect(got.json().timezone).toBe('Asia/Tokyo');
    expect(fake.requests.at(-1)!.query.get('timezone')).toBe('Asia/Tokyo');
    const filters = await tp.app.inject({ method: 'GET', url: `/v2/projects/${project.exid}/weather/filters`, headers: owner.auth });
    expect(filters.json().date_range.latest).toBe(new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date()));
  });

  it('cached weather goes with its project', async () => {
    const s = await site({ lat: 20.5, lng: 30.5 });
    await s.get(`?date=${PAST}`);
    await s.get('/current');
    const id = await projectIdOf(s.project.exid);
    const rows = () => tp.t.db.kysely.selectFrom('weather_cache').select('key').where('project_id', '=', id).execute();
    expect(await rows()).toHaveLength(2);
    await tp.t.db.kysely.deleteFrom('projects').where('id', '=', id).execute();
    expect(await rows()).toEqual([]);
  });
});

describe('upstream failures', () => {
  it('are 502 for errors and bad bodies, 504 for no answer, and nothing is cached', async () => {
    const s = await site({ lat: 60.1, lng: 24.9 });
    try {
      fake.mode = 'error';
      let res = await s.get('?date=2026-08-01');
      expect(res.statusCode).toBe(502);
      expect(res.json()).toMatchObject({ code: 'BAD_GATEWAY' });
      expect(res.json().message).toContain('fake failure');
      fake.mode = 'garbage';
      res = await s.get('/current');
      expect(res.statusCode).toBe(502);
      fake.mode = 'hang';
      res = await s.get('/current');
      expect(res.statusCode).toBe(504);
      expect(res.json().code).toBe('GATEWAY_TIMEOUT');
    } finally {
      fake.mode = 'ok';
    }
    const res = await s.get('?date=2026-08-01');
    expect(res.statusCode).toBe(200);
    expect(res.json().days[0].hourly).toHaveLength(24);
  });

  it('is 502 when nothing listens at the provider URL', async () => {
    const closed = await buildTestPlatform({ OVERLOOK_WEATHER_URL: 'http://127.0.0.1:1' });
    try {
      const owner = await closed.person('owner');
      const project = await closed.project(owner, 'Offline');
      await closed.app.inject({
        method: 'POST',
        url: '/v2/cameras',
        headers: owner.auth,
        payload: { name: 'c', project_exid: project.exid, simulated: true, location: { lat: 1, lng: 1 } },
      });
      const res = await closed.app.inject({ method: 'GET', url: `/v2/projects/${project.exid}/weather/current`, headers: owner.auth });
      expect(res.statusCode).toBe(502);
      expect(res.json().code).toBe('BAD_GATEWAY');
    } finally {
      await closed.close();
    }
  });
});
