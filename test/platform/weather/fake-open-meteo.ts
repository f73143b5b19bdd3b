// A local stand-in for Open-Meteo's forecast and archive endpoints: deterministic hourly values derived
// from the date and hour, a request log (to prove the cache), and switchable failures.
import { createServer, type Server } from 'node:http';

export interface FakeWeather {
  url: string;
  requests: { path: string; query: URLSearchParams }[];
  /** ok: answer; error: HTTP 500; hang: never answer; garbage: 200 with HTML. */
  mode: 'ok' | 'error' | 'hang' | 'garbage';
  count(path: string): number;
  close(): Promise<void>;
}

/** The fake's temperature at a local hour: day of month + hour / 100 (e.g. 1.13 on the 1st at 13:00). */
export const fakeTemp = (day: string, hour: number) => Number(day.slice(8, 10)) + hour / 100;

const VARS = [
  'temperature_2m',
  'apparent_temperature',
  'relative_humidity_2m',
  'pressure_msl',
  'cloud_cover',
  'wind_speed_10m',
  'wind_direction_10m',
  'precipitation',
  'rain',
  'snowfall',
  'weather_code',
  'is_day',
];

function valuesAt(day: string, hour: number): Record<string, number> {
  return {
    temperature_2m: fakeTemp(day, hour),
    apparent_temperature: fakeTemp(day, hour) - 2,
    relative_humidity_2m: 80,
    pressure_msl: 1013.2,
    cloud_cover: 75,
    wind_speed_10m: 4.5,
    wind_direction_10m: 270,
    precipitation: 0.4,
    rain: 0.4,
    snowfall: 0,
    weather_code: 61,
    is_day: hour >= 7 && hour < 18 ? 1 : 0,
  };
}

export async function startFakeOpenMeteo(): Promise<FakeWeather> {
  const hanging = new Set<import('node:http').ServerResponse>();
  const fake: FakeWeather = {
    url: '',
    requests: [],
    mode: 'ok',
    count: (path) => fake.requests.filter((r) => r.path === path).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    fake.requests.push({ path: url.pathname, query: url.searchParams });
    if (fake.mode === 'hang') return void hanging.add(res);
    if (fake.mode === 'error')
      return void res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: true, reason: 'fake failure' }));
    if (fake.mode === 'garbage') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>oops</html>');
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname !== '/v1/forecast' && url.pathname !== '/v1/archive') return send(404, { error: true, reason: 'no such path' });
    const q = url.searchParams;
    if (!q.get('latitude') || !q.get('longitude')) return send(400, { error: true, reason: 'latitude and longitude are required' });
    const base = { latitude: Number(q.get('latitude')), longitude: Number(q.get('longitude')), timezone: q.get('timezone') };
    if (q.get('current')) {
      const v = valuesAt('2026-11-23', 12);
      return send(200, { ...base, current: { time: '2026-11-23T12:15', interval: 900, ...v, temperature_2m: 7.7 } });
    }
    const start = q.get('start_date');
    const end = q.get('end_date');
    if (!start || !end || !q.get('hourly')) return send(400, { error: true, reason: 'start_date, end_date and hourly are required' });
    const hourly: Record<string, unknown[]> = { time: [] };
    for (const v of VARS) hourly[v] = [];
    for (let d = start; d <= end; d = new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)) {
      for (let h = 0; h < 24; h++) {
        hourly.time!.push(`${d}T${String(h).padStart(2, '0')}:00`);
        const v = valuesAt(d, h);
        for (const name of VARS) hourly[name]!.push(v[name]);
      }
    }
    return send(200, { ...base, hourly });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address() as { port: number };
  fake.url = `http://127.0.0.1:${addr.port}`;
  return fake;
}
