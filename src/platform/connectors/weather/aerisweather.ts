// AerisWeather (Xweather), connected with a client id and secret: `GET /observations/{lat},{lng}` and
// `GET /observations/archive/{lat},{lng}` with `client_id` and `client_secret` in the query. Answers are
// `{ success, error: { code, description }, response }`; `invalid_client` / `unauthorized_client`
// (HTTP 200 or 401) mean the credentials are refused.
import { Type } from 'typebox';
import { ApiError } from '../../../lib/errors.js';
import type { ProviderClient } from '../framework/provider-client.js';
import type { ConnectorProvider } from '../framework/provider.js';
import { isObject, num, str, type WeatherApi } from './weather-provider.js';
import { summarise, type WeatherHour } from './weather-record.js';
import { weatherRoutes } from './weather-routes.js';

const NAME = 'AerisWeather';
const REFUSED = new Set(['invalid_client', 'unauthorized_client', 'unauthorized_namespace']);

const placeName = (r: Record<string, unknown>): string | null => {
  const p = isObject(r.place) ? r.place : null;
  return p ? [str(p.name), str(p.state), str(p.country)].filter(Boolean).join(', ') || null : null;
};

/** The local wall-clock `HH:MM` of Aeris' `dateTimeISO` (which carries the place's offset). */
const localTime = (iso: string | null): string => iso?.match(/T(\d\d:\d\d)/)?.[1] ?? iso ?? '';

async function call(client: ProviderClient, userId: string, path: string, query: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const body = await client.request<unknown>(userId, { path, query });
  const err = isObject(body) && isObject(body.error) ? body.error : null;
  const code = err ? str(err.code) : null;
  if (code && REFUSED.has(code)) throw new ApiError('CONNECTOR_AUTH_EXPIRED', `${NAME} refused the client id or secret (${code}): connect again`);
  if (!isObject(body)) throw new ApiError('BAD_GATEWAY', `${NAME} answered an unexpected body`);
  if (body.success !== true) throw new ApiError('BAD_GATEWAY', `${NAME} refused the request: ${(err && str(err.description)) ?? code ?? 'unknown error'}`);
  // Some endpoints answer a list of one place, others the place itself.
  const resp = Array.isArray(body.response) ? body.response[0] : body.response;
  if (!isObject(resp)) throw new ApiError('BAD_GATEWAY', `${NAME} answered no data for this place`);
  return resp;
}

const aerisweatherApi: WeatherApi = {
  async current(client, userId, p) {
    const resp = await call(client, userId, `observations/${p.lat},${p.lng}`);
    if (!isObject(resp.ob)) throw new ApiError('BAD_GATEWAY', `${NAME} answered no observation`);
    const ob = resp.ob;
    const ts = num(ob.timestamp);
    return {
      place: placeName(resp),
      observed_at: ts !== null ? new Date(ts * 1000).toISOString() : str(ob.dateTimeISO),
      temperature_c: num(ob.tempC),
      feels_like_c: num(ob.feelslikeC),
      humidity: num(ob.humidity),
      pressure_mb: num(ob.pressureMB),
      wind_speed_kph: num(ob.windKPH),
      wind_direction_deg: num(ob.windDirDEG),
      wind_direction: str(ob.windDir),
      precipitation_mm: num(ob.precipMM),
      cloud_cover: num(ob.sky),
      visibility_km: num(ob.visibilityKM),
      description: str(ob.weather),
      icon: str(ob.icon),
    };
  },

  async day(client, userId, p, date) {
    const resp = await call(client, userId, `observations/archive/${p.lat},${p.lng}`, { from: date, to: `${date} 23:59:59`, limit: '100' });
    const periods = Array.isArray(resp.periods) ? resp.periods : [];
    const hours: WeatherHour[] = periods
      .filter(isObject)
      .map((period) => (isObject(period.ob) ? period.ob : {}))
      .map((ob) => ({
        time: localTime(str(ob.dateTimeISO)),
        temperature_c: num(ob.tempC),
        humidity: num(ob.humidity),
        wind_speed_kph: num(ob.windKPH),
        precipitation_mm: num(ob.precipMM),
        description: str(ob.weather),
      }));
    return { place: placeName(resp), ...summarise(hours), hours };
  },
};

const Credential = (description: string) => Type.String({ minLength: 8, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$', description });

export const aerisweatherProvider: ConnectorProvider = {
  id: 'aerisweather',
  name: NAME,
  operationPrefix: 'aerisweather',
  authKind: 'credentials',
  defaultUrls: { api: 'https://api.aerisapi.com' },
  credentialsSchema: Type.Object(
    { client_id: Credential('The AerisWeather client id'), client_secret: Credential('The AerisWeather client secret') },
    { additionalProperties: false },
  ),
  credentialAuth: (c) => ({ query: { client_id: c.client_id ?? '', client_secret: c.client_secret ?? '' } }),
  // `:auto` is Aeris' own "where the request comes from": any place proves the credentials.
  async describeAccount(client, userId) {
    const resp = await call(client, userId, 'observations/:auto');
    return { checked_at: new Date().toISOString(), checked_location: placeName(resp) };
  },
  routes: (app, ctx) => weatherRoutes(app, ctx, aerisweatherApi),
};
