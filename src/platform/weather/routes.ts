import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fromPathProject, scoped } from '../access/index.js';
import { errorResponses, Nullable } from '../../lib/http/schemas.js';
import { allowedProject } from '../http/index.js';
import { defineRoutes } from '../plugins/feature.js';

const Params = Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }) });
const Day = Type.String({ maxLength: 10, description: 'YYYY-MM-DD, a local date in the project’s time zone' });
const Num = Nullable(Type.Number());
const Hour = Type.Object({
  hour: Type.String({ description: 'Local time YYYY-MM-DDTHH:mm' }),
  temp: Num,
  feels_like: Num,
  humidity: Num,
  pressure: Num,
  clouds: Num,
  wind_speed: Num,
  wind_degree: Num,
  weather: Type.Array(Type.Object({ main: Type.String(), description: Type.String(), icon: Type.String() })),
  precipitation: Num,
  rain: Num,
  snow: Num,
});
const Location = Type.Object({
  lat: Type.Number(),
  lng: Type.Number(),
  source: Type.String({ description: 'camera (the only camera with a location) or cameras_centroid' }),
  camera_count: Type.Integer(),
});
const upstream = errorResponses(409, 502, 504);

export const weatherRoutes = defineRoutes('weather-routes', ['weather'], async (fastify, { weather }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['weather'];
  const access = scoped(['project:weather'], { project: fromPathProject });

  app.get(
    '/v2/projects/:exid/weather',
    {
      config: { access },
      schema: {
        tags,
        operationId: 'getProjectWeather',
        summary: 'Hourly weather of past days at the project’s site (?date=, or ?from=&to=, at most 31 days)',
        params: Params,
        querystring: Type.Object({ date: Type.Optional(Day), from: Type.Optional(Day), to: Type.Optional(Day) }, { additionalProperties: false }),
        response: {
          200: Type.Object({
            location: Location,
            timezone: Type.String(),
            from: Type.String(),
            to: Type.String(),
            days: Type.Array(Type.Object({ date: Type.String(), hourly: Type.Array(Hour) })),
          }),
          ...upstream,
        },
      },
    },
    async (req) => weather.history(allowedProject(req).project.id, req.query),
  );

  app.get(
    '/v2/projects/:exid/weather/current',
    {
      config: { access },
      schema: {
        tags,
        operationId: 'getProjectCurrentWeather',
        summary: 'The weather now at the project’s site (kept a few minutes)',
        params: Params,
        response: { 200: Type.Object({ location: Location, timezone: Type.String(), fetched_at: Type.String(), current: Hour }), ...upstream },
      },
    },
    async (req) => weather.current(allowedProject(req).project.id),
  );

  app.get(
    '/v2/projects/:exid/weather/filters',
    {
      config: { access },
      schema: {
        tags,
        operationId: 'getProjectWeatherFilters',
        summary: 'What a client may ask for: location used, fields and units, conditions, date range',
        params: Params,
        response: {
          200: Type.Object({
            location: Type.Union([Location, Type.Null()]),
            timezone: Type.String(),
            date_range: Type.Object({ earliest: Type.String(), latest: Type.String(), max_days: Type.Integer() }),
            fields: Type.Array(Type.Object({ name: Type.String(), unit: Nullable(Type.String()), description: Type.String() })),
            conditions: Type.Array(Type.String()),
            current_cache_seconds: Type.Integer(),
          }),
          ...errorResponses(),
        },
      },
    },
    async (req) => weather.filters(allowedProject(req).project.id),
  );
});
