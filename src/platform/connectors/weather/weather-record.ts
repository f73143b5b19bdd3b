// The one shape both paid weather providers' answers are turned into, so a client switching from the
// built-in weather to WeatherStack or AerisWeather reads the same fields.
import { Type, type Static } from 'typebox';
import { Nullable } from '../../../lib/http/schemas.js';

const N = () => Nullable(Type.Number());
const S = () => Nullable(Type.String());

const WeatherLocation = Type.Object({
  lat: Type.Number(),
  lng: Type.Number(),
  name: S(),
  camera_exid: Type.String({ description: 'The camera whose position is the project’s location' }),
});

export const WeatherNow = Type.Object({
  provider: Type.String(),
  location: WeatherLocation,
  observed_at: S(),
  temperature_c: N(),
  feels_like_c: N(),
  humidity: N(),
  pressure_mb: N(),
  wind_speed_kph: N(),
  wind_direction_deg: N(),
  wind_direction: S(),
  precipitation_mm: N(),
  cloud_cover: N(),
  visibility_km: N(),
  description: S(),
  icon: S(),
});
export type WeatherNow = Static<typeof WeatherNow>;

export const WeatherHour = Type.Object({
  time: Type.String({ description: 'Local time of the observation, HH:MM, or an ISO timestamp when the provider gives one' }),
  temperature_c: N(),
  humidity: N(),
  wind_speed_kph: N(),
  precipitation_mm: N(),
  description: S(),
});
export type WeatherHour = Static<typeof WeatherHour>;

export const WeatherDay = Type.Object({
  provider: Type.String(),
  date: Type.String({ format: 'date' }),
  location: WeatherLocation,
  min_temp_c: N(),
  max_temp_c: N(),
  avg_temp_c: N(),
  total_precipitation_mm: N(),
  hours: Type.Array(WeatherHour),
});
export type WeatherDay = Static<typeof WeatherDay>;

type Reading = Omit<WeatherNow, 'provider' | 'location'>;
export type WeatherReading = Reading;
export type DayReading = Omit<WeatherDay, 'provider' | 'location' | 'date'>;

/** Min, max and mean of the hours' temperatures and the sum of their precipitation, for providers that give no daily summary. */
export function summarise(hours: WeatherHour[]): Omit<DayReading, 'hours'> {
  const temps = hours.map((h) => h.temperature_c).filter((t): t is number => t !== null);
  const precip = hours.map((h) => h.precipitation_mm).filter((p): p is number => p !== null);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    min_temp_c: temps.length ? Math.min(...temps) : null,
    max_temp_c: temps.length ? Math.max(...temps) : null,
    avg_temp_c: temps.length ? round(temps.reduce((a, b) => a + b, 0) / temps.length) : null,
    total_precipitation_mm: precip.length ? round(precip.reduce((a, b) => a + b, 0)) : null,
  };
}
