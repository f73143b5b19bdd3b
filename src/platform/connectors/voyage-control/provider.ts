// Voyage Control (site access and delivery booking), connected with an API key (`Authorization: Bearer`),
// the way its integrations API is used server to server. Actions: link a Voyage venue to a project
// (admin; returns the signed-webhook URL and secret for gate events), the venue's bookings in a time
// range (viewer), and the gate events received (viewer). Gate events arrive on a public webhook
// verified by HMAC signature and become notifications to the project's admins.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError, validation } from '../../../lib/errors.js';
import { Nullable } from '../../../lib/http/schemas.js';
import { fromPathProject, scoped } from '../../access/index.js';
import { actingUserId, allowedProject } from '../../http/index.js';
import { connectorErrors } from '../framework/routes.js';
import type { ConnectorContext, ConnectorProvider } from '../framework/provider.js';
import { SiteLinks } from './site-links.js';
import { registerSiteWebhook } from './site-webhook.js';
import { EventsPage, EventsQuery, isoTime, listSiteEvents, ProjectParams, WebhookSetup, webhookUrl } from './site-routes-common.js';
import { parseGateEvent, toBooking, Booking } from './voyage-records.js';

const NAME = 'Voyage Control';
const MAX_RANGE_MS = 31 * 86_400_000;

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

const BookingsQuery = Type.Object(
  {
    from: Type.String({ minLength: 1, maxLength: 40, description: 'ISO 8601: bookings ending after this' }),
    to: Type.String({ minLength: 1, maxLength: 40, description: 'ISO 8601: bookings starting before this (at most 31 days after from)' }),
    status: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 32,
        pattern: '^[a-z_]+$',
        description: 'Only bookings in this Voyage status (pending, approved, arrived, completed, cancelled…)',
      }),
    ),
  },
  { additionalProperties: false },
);

