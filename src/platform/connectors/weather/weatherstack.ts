// WeatherStack (weatherstack.com), connected with an access key: `GET /current` and `GET /historical`
// with `access_key`, `query=lat,lng` and metric units. Errors come as HTTP 200 with
// `{ success: false, error: { code, type, info } }`: 101 (invalid or missing key) and 102 (inactive
// account) mean the key is refused — at connect a 400, afterwards 502 CONNECTOR_AUTH_EXPIRED.
import { Type } from 'typebox';
import { ApiError } from '../../../lib/errors.js';
import type { ProviderClient } from '../framework/provider-client.js';
import type { ConnectorProvider } from '../framework/provider.js';
import { isObject, num, str, type Point, type WeatherApi } from './weather-provider.js';
import { summarise, type WeatherHour } from './weather-record.js';
import { weatherRoutes } from './weather-routes.js';

const NAME = 'WeatherStack';
const REFUSED_KEY = new Set([101, 102]);

const firstString = (v: unknown): string | null => (Array.isArray(v) && typeof v[0] === 'string' ? v[0] : null);
/** `"0"`, `"300"`, `"1500"` (WeatherStack's hourly `time`) as `HH:MM`. */
const hhmm = (v: unknown): string => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 2400) return String(v ?? '');
  return `${String(Math.floor(n / 100)).padStart(2, '0')}:${String(n % 100).padStart(2, '0')}`;
};

async function call(client: ProviderClient, userId: string, path: string, query: Record<string, string>): Promise<Record<string, unknown>> {
  const body = await client.request<unknown>(userId, { path, query: { units: 'm', ...query } });
  if (isObject(body) && body.success === false) {
    const err = isObject(body.error) ? body.error : {};
    const code = num(err.code);
    if (code !== null && REFUSED_KEY.has(code))
      throw new ApiError('CONNECTOR_AUTH_EXPIRED', `${NAME} refused the access key (${str(err.type) ?? code}): connect again`);
    throw new ApiError('BAD_GATEWAY', `${NAME} refused the request: ${str(err.info) ?? str(err.type) ?? 'unknown error'}`);
  }
  if (!isObject(body)) throw new ApiError('BAD_GATEWAY', `${NAME} answered an unexpected body`);
  return body;
}

const at = (p: Point) => `${p.lat},${p.lng}`;

const weatherstackApi: WeatherApi = {
  async current(client, userId, p) {
    const body = await call(client, userId, 'current', { query: at(p) });
    const cur = body.current;
    if (!isObject(cur)) throw new ApiError('BAD_GATEWAY', `${NAME} answered no current conditions`);
    const loc = isObject(body.location) ? body.location : {};
    const epoch = num(loc.localtime_epoch);
    return {
      place: str(loc.name),
      observed_at: epoch !== null ? new Date(epoch * 1000).toISOString() : null,
      temperature_c: num(cur.temperature),
      feels_like_c: num(cur.feelslike),
      humidity: num(cur.humidity),
      pressure_mb: num(cur.pressure),
      wind_speed_kph: num(cur.wind_speed),
      wind_direction_deg: num(cur.wind_degree),
      wind_direction: str(cur.wind_dir),
      precipitation_mm: num(cur.precip),
      cloud_cover: num(cur.cloudcover),
      visibility_km: num(cur.visibility),
      description: firstString(cur.weather_descriptions),
      icon: firstString(cur.weather_icons),
    };
  },

  async day(client, userId, p, date) {
    const body = await call(client, userId, 'historical', { query: at(p), historical_date: date, hourly: '1', interval: '1' });
    const hist = isObject(body.historical) ? body.historical[date] : undefined;
    if (!isObject(hist)) throw new ApiError('BAD_GATEWAY', `${NAME} answered no history for ${date}`);
    const hours: WeatherHour[] = (Array.isArray(hist.hourly) ? hist.hourly : []).filter(isObject).map((h) => ({
      time: hhmm(h.time),
      temperature_c: num(h.temperature),
      humidity: num(h.humidity),
      wind_speed_kph: num(h.wind_speed),
      precipitation_mm: num(h.precip),
      description: firstString(h.weather_descriptions),
    }));
    const fromHours = summarise(hours);
    const loc = isObject(body.location) ? body.location : {};
    return {
      place: str(loc.name),
      min_temp_c: num(hist.mintemp) ?? fromHours.min_temp_c,
      max_temp_c: num(hist.maxtemp) ?? fromHours.max_temp_c,
      avg_temp_c: num(hist.avgtemp) ?? fromHours.avg_temp_c,
      total_precipitation_mm: fromHours.total_precipitation_mm,
      hours,
    };
  },
};

export const weatherstackProvider: ConnectorProvider = {
  id: 'weatherstack',
  name: NAME,
  operationPrefix: 'weatherstack',
  authKind: 'credentials',
  defaultUrls: { api: 'https://api.weatherstack.com' },
  credentialsSchema: Type.Object(
    { access_key: Type.String({ minLength: 8, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$', description: 'The WeatherStack API access key' }) },
    { additionalProperties: false },
  ),
  credentialAuth: (c) => ({ query: { access_key: c.access_key ?? '' } }),
  // One cheap authenticated call proves the key. `fetch:ip` is WeatherStack's own "where the request
  // comes from": no project location is needed to check a key.
  async describeAccount(client, userId) {
    const body = await call(client, userId, 'current', { query: 'fetch:ip' });
    const loc = isObject(body.location) ? body.location : {};
    return { checked_at: new Date().toISOString(), checked_location: str(loc.name) };
  },
  routes: (app, ctx) => weatherRoutes(app, ctx, weatherstackApi),
};
