// The gate report in the AI API (docs/plates.md, Gate report): a day's or a range's report of a
// project's gates, as JSON or CSV, read from the main API with the caller's JWT.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { validation } from '../../lib/errors.js';
import { errorResponses } from '../../lib/http/schemas.js';
import { bearerToken } from '../../lib/auth/bearer.js';
import { isTimeZone } from '../../lib/time-zone.js';
import { instantOrFail } from '../../lib/time/read-time.js';
import { reportCsv } from './csv.js';
import { localMidnight } from './local-time.js';
import { MainApi } from './main-api.js';
import { buildReport } from './report.js';
import { GateReportSchema } from './report-schema.js';

/** Reads this long before the range are fetched too, so an exit early in it finds its entry. */
const LOOKBACK_MS = 24 * 3_600_000;
const MAX_RANGE_MS = 31 * 86_400_000;

const Params = Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }) });
const RangeQuery = Type.Object(
  {
    from: Type.String({ maxLength: 40, description: 'ISO 8601, inclusive' }),
    to: Type.String({ maxLength: 40, description: 'ISO 8601, exclusive; at most 31 days after from' }),
    time_zone: Type.Optional(Type.String({ maxLength: 64, description: 'IANA zone for hours and days; default the project’s' })),
  },
  { additionalProperties: false },
);
const DayParams = Type.Object({ exid: Params.properties.exid, date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' }) });
const DayQuery = Type.Object(
  { time_zone: Type.Optional(Type.String({ maxLength: 64, description: 'IANA zone of the day; default the project’s' })) },
  { additionalProperties: false },
);

/** The JWT the request was authenticated with (the service's hook has checked it). */
function tokenOf(req: FastifyRequest): string {
  const auth = req.headers.authorization;
  return (auth ? bearerToken(auth) : undefined) ?? String(req.headers['x-api-key'] ?? '').trim();
}

async function report(apiUrl: string, req: FastifyRequest, exid: string, range: (timeZone: string) => { from: number; to: number }, zone?: string) {
  if (zone !== undefined && !isTimeZone(zone)) throw validation('time_zone', `${zone} is not an IANA time zone`);
  const api = new MainApi(apiUrl, tokenOf(req));
  const project = await api.project(exid);
  const timeZone = zone ?? project.timezone;
  const { from, to } = range(timeZone);
  const [cameras, roles, labels, corrections] = await Promise.all([api.cameras(exid), api.gates(exid), api.labels(exid), api.corrections(exid)]);
  const gateCameras = roles.size === 0 ? cameras.map((c) => c.exid) : cameras.map((c) => c.exid).filter((c) => roles.has(c));
  const since = new Date(from - LOOKBACK_MS).toISOString();
  // The main API's `to` is inclusive: one millisecond less keeps the range half-open.
  const until = new Date(to - 1).toISOString();
  const reads = (await Promise.all(gateCameras.map((c) => api.reads(c, since, until)))).flat();
  const notes = corrections.map((c) => ({
    event_id: c.event_id,
    plate_before: c.plate_before,
    corrected_by: c.corrected_by?.email ?? null,
    created_at: c.created_at,
  }));
  return { project: exid, ...buildReport({ reads, roles, labels, corrections: notes, from, to, timeZone }) };
}

function rangeOf(q: { from: string; to: string }) {
  const from = Date.parse(instantOrFail(q.from, 'from'));
  const to = Date.parse(instantOrFail(q.to, 'to'));
  if (to <= from) throw validation('to', 'must be after from');
  if (to - from > MAX_RANGE_MS) throw validation('to', 'at most 31 days after from');
  return { from, to };
}

function dayOf(date: string) {
  const d = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== date) throw validation('date', `${date} is not a date`);
  const next = new Date(d.getTime() + 86_400_000).toISOString().slice(0, 10);
  return (timeZone: string) => ({ from: localMidnight(date, timeZone), to: localMidnight(next, timeZone) });
}

const csvResponse = {
  description: 'One row per visit, unmatched entry, unmatched exit and vehicle on site',
  content: { 'text/csv': { schema: { type: 'string' } } },
};

export async function gateReportRoutes(fastify: FastifyInstance, opts: { apiUrl: string }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['gate report'];
  const csv = (reply: import('fastify').FastifyReply, name: string, body: Parameters<typeof reportCsv>[0]) =>
    reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}.csv"`).send(reportCsv(body));

  app.get(
    '/projects/:exid/gate-report',
    {
      schema: {
        tags,
        operationId: 'getGateReport',
        summary: 'Vehicles in and out of the project’s gates between two instants: visits, unmatched reads, counts per hour, day and vendor',
        params: Params,
        querystring: RangeQuery,
        response: { 200: GateReportSchema, ...errorResponses(502, 503) },
      },
    },
    async (req) => report(opts.apiUrl, req, req.params.exid, () => rangeOf(req.query), req.query.time_zone),
  );

  app.get(
    '/projects/:exid/gate-report/csv',
    {
      schema: {
        tags,
        operationId: 'getGateReportCsv',
        summary: 'The range’s gate report as CSV',
        params: Params,
        querystring: RangeQuery,
        response: { 200: csvResponse, ...errorResponses(502, 503) },
      },
    },
    async (req, reply) =>
      csv(reply, `gate-report-${req.params.exid}`, await report(opts.apiUrl, req, req.params.exid, () => rangeOf(req.query), req.query.time_zone)),
  );

  app.get(
    '/projects/:exid/gate-report/days/:date',
    {
      schema: {
        tags,
        operationId: 'getGateReportDay',
        summary: 'One local day’s gate report',
        params: DayParams,
        querystring: DayQuery,
        response: { 200: GateReportSchema, ...errorResponses(502, 503) },
      },
    },
    async (req) => report(opts.apiUrl, req, req.params.exid, dayOf(req.params.date), req.query.time_zone),
  );

  app.get(
    '/projects/:exid/gate-report/days/:date/csv',
    {
      schema: {
        tags,
        operationId: 'getGateReportDayCsv',
        summary: 'One local day’s gate report as CSV',
        params: DayParams,
        querystring: DayQuery,
        response: { 200: csvResponse, ...errorResponses(502, 503) },
      },
    },
    async (req, reply) =>
      csv(
        reply,
        `gate-report-${req.params.exid}-${req.params.date}`,
        await report(opts.apiUrl, req, req.params.exid, dayOf(req.params.date), req.query.time_zone),
      ),
  );
}