async function routes(fastify: FastifyInstance, ctx: ConnectorContext): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { prefix, client, tags } = ctx;
  const links = SiteLinks.from(ctx.host);
  const op = ctx.provider.operationPrefix;

  const siteOf = async (projectId: string) => {
    const [link] = await links.ofProject(ctx.provider.id, projectId);
    if (!link) throw new ApiError('CONFLICT', `No ${NAME} site is linked to this project: an admin links one first (PUT ${prefix}/projects/{exid}/site)`);
    return link;
  };

  app.put(
    `${prefix}/projects/:exid/site`,
    {
      config: { access: scoped(['project:connectors'], { project: fromPathProject, role: 'admin' }) },
      schema: {
        tags,
        operationId: `${op}LinkSite`,
        summary: `Link a ${NAME} venue (your account’s) to the project: its bookings and gate events become the project’s`,
        params: ProjectParams,
        body: Type.Object({ venue_id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) }, { additionalProperties: false }),
        response: {
          200: Type.Object({ venue_id: Type.String(), venue_name: Nullable(Type.String()), timezone: Nullable(Type.String()), ...WebhookSetup }),
          ...connectorErrors(),
        },
      },
    },
    async (req) => {
      const { project } = allowedProject(req);
      const userId = actingUserId(req);
      // The venue must exist and be reachable with this person's key (404 from Voyage → 404).
      const venue = obj(await client.request(userId, { path: `/api/v1/venues/${encodeURIComponent(req.body.venue_id)}` }));
      const name = typeof venue.name === 'string' ? venue.name : null;
      const { link, secret } = await links.link({
        provider: ctx.provider.id,
        projectId: project.id,
        cameraId: null,
        userId,
        remoteId: req.body.venue_id,
        remoteName: name,
        onePerProject: true,
      });
      return {
        venue_id: link.remoteId,
        venue_name: name,
        timezone: typeof venue.timezone === 'string' ? venue.timezone : null,
        webhook_url: webhookUrl(ctx.host.publicUrl, prefix, link.id),
        webhook_secret: secret,
        linked_at: link.createdAt,
        camera_exid: null,
      };
    },
  );

  app.get(
    `${prefix}/projects/:exid/bookings`,
    {
      config: { access: scoped(['project:connectors'], { project: fromPathProject, role: 'viewer' }) },
      schema: {
        tags,
        operationId: `${op}ListBookings`,
        summary: `Deliveries and visits booked at the project’s ${NAME} venue in a time range`,
        params: ProjectParams,
        querystring: BookingsQuery,
        response: {
          200: Type.Object({ venue_id: Type.String(), venue_name: Nullable(Type.String()), from: Type.String(), to: Type.String(), data: Type.Array(Booking) }),
          ...connectorErrors(),
        },
      },
    },
    async (req) => {
      const from = isoTime('from', req.query.from);
      const to = isoTime('to', req.query.to);
      if (to <= from) throw validation('to', 'must be after from');
      if (to.getTime() - from.getTime() > MAX_RANGE_MS) throw validation('to', 'the range may span at most 31 days');
      const { project } = allowedProject(req);
      const site = await siteOf(project.id);
      // Read with the key of the admin who linked the venue: viewers need no Voyage account of their own.
      const body = obj(
        await client.request(site.userId, {
          path: `/api/v1/venues/${encodeURIComponent(site.remoteId)}/bookings`,
          query: { start: from.toISOString(), end: to.toISOString(), status: req.query.status },
        }),
      );
      if (!Array.isArray(body.bookings)) throw new ApiError('BAD_GATEWAY', `${NAME} answered no bookings list`);
      return { venue_id: site.remoteId, venue_name: site.remoteName, from: from.toISOString(), to: to.toISOString(), data: body.bookings.map(toBooking) };
    },
  );

  app.get(
    `${prefix}/projects/:exid/events`,
    {
      config: { access: scoped(['project:connectors'], { project: fromPathProject, role: 'viewer' }) },
      schema: {
        tags,
        operationId: `${op}ListEvents`,
        summary: `Gate events ${NAME} sent for the project’s venue, newest first`,
        params: ProjectParams,
        querystring: EventsQuery,
        response: { 200: EventsPage, ...connectorErrors() },
      },
    },
    async (req) => listSiteEvents(ctx, allowedProject(req).project.id, req.query),
  );

  await registerSiteWebhook(fastify, {
    ctx,
    links,
    prefix,
    tags,
    operationId: `${op}GateWebhook`,
    summary: `Where ${NAME} posts gate events (signed: X-Voyage-Timestamp, X-Voyage-Signature = sha256 HMAC of "<timestamp>.<body>")`,
    headers: { timestamp: 'x-voyage-timestamp', signature: 'x-voyage-signature' },
    interpret: async (link, body) => {
      const e = parseGateEvent(body);
      const project = await links.project(link.projectId);
      const who = [e.vehicle_registration, e.company ? `(${e.company})` : null].filter(Boolean).join(' ');
      return {
        eventId: e.id,
        payload: { ...e, venue_id: link.remoteId, project_exid: project.exid },
        notification: {
          type: 'site_access_event',
          message: `${NAME}: ${e.type.replace(/[._]/g, ' ')}${e.gate ? ` at ${e.gate}` : ''}${who ? ` — ${who}` : ''} on ${project.name}`,
          context: {
            provider: ctx.provider.id,
            project_exid: project.exid,
            event_id: e.id,
            event_type: e.type,
            occurred_at: e.occurred_at,
            gate: e.gate,
            booking_reference: e.booking_reference,
            vehicle_registration: e.vehicle_registration,
          },
        },
      };
    },
  });
}

export const voyageControlProvider: ConnectorProvider = {
  id: 'voyage-control',
  name: NAME,
  operationPrefix: 'voyageControl',
  authKind: 'credentials',
  defaultUrls: { api: 'https://api.voyagecontrol.com' },
  credentialsSchema: Type.Object(
    { api_key: Type.String({ minLength: 8, maxLength: 256, pattern: '^[A-Za-z0-9._~+/=-]+$', description: 'A Voyage Control API key' }) },
    { additionalProperties: false },
  ),
  credentialAuth: (c) => ({ headers: { authorization: `Bearer ${c.api_key ?? ''}` } }),
  // Who the key belongs to; Voyage's 401 refuses the key at connect.
  async describeAccount(client, userId) {
    const me = obj(await client.request(userId, { path: '/api/v1/me' }));
    const org = obj(me.organisation);
    return {
      user: typeof me.name === 'string' ? me.name : null,
      email: typeof me.email === 'string' ? me.email : null,
      organisation: typeof org.name === 'string' ? org.name : null,
    };
  },
  routes,
};
