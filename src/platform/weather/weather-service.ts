// Weather at a project's site: where the site is (from its cameras, since projects carry no location),
// history by day, current conditions and the filters a client can apply. Fetched days are kept in the
// database (per project, so they go with it) and a past day is asked of the provider once; today and
// the current conditions are kept a few minutes (OVERLOOK_WEATHER_CURRENT_TTL_SECONDS).
import type { PlatformConfig } from '../../lib/config.js';
import type { PlatformDb } from '../database.js';
import { ApiError, validation } from '../../lib/errors.js';
import { isTimeZone } from '../../lib/time-zone.js';
import { OpenMeteoClient, type Place, type WeatherHour } from './open-meteo-client.js';
import * as repo from './weather-repository.js';
import { cameraPositionsOf } from '../cameras/index.js';
import { projectRowById } from '../projects/index.js';

/** Where the weather is taken: the cameras' positions, rounded to ~100 m so nearby cameras share a cache. */
export interface WeatherLocation {
  lat: number;
  lng: number;
  /** `camera`: the only camera with a location; `cameras_centroid`: the centre of several. */
  source: 'camera' | 'cameras_centroid';
  camera_count: number;
}

interface WeatherDay {
  date: string;
  hourly: WeatherHour[];
}

/** The archive covers days up to about five days ago; the forecast endpoint serves the recent past. */
const ARCHIVE_LAG_DAYS = 6;
/** Open-Meteo's archive starts in 1940. */
const EARLIEST_DAY = '1940-01-01';
const MAX_RANGE_DAYS = 31;

const WEATHER_FIELDS = [
  { name: 'temp', unit: '°C', description: 'Air temperature at 2 m' },
  { name: 'feels_like', unit: '°C', description: 'Apparent temperature' },
  { name: 'humidity', unit: '%', description: 'Relative humidity at 2 m' },
  { name: 'pressure', unit: 'hPa', description: 'Pressure at mean sea level' },
  { name: 'clouds', unit: '%', description: 'Total cloud cover' },
  { name: 'wind_speed', unit: 'm/s', description: 'Wind speed at 10 m' },
  { name: 'wind_degree', unit: '°', description: 'Wind direction at 10 m (where it comes from)' },
  { name: 'precipitation', unit: 'mm', description: 'Total precipitation (rain, showers, snow) in the preceding hour' },
  { name: 'rain', unit: 'mm', description: 'Rain in the preceding hour' },
  { name: 'snow', unit: 'cm', description: 'Snowfall in the preceding hour' },
  { name: 'weather', unit: null, description: 'Conditions: [{main, description, icon}]' },
] as const;
const WEATHER_CONDITIONS = ['Clear', 'Clouds', 'Fog', 'Drizzle', 'Rain', 'Snow', 'Thunderstorm'] as const;

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date `YYYY-MM-DD` that really exists (no 2026-02-30), or a 400 naming the field. */
function parseDay(field: string, value: string): string {
  const d = new Date(`${value}T00:00:00Z`);
  if (!DAY_RE.test(value) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value)
    throw validation(field, `expected a date YYYY-MM-DD, got ${JSON.stringify(value)}`);
  return value;
}

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** Today's date where the project is. */
const localToday = (timezone: string, now = new Date()) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);

export class WeatherService {
  private readonly client: OpenMeteoClient;

  constructor(
    private readonly db: PlatformDb,
    private readonly config: Pick<PlatformConfig, 'weatherUrl' | 'weatherArchiveUrl' | 'weatherTimeoutMs' | 'weatherCurrentTtlSeconds'>,
  ) {
    this.client = new OpenMeteoClient({ forecastUrl: config.weatherUrl, archiveUrl: config.weatherArchiveUrl, timeoutMs: config.weatherTimeoutMs });
  }

  /** The site's location from its cameras, or null when none of them has one. */
  async locationOf(projectId: string): Promise<WeatherLocation | null> {
    const rows = await cameraPositionsOf(this.db, projectId);
    if (rows.length === 0) return null;
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const round = (v: number) => Math.round(v * 1000) / 1000;
    return {
      lat: round(avg(rows.map((r) => Number(r.lat)))),
      lng: round(avg(rows.map((r) => Number(r.lng)))),
      source: rows.length === 1 ? 'camera' : 'cameras_centroid',
      camera_count: rows.length,
    };
  }

  private async place(projectId: string): Promise<{ location: WeatherLocation; timezone: string }> {
    const location = await this.locationOf(projectId);
    if (!location)
      throw new ApiError('LOCATION_UNKNOWN', 'The project has no location: give one of its cameras a location (lat, lng) to get weather', {
        details: { reason: 'no_camera_location' },
      });
    return { location, timezone: await this.timezoneOf(projectId) };
  }

