// WMO weather interpretation codes (what Open-Meteo returns as `weather_code`) turned into the
// `{main, description, icon}` entries clients of Evercam-like platforms expect (OpenWeather-style icons).

export interface WeatherCondition {
  main: string;
  description: string;
  icon: string;
}

const CODES: Record<number, [main: string, description: string, icon: string]> = {
  0: ['Clear', 'clear sky', '01'],
  1: ['Clear', 'mainly clear', '02'],
  2: ['Clouds', 'partly cloudy', '03'],
  3: ['Clouds', 'overcast', '04'],
  45: ['Fog', 'fog', '50'],
  48: ['Fog', 'depositing rime fog', '50'],
  51: ['Drizzle', 'light drizzle', '09'],
  53: ['Drizzle', 'moderate drizzle', '09'],
  55: ['Drizzle', 'dense drizzle', '09'],
  56: ['Drizzle', 'light freezing drizzle', '09'],
  57: ['Drizzle', 'dense freezing drizzle', '09'],
  61: ['Rain', 'slight rain', '10'],
  63: ['Rain', 'moderate rain', '10'],
  65: ['Rain', 'heavy rain', '10'],
  66: ['Rain', 'light freezing rain', '13'],
  67: ['Rain', 'heavy freezing rain', '13'],
  71: ['Snow', 'slight snow fall', '13'],
  73: ['Snow', 'moderate snow fall', '13'],
  75: ['Snow', 'heavy snow fall', '13'],
  77: ['Snow', 'snow grains', '13'],
  80: ['Rain', 'slight rain showers', '09'],
  81: ['Rain', 'moderate rain showers', '09'],
  82: ['Rain', 'violent rain showers', '09'],
  85: ['Snow', 'slight snow showers', '13'],
  86: ['Snow', 'heavy snow showers', '13'],
  95: ['Thunderstorm', 'thunderstorm', '11'],
  96: ['Thunderstorm', 'thunderstorm with slight hail', '11'],
  99: ['Thunderstorm', 'thunderstorm with heavy hail', '11'],
};

/** The condition of a WMO code; an unknown or missing code gives an empty list rather than a guess. */
export function conditionsOf(code: number | null | undefined, isDay: number | null | undefined): WeatherCondition[] {
  if (code === null || code === undefined) return [];
  const c = CODES[code];
  if (!c) return [];
  return [{ main: c[0], description: c[1], icon: `${c[2]}${isDay === 0 ? 'n' : 'd'}` }];
}
