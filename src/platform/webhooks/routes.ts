// Project webhooks (docs/notifications.md, Webhooks): a project admin or owner configures them; closed
// to API keys, since a webhook sends the project's events to any URL (docs/access-model.md).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fromPathProject, peopleOnly } from '../access/index.js';
import { errorResponses, Nullable, StringEnum } from '../../lib/http/schemas.js';
import { actingUserId, allowedProject } from '../http/index.js';
import { EVENT_TYPES } from '../outbox/index.js';
import { defineRoutes } from '../plugins/feature.js';

const Id = Type.String({ minLength: 1, maxLength: 64 });
const Params = Type.Object({ exid: Id });
const IdParams = Type.Object({ exid: Id, id: Id });
const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'An http or https URL; not on the platform’s own network unless the operator allows it',
});
const Events = Type.Array(StringEnum(EVENT_TYPES), { minItems: 1, maxItems: EVENT_TYPES.length, description: 'The event types it receives' });
const Webhook = Type.Object({
  id: Type.String(),
  project_exid: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  disabled_reason: Nullable(Type.String({ description: '`failures`: disabled after repeated failed deliveries' })),
  consecutive_failures: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
});
const Created = Type.Object({ ...Webhook.properties, secret: Type.String({ description: 'Signing secret; shown this once' }) });
const Log = Type.Object({
  deliveries: Type.Array(
    Type.Object({
      event_id: Type.String(),
      event_type: Type.String(),
      status: StringEnum(['pending', 'delivered', 'failed']),
      attempts: Type.Integer(),
      next_attempt_at: Nullable(Type.String()),
      last_error: Nullable(Type.String()),
      delivered_at: Nullable(Type.String()),
      created_at: Type.String(),
    }),
    { description: 'The latest events sent to it, newest first' },
  ),
  attempts: Type.Array(
    Type.Object({
      id: Type.String(),
      event_id: Type.String(),
      event_type: Type.String(),
      attempted_at: Type.String(),
      status_code: Nullable(Type.Integer()),
      error: Nullable(Type.String()),
      latency_ms: Type.Integer(),
      ok: Type.Boolean(),
    }),
    { description: 'The latest attempts, newest first' },
  ),
});

export const webhookRoutes = defineRoutes('webhook-routes', ['webhooks'], async (fastify, { webhooks }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['webhooks'];
  const access = peopleOnly({ project: fromPathProject, role: 'admin' });

  app.post(
    '/v2/projects/:exid/webhooks',
    {
      config: { access },
      schema: {
        tags,
        operationId: 'createWebhook',
        summary: 'Add a webhook: the chosen events are POSTed to the URL, signed with the secret answered here once',
        params: Params,
        body: Type.Object({ url: Url, events: Events }, { additionalProperties: false }),
        response: { 201: Created, ...errorResponses() },
      },
    },
    async (req, reply) => reply.code(201).send(await webhooks.create(allowedProject(req).project, actingUserId(req), req.body)),
  );

  app.get(
    '/v2/projects/:exid/webhooks',
    {
      config: { access },
      schema: {
        tags,
        operationId: 'listWebhooks',
        summary: 'The project’s webhooks',
        params: Params,
        response: { 200: Type.Object({ data: Type.Array(Webhook) }), ...errorResponses() },
      },
    },
    async (req) => ({ data: await webhooks.list(allowedProject(req).project) }),
  );

  app.get(
    '/v2/projects/:exid/webhooks/:id',
    {
      config: { access },
      schema: { tags, operationId: 'getWebhook', summary: 'One webhook', params: IdParams, response: { 200: Webhook, ...errorResponses() } },
    },
    async (req) => webhooks.get(allowedProject(req).project, req.params.id),
  );

  app.patch(
    '/v2/projects/:exid/webhooks/:id',
    {
      config: { access },
      schema: {
        tags,
        operationId: 'updateWebhook',
        summary: 'Change the URL or events; `enabled: true` turns a disabled webhook back on',
        params: IdParams,
        body: Type.Object(
          { url: Type.Optional(Url), events: Type.Optional(Events), enabled: Type.Optional(Type.Boolean()) },
          { additionalProperties: false, minProperties: 1 },
        ),
        response: { 200: Webhook, ...errorResponses() },
      },
    },
    async (req) => webhooks.update(allowedProject(req).project, req.params.id, req.body),
  );

  app.delete(
    '/v2/projects/:exid/webhooks/:id',
    {
      config: { access },
      schema: { tags, operationId: 'deleteWebhook', summary: 'Delete a webhook', params: IdParams, response: { 204: Type.Null(), ...errorResponses() } },
    },
    async (req, reply) => {
      await webhooks.remove(allowedProject(req).project, req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v2/projects/:exid/webhooks/:id/deliveries',
    {
      config: { access },
      schema: {
        tags,
        operationId: 'listWebhookDeliveries',
        summary: 'Delivery log: the latest events and attempts, with status and latency',
        params: IdParams,
        response: { 200: Log, ...errorResponses() },
      },
    },
    async (req) => webhooks.log(allowedProject(req).project, req.params.id),
  );

  app.post(
    '/v2/projects/:exid/webhooks/:id/deliveries/:event_id/redeliver',
    {
      config: { access },
      schema: {
        tags,
        operationId: 'redeliverWebhookEvent',
        summary: 'Send an event the webhook was sent before once more',
        params: Type.Object({ exid: Id, id: Id, event_id: Id }),
        response: { 202: Type.Object({}), ...errorResponses() },
      },
    },
    async (req, reply) => {
      await webhooks.redeliver(allowedProject(req).project, req.params.id, req.params.event_id);
      return reply.code(202).send({});
    },
  );
});