  private async timezoneOf(projectId: string): Promise<string> {
    const tz = (await projectRowById(this.db, projectId))?.timezone;
    // A zone the runtime does not know would make every date computation throw: fall back to UTC.
    return tz && isTimeZone(tz) ? tz : 'UTC';
  }

  /** Hourly values of each day from `from` to `to` (local dates, inclusive). */
  async history(projectId: string, query: { date?: string; from?: string; to?: string }, now = new Date()) {
    let from: string;
    let to: string;
    if (query.date !== undefined) {
      if (query.from !== undefined || query.to !== undefined) throw validation('date', 'give either date or from/to, not both');
      from = to = parseDay('date', query.date);
    } else {
      if (query.from === undefined) throw validation('date', 'give date=YYYY-MM-DD, or from and to');
      from = parseDay('from', query.from);
      to = query.to === undefined ? from : parseDay('to', query.to);
    }
    if (to < from) throw validation('to', 'must not be before from');
    if (from < EARLIEST_DAY) throw validation('from', `history starts on ${EARLIEST_DAY}`);
    const { location, timezone } = await this.place(projectId);
    const today = localToday(timezone, now);
    if (to > today) throw validation(query.date !== undefined ? 'date' : 'to', `history ends today (${today} in ${timezone}); use /weather/current for now`);
    const days: string[] = [];
    for (let d = from; d <= to; d = addDays(d, 1)) {
      days.push(d);
      if (days.length > MAX_RANGE_DAYS) throw validation('to', `at most ${MAX_RANGE_DAYS} days at once`);
    }

    const place: Place = { lat: location.lat, lng: location.lng, timezone };
    const keyOf = (day: string) => `day:${place.lat},${place.lng}:${timezone}:${day}`;
    const rows = await repo.cached(this.db, projectId, days.map(keyOf));
    const found = new Map<string, WeatherHour[]>();
    const fresh = now.getTime() - this.config.weatherCurrentTtlSeconds * 1000;
    for (const r of rows) {
      const day = r.key.slice(-10);
      // A past day never changes; today's hours are still coming in, so they are kept only briefly.
      if (day < today || Date.parse(r.fetched_at) >= fresh) found.set(day, JSON.parse(r.payload) as WeatherHour[]);
    }

    const missing = days.filter((d) => !found.has(d));
    const archiveUntil = addDays(today, -ARCHIVE_LAG_DAYS);
    for (const [source, group] of [
      ['archive', missing.filter((d) => d <= archiveUntil)],
      ['forecast', missing.filter((d) => d > archiveUntil)],
    ] as const) {
      if (group.length === 0) continue;
      // One request per source, spanning the group (a gap of cached days in between is simply refreshed).
      const hours = await this.client.hours(source, place, group[0]!, group[group.length - 1]!);
      const byDay = new Map<string, WeatherHour[]>();
      for (const h of hours) {
        const day = h.hour.slice(0, 10);
        if (!byDay.has(day)) byDay.set(day, []);
        byDay.get(day)!.push(h);
      }
      const fetchedAt = now.toISOString();
      for (const [day, list] of byDay) {
        if (day < group[0]! || day > group[group.length - 1]!) continue;
        await repo.store(this.db, projectId, keyOf(day), list, fetchedAt);
        found.set(day, list);
      }
    }
    return { location, timezone, from, to, days: days.map((date): WeatherDay => ({ date, hourly: found.get(date) ?? [] })) };
  }

  /** The conditions now, kept a few minutes. */
  async current(projectId: string, now = new Date()) {
    const { location, timezone } = await this.place(projectId);
    const key = `current:${location.lat},${location.lng}:${timezone}`;
    const [row] = await repo.cached(this.db, projectId, [key]);
    if (row && Date.parse(row.fetched_at) >= now.getTime() - this.config.weatherCurrentTtlSeconds * 1000) {
      return { location, timezone, fetched_at: row.fetched_at, current: JSON.parse(row.payload) as WeatherHour };
    }
    const current = await this.client.current({ lat: location.lat, lng: location.lng, timezone });
    const fetchedAt = now.toISOString();
    await repo.store(this.db, projectId, key, current, fetchedAt);
    return { location, timezone, fetched_at: fetchedAt, current };
  }

  /** What a client may ask for: the location used (or null), the fields and units, the date range. */
  async filters(projectId: string, now = new Date()) {
    const timezone = await this.timezoneOf(projectId);
    const today = localToday(timezone, now);
    return {
      location: await this.locationOf(projectId),
      timezone,
      date_range: { earliest: EARLIEST_DAY, latest: today, max_days: MAX_RANGE_DAYS },
      fields: WEATHER_FIELDS.map((f) => ({ ...f })),
      conditions: [...WEATHER_CONDITIONS],
      current_cache_seconds: this.config.weatherCurrentTtlSeconds,
    };
  }
}
