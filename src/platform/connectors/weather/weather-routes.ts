// The weather connectors' actions (the framework adds connect/status/disconnect): the conditions now
// and one day's history at the project's location, from the caller's own WeatherStack or AerisWeather
// account — so a project can read a paid provider instead of the built-in weather.
import { Type } from 'typebox';
import { validation } from '../../../lib/errors.js';
import { fromPathProject, scoped } from '../../access/index.js';
import { actingUserId, allowedProject } from '../../http/index.js';
import { connectorErrors } from '../framework/routes.js';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ConnectorContext } from '../framework/provider.js';
import type { WeatherApi } from './weather-provider.js';
import { projectLocation } from './project-location.js';
import { WeatherDay, WeatherNow } from './weather-record.js';

const ProjectParams = Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }) });
const DayQuery = Type.Object(
  { date: Type.String({ minLength: 10, maxLength: 10, description: 'The day, YYYY-MM-DD (the place’s local day)' }) },
  { additionalProperties: false },
);

/** A real calendar day, not after tomorrow (UTC; the place may already be a day ahead). */
function checkDay(date: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw validation('date', 'must be YYYY-MM-DD');
  const t = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== date) throw validation('date', 'is not a calendar day');
  if (t > Date.now() + 86_400_000) throw validation('date', 'is in the future: history covers past days');
  if (date < '2008-01-01') throw validation('date', 'providers keep history from 2008 on');
  return date;
}

export function weatherRoutes(fastify: FastifyInstance, ctx: ConnectorContext, api: WeatherApi): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { provider, prefix, client, tags } = ctx;
  const db = ctx.host.db;
  const read = scoped(['project:connectors'], { project: fromPathProject, role: 'viewer' });
  const where = async (projectId: string) => {
    const loc = await projectLocation(db, projectId);
    return { loc, point: { lat: loc.lat, lng: loc.lng } };
  };

  app.get(
    `${prefix}/projects/:exid/current`,
    {
      config: { access: read },
      schema: {
        tags,
        operationId: `${provider.operationPrefix}Current`,
        summary: `Weather now at the project’s location, from your ${provider.name} account`,
        params: ProjectParams,
        response: { 200: WeatherNow, ...connectorErrors() },
      },
    },
    async (req) => {
      const { project } = allowedProject(req);
      const { loc, point } = await where(project.id);
      const { place, ...reading } = await api.current(client, actingUserId(req), point);
      return { provider: provider.id, location: { lat: loc.lat, lng: loc.lng, name: place, camera_exid: loc.camera_exid }, ...reading };
    },
  );

  app.get(
    `${prefix}/projects/:exid/history`,
    {
      config: { access: read },
      schema: {
        tags,
        operationId: `${provider.operationPrefix}History`,
        summary: `One day’s weather (hourly, with minimum, maximum and mean) at the project’s location, from your ${provider.name} account`,
        params: ProjectParams,
        querystring: DayQuery,
        response: { 200: WeatherDay, ...connectorErrors() },
      },
    },
    async (req) => {
      const date = checkDay(req.query.date);
      const { project } = allowedProject(req);
      const { loc, point } = await where(project.id);
      const { place, ...day } = await api.day(client, actingUserId(req), point, date);
      return { provider: provider.id, date, location: { lat: loc.lat, lng: loc.lng, name: place, camera_exid: loc.camera_exid }, ...day };
    },
  );
}
