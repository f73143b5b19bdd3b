// Event ingestion (a device's webhook token, or an admin) and listings (any user), {meta, data} pages.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PageMeta, PageQuery } from '../../lib/http/pagination.js';
import { errorResponses, StringEnum } from '../../lib/http/schemas.js';
import { DeviceId } from '../devices/index.js';

const Event = Type.Object({
  id: Type.String(),
  device_id: Type.String(),
  type: Type.String(),
  time: Type.String(),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  created_at: Type.String(),
});
const LprEvent = Type.Object({
  id: Type.String(),
  device_id: Type.String(),
  plate_number: Type.String(),
  capture_time: Type.String(),
  direction: Type.String(),
  list_type: Type.Union([Type.String(), Type.Null()]),
  confidence: Type.Union([Type.Number(), Type.Null()]),
  bounding_box: Type.Union([Type.Array(Type.Number()), Type.Null()]),
  has_plate_image: Type.Boolean(),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  created_at: Type.String(),
});
const Filters = {
  device_id: Type.Optional(Type.String({ maxLength: 64 })),
  start_date: Type.Optional(Type.String({ maxLength: 40 })),
  end_date: Type.Optional(Type.String({ maxLength: 40 })),
  ...PageQuery,
};
const WebhookQuery = Type.Object({
  token: Type.Optional(Type.String({ maxLength: 200 })),
  type: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.:-]+$' })),
});

export async function eventRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { events, devices } = app.recorder;
  const tags = ['events'];

  app.post(
    '/api/devices/:id/events',
    {
      config: { auth: 'webhook' },
      schema: {
        tags,
        operationId: 'ingestEvent',
        summary: 'Record an event; the whole JSON body is kept as its metadata (`time` in it, if any, is the event time)',
        params: DeviceId,
        querystring: WebhookQuery,
        body: Type.Record(Type.String(), Type.Unknown()),
        response: { 201: Event, ...errorResponses() },
      },
    },
    async (req, reply) => {
      await devices.get(req.params.id);
      const type = req.query.type ?? (typeof req.body.type === 'string' && /^[A-Za-z0-9_.:-]{1,64}$/.test(req.body.type) ? req.body.type : 'generic');
      return reply.code(201).send(await events.ingest(req.params.id, type, req.body));
    },
  );

  app.post(
    '/api/devices/:id/events/lpr',
    {
      config: { auth: 'webhook' },
      schema: {
        tags,
        operationId: 'ingestLprEvent',
        summary: 'Record a licence-plate read (plate image optional, base64 JPEG)',
        params: DeviceId,
        querystring: WebhookQuery,
        body: Type.Object({
          plate_number: Type.String({ minLength: 1, maxLength: 32 }),
          capture_time: Type.String({ maxLength: 40 }),
          direction: Type.Optional(StringEnum(['in', 'out', 'unknown'])),
          list_type: Type.Optional(StringEnum(['white', 'black', 'other'])),
          confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
          bounding_box: Type.Optional(Type.Array(Type.Number(), { minItems: 4, maxItems: 4 })),
          plate_image: Type.Optional(Type.String({ maxLength: 4_000_000 })),
        }),
        response: { 201: LprEvent, ...errorResponses() },
      },
    },
    async (req, reply) => {
      await devices.get(req.params.id);
      return reply.code(201).send(await events.ingestLpr(req.params.id, req.body));
    },
  );

  app.get(
    '/api/events',
    {
      config: { auth: 'read' },
      schema: {
        tags,
        operationId: 'listEvents',
        summary: 'Events, newest first',
        querystring: Type.Object({ ...Filters, type: Type.Optional(Type.String({ maxLength: 64 })) }),
        response: { 200: Type.Object({ meta: PageMeta, data: Type.Array(Event) }), ...errorResponses() },
      },
    },
    async (req) =>
      events.list({
        deviceId: req.query.device_id,
        type: req.query.type,
        from: req.query.start_date,
        to: req.query.end_date,
        page: req.query.page ?? 1,
        pageSize: req.query.page_size ?? 50,
      }),
  );

  app.get(
    '/api/events/lpr',
    {
      config: { auth: 'read' },
      schema: {
        tags,
        operationId: 'listLprEvents',
        summary: 'Licence-plate reads, newest first',
        querystring: Type.Object({ ...Filters, plate_number: Type.Optional(Type.String({ maxLength: 32 })) }),
        response: { 200: Type.Object({ meta: PageMeta, data: Type.Array(LprEvent) }), ...errorResponses() },
      },
    },
    async (req) =>
      events.listLpr({
        deviceId: req.query.device_id,
        plate: req.query.plate_number,
        from: req.query.start_date,
        to: req.query.end_date,
        page: req.query.page ?? 1,
        pageSize: req.query.page_size ?? 50,
      }),
  );
}
