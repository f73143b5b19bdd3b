// Local fakes of the site connectors' providers (Voyage Control, the doorbell provider, WeatherStack,
// AerisWeather): HTTP servers on 127.0.0.1, port 0, answering the calls our clients make with the
// providers' shapes, checking credentials the way each provider does, and able to fail on demand
// (500, a hang past the client's timeout) so tests see our 502/504.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signWebhook } from '../../../src/platform/connectors/voyage-control/signed-webhook.js';

type Failure = null | 'error' | 'hang';

export interface Fake {
  url: string;
  /** Every request the fake saw: method, path, query. */
  seen: { method: string; path: string; query: URLSearchParams; headers: IncomingMessage['headers'] }[];
  /** Make the next requests fail: 500, or no answer. */
  fail: Failure;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, url: URL) => { status: number; json: unknown };

async function start(handler: Handler): Promise<Fake> {
  const fake: Fake = { url: '', seen: [], fail: null, close: async () => {} };
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    fake.seen.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers });
    if (fake.fail === 'hang') {
      hanging.add(res);
      return;
    }
    if (fake.fail === 'error') {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"internal error"}');
      return;
    }
    const { status, json } = handler(req, url);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return fake;
}

// ---- WeatherStack: access_key in the query; errors as HTTP 200 with success:false.
export const WEATHERSTACK_KEY = 'ws0123456789abcdef';
export async function fakeWeatherstack(): Promise<Fake> {
  return start((_req, url) => {
    const key = url.searchParams.get('access_key');
    if (key !== WEATHERSTACK_KEY)
      return { status: 200, json: { success: false, error: { code: 101, type: 'invalid_access_key', info: 'You have not supplied a valid API Access Key.' } } };
    const query = url.searchParams.get('query') ?? '';
    const location = { name: query === 'fetch:ip' ? 'Dublin' : `Site at ${query}`, country: 'Ireland', localtime_epoch: 1_790_000_000 };
    if (url.pathname === '/current') {
      return {
        status: 200,
        json: {
          request: { type: 'LatLon', query, unit: url.searchParams.get('units') },
          location,
          current: {
            observation_time: '09:00 AM',
            temperature: 14,
            weather_code: 116,
            weather_icons: ['https://example.test/116.png'],
            weather_descriptions: ['Partly cloudy'],
            wind_speed: 19,
            wind_degree: 240,
            wind_dir: 'WSW',
            pressure: 1012,
            precip: 0.2,
            humidity: 77,
            cloudcover: 50,
            feelslike: 12,
            uv_index: 3,
            visibility: 10,
          },
        },
      };
    }
    if (url.pathname === '/historical') {
      const date = url.searchParams.get('historical_date')!;
      const hourly = [0, 300, 600, 900, 1200, 1500, 1800, 2100].map((t, i) => ({
        time: String(t),
        temperature: 8 + i,
        wind_speed: 10 + i,
        precip: i === 4 ? 1.5 : 0,
        humidity: 80 - i,
        weather_descriptions: [i === 4 ? 'Light rain' : 'Cloudy'],
      }));
      return {
        status: 200,
        json: { location, historical: { [date]: { date, mintemp: 8, maxtemp: 15, avgtemp: 11, totalsnow: 0, sunhour: 5, uv_index: 2, hourly } } },
      };
    }
    return { status: 404, json: { success: false, error: { code: 103, type: 'invalid_api_function' } } };
  });
}

// ---- AerisWeather: client_id and client_secret in the query; `{ success, error, response }`.
export const AERIS_ID = 'aerisClientId01';
export const AERIS_SECRET = 'aerisClientSecret01';
export async function fakeAeris(): Promise<Fake> {
  return start((_req, url) => {
    if (url.searchParams.get('client_id') !== AERIS_ID || url.searchParams.get('client_secret') !== AERIS_SECRET) {
      return { status: 200, json: { success: false, error: { code: 'invalid_client', description: 'The client provided is invalid' }, response: [] } };
    }
    const place = { name: 'dublin', state: '', country: 'ie' };
    const archive = url.pathname.match(/^\/observations\/archive\/([^/]+)$/);
    if (archive) {
      const from = url.searchParams.get('from')!;
      const periods = [6, 9, 12, 15].map((h, i) => ({
        ob: {
          timestamp: 0,
          dateTimeISO: `${from}T${String(h).padStart(2, '0')}:00:00+00:00`,
          tempC: 5 + i * 2,
          humidity: 90 - i,
          windKPH: 12,
          precipMM: i === 1 ? 2 : 0.5,
          weather: 'Cloudy',
        },
      }));
      return { status: 200, json: { success: true, error: null, response: { id: archive[1], loc: {}, place, periods } } };
    }
    const obs = url.pathname.match(/^\/observations\/([^/]+)$/);
    if (obs) {
      return {
        status: 200,
        json: {
          success: true,
          error: null,
          response: {
            id: obs[1],
            loc: { lat: 53.3, long: -6.2 },
            place,
            ob: {
              timestamp: 1_790_000_000,
              dateTimeISO: '2026-09-21T10:13:20+01:00',
              tempC: 16,
              feelslikeC: 15,
              humidity: 70,
              pressureMB: 1009,
              windKPH: 22,
              windDir: 'SW',
              windDirDEG: 225,
              precipMM: 0,
              sky: 75,
              visibilityKM: 9.5,
              weather: 'Mostly Cloudy',
              icon: 'mcloudy.png',
            },
          },
        },
      };
    }
    return { status: 404, json: { success: false, error: { code: 'invalid_request', description: 'unknown endpoint' } } };
  });
}

