// The weather provider over HTTP, in Open-Meteo's API shape: `/v1/forecast` (current conditions and the
// recent past) and `/v1/archive` (history). Values come back in the units we ask for (°C, %, hPa, m/s,
// mm, cm) and are mapped to the hourly shape the API answers with. Upstream trouble becomes 502/504.
import { ApiError } from '../../lib/errors.js';
import { conditionsOf, type WeatherCondition } from './weather-codes.js';

export interface WeatherHour {
  /** Local time of the hour in the project's time zone, `YYYY-MM-DDTHH:mm`. */
  hour: string;
  temp: number | null;
  feels_like: number | null;
  humidity: number | null;
  pressure: number | null;
  clouds: number | null;
  wind_speed: number | null;
  wind_degree: number | null;
  weather: WeatherCondition[];
  precipitation: number | null;
  rain: number | null;
  snow: number | null;
}

const HOURLY_VARIABLES = [
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
] as const;

type Series = Partial<Record<(typeof HOURLY_VARIABLES)[number] | 'time', unknown>>;

export interface Place {
  lat: number;
  lng: number;
  timezone: string;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function hourOf(values: Series, at: (v: unknown) => unknown): WeatherHour {
  const get = (name: keyof Series) => num(at(values[name]));
  return {
    hour: String(at(values.time)),
    temp: get('temperature_2m'),
    feels_like: get('apparent_temperature'),
    humidity: get('relative_humidity_2m'),
    pressure: get('pressure_msl'),
    clouds: get('cloud_cover'),
    wind_speed: get('wind_speed_10m'),
    wind_degree: get('wind_direction_10m'),
    weather: conditionsOf(get('weather_code'), get('is_day')),
    precipitation: get('precipitation'),
    rain: get('rain'),
    snow: get('snowfall'),
  };
}

export class OpenMeteoClient {
  constructor(private readonly opts: { forecastUrl: string; archiveUrl: string; timeoutMs: number }) {}

  /** Every hour of the days `start`..`end` (local dates), from the archive or the forecast endpoint. */
  async hours(source: 'archive' | 'forecast', place: Place, start: string, end: string): Promise<WeatherHour[]> {
    const body = await this.get(source === 'archive' ? this.opts.archiveUrl : this.opts.forecastUrl, source === 'archive' ? '/v1/archive' : '/v1/forecast', {
      ...this.common(place),
      start_date: start,
      end_date: end,
      hourly: HOURLY_VARIABLES.join(','),
    });
    const hourly = body.hourly as Series | undefined;
    if (!hourly || !Array.isArray(hourly.time)) throw new ApiError('BAD_GATEWAY', 'The weather provider answered without hourly values');
    return (hourly.time as unknown[]).map((_, i) => hourOf(hourly, (v) => (Array.isArray(v) ? v[i] : undefined)));
  }

  /** The conditions now (the provider's latest 15-minute values). */
  async current(place: Place): Promise<WeatherHour> {
    const body = await this.get(this.opts.forecastUrl, '/v1/forecast', { ...this.common(place), current: HOURLY_VARIABLES.join(',') });
    const current = body.current as Series | undefined;
    if (!current || typeof current.time !== 'string') throw new ApiError('BAD_GATEWAY', 'The weather provider answered without current values');
    return hourOf(current, (v) => v);
  }

  private common(place: Place): Record<string, string> {
    return {
      latitude: String(place.lat),
      longitude: String(place.lng),
      timezone: place.timezone,
      temperature_unit: 'celsius',
      wind_speed_unit: 'ms',
      precipitation_unit: 'mm',
    };
  }

  private async get(base: string, path: string, query: Record<string, string>): Promise<Record<string, unknown>> {
    // The base may carry a path of its own (a proxy, a fake in tests): the endpoint goes after it.
    const url = new URL(`${base.replace(/\/+$/, '')}${path}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(this.opts.timeoutMs), headers: { accept: 'application/json' } });
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new ApiError('GATEWAY_TIMEOUT', `The weather provider did not answer within ${this.opts.timeoutMs} ms`);
      throw new ApiError('BAD_GATEWAY', `The weather provider could not be reached: ${(err as Error).message}`);
    }
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      throw new ApiError('BAD_GATEWAY', `The weather provider answered ${res.status} without JSON`);
    }
    if (!res.ok) {
      const reason = (body as { reason?: unknown } | null)?.reason;
      throw new ApiError('BAD_GATEWAY', `The weather provider answered ${res.status}${typeof reason === 'string' ? `: ${reason}` : ''}`);
    }
    if (!body || typeof body !== 'object') throw new ApiError('BAD_GATEWAY', 'The weather provider answered with an unexpected body');
    return body as Record<string, unknown>;
  }
}