// ---- Voyage Control: Bearer API key; a venue with bookings.
export const VOYAGE_KEY = 'vc_live_0123456789';
export const VOYAGE_VENUE = 'venue-42';
export async function fakeVoyage(): Promise<Fake> {
  const bookings = [
    {
      id: 'b1',
      reference: 'VC-1001',
      status: 'approved',
      type: 'delivery',
      company: { name: 'Acme Concrete' },
      vehicle_registration: '221-D-1234',
      vehicle_type: 'mixer',
      gate: { name: 'North gate' },
      start_time: '2026-11-20T08:00:00Z',
      end_time: '2026-11-20T09:00:00Z',
      arrived_at: null,
    },
    {
      id: 'b2',
      reference: 'VC-1002',
      status: 'arrived',
      type: 'delivery',
      company: 'Steel Ltd',
      vehicle_registration: '191-KY-77',
      vehicle_type: 'flatbed',
      gate: 'South gate',
      start_time: '2026-11-21T10:00:00Z',
      end_time: '2026-11-21T11:00:00Z',
      arrived_at: '2026-11-21T10:05:00Z',
    },
    {
      id: 'b3',
      reference: 'VC-1003',
      status: 'approved',
      type: 'collection',
      company: 'Skip Hire',
      vehicle_registration: null,
      vehicle_type: 'skip',
      gate: 'North gate',
      start_time: '2026-12-05T10:00:00Z',
      end_time: '2026-12-05T11:00:00Z',
      arrived_at: null,
    },
  ];
  return start((req, url) => {
    if (req.headers.authorization !== `Bearer ${VOYAGE_KEY}`) return { status: 401, json: { message: 'Invalid API key' } };
    if (url.pathname === '/api/v1/me')
      return {
        status: 200,
        json: { id: 'u1', name: 'Site Logistics', email: 'logistics@example.com', organisation: { id: 'o1', name: 'Main Contractor Ltd' } },
      };
    if (url.pathname === `/api/v1/venues/${VOYAGE_VENUE}`)
      return { status: 200, json: { id: VOYAGE_VENUE, name: 'Dock Road Tower', timezone: 'Europe/Dublin' } };
    if (url.pathname === `/api/v1/venues/${VOYAGE_VENUE}/bookings`) {
      const start = Date.parse(url.searchParams.get('start') ?? '');
      const end = Date.parse(url.searchParams.get('end') ?? '');
      const status = url.searchParams.get('status');
      const inRange = bookings.filter((b) => Date.parse(b.end_time) > start && Date.parse(b.start_time) < end && (!status || b.status === status));
      return { status: 200, json: { bookings: inRange, meta: { total: inRange.length } } };
    }
    return { status: 404, json: { message: 'Not found' } };
  });
}

// ---- Doorbell: HTTP Basic key:secret; an account with devices.
export const DOORBELL_KEY = 'dbkey01';
export const DOORBELL_SECRET = 'dbsecret-0123456789';
export async function fakeDoorbell(): Promise<Fake> {
  const devices = [
    { id: 'dev-gate', name: 'Main gate bell', model: 'Opener 2', online: true, location: 'Gate A' },
    { id: 'dev-office', name: 'Site office', model: 'Bell 1', online: false, location: null },
  ];
  const good = `Basic ${Buffer.from(`${DOORBELL_KEY}:${DOORBELL_SECRET}`).toString('base64')}`;
  return start((req, url) => {
    if (req.headers.authorization !== good) return { status: 401, json: { message: 'bad credentials' } };
    if (url.pathname === '/v1/account') return { status: 200, json: { id: 'acct-1', name: 'Builder Co', email: 'ops@builder.example' } };
    if (url.pathname === '/v1/devices') return { status: 200, json: { devices } };
    const one = url.pathname.match(/^\/v1\/devices\/([^/]+)$/);
    const d = one && devices.find((x) => x.id === one[1]);
    if (d) return { status: 200, json: d };
    return { status: 404, json: { message: 'No such device' } };
  });
}

/** Headers a provider sends with a signed webhook. */
export function signedHeaders(prefix: 'voyage' | 'doorbell', secret: string, body: string, at = Math.floor(Date.now() / 1000)): Record<string, string> {
  return { 'content-type': 'application/json', [`x-${prefix}-timestamp`]: String(at), [`x-${prefix}-signature`]: signWebhook(secret, String(at), body) };
}
