// Receiving one signed webhook for a site link: find the link, check the signature and its age, check
// the linking person is still connected, refuse an event id seen before, store the event
// (`connector_events`, for the project's events list) and notify the project's admins and owner.
// Shared by the voyage-control and doorbell connectors; each gives its headers and what to say.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { publicRoute } from '../../access/index.js';
import { connectorErrors } from '../framework/routes.js';
import { WebhookParams, WebhookReply } from './site-routes-common.js';
import { ApiError } from '../../../lib/errors.js';
import type { ConnectorContext } from '../framework/provider.js';
import type { NotificationType } from '../../notifications/index.js';
import type { SiteLink, SiteLinks } from './site-links.js';
import { keepRawJson, verifyWebhook } from './signed-webhook.js';

export interface Delivered {
  /** The provider's own event id (replays are refused by it). */
  eventId: string;
  /** What is stored and listed. */
  payload: Record<string, unknown>;
  notification: { type: NotificationType; message: string; context: Record<string, unknown> };
}

async function receiveSiteWebhook(
  ctx: ConnectorContext,
  links: SiteLinks,
  req: FastifyRequest,
  linkId: string,
  headers: { timestamp: string; signature: string },
  interpret: (link: SiteLink, body: unknown) => Promise<Delivered>,
): Promise<{ received: true; event_id: string; notified: number }> {
  const found = await links.get(linkId);
  if (!found || found.link.provider !== ctx.provider.id) throw new ApiError('NOT_FOUND', 'No such webhook');
  const h = (name: string) => {
    const v = req.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  verifyWebhook({ secret: found.secret, timestamp: h(headers.timestamp), signature: h(headers.signature), rawBody: req.webhookRawBody });
  const { link } = found;
  // Disconnecting the provider stops its webhooks too.
  if (!(await ctx.store.connection(link.userId, ctx.provider.id))) {
    throw new ApiError('CONNECTOR_NOT_CONNECTED', `${ctx.provider.name} was disconnected by the person who linked it: link it again`);
  }
  const d = await interpret(link, req.body);
  if (!(await links.firstDelivery(link.id, d.eventId))) throw new ApiError('CONFLICT', `Event ${d.eventId} was already received`);
  await ctx.store.recordEvent({ provider: ctx.provider.id, userId: link.userId, projectId: link.projectId, payload: d.payload });
  const people = await links.projectAdmins(link.projectId);
  for (const userId of people) await ctx.host.notifications.notify(userId, d.notification.type, d.notification.message, d.notification.context);
  return { received: true, event_id: d.eventId, notified: people.length };
}

/**
 * Registers `POST <prefix>/webhooks/:link_id` for a site connector. The route lives in a child context
 * so its raw-body JSON parser (the signature covers the raw body) touches no other route.
 */
export async function registerSiteWebhook(
  fastify: FastifyInstance,
  opts: {
    ctx: ConnectorContext;
    links: SiteLinks;
    prefix: string;
    tags: string[];
    operationId: string;
    summary: string;
    headers: { timestamp: string; signature: string };
    interpret: (link: SiteLink, body: unknown) => Promise<Delivered>;
  },
): Promise<void> {
  await fastify.register(async (child) => {
    keepRawJson(child);
    child.withTypeProvider<TypeBoxTypeProvider>().post(
      `${opts.prefix}/webhooks/:link_id`,
      {
        config: { access: publicRoute() },
        schema: {
          tags: opts.tags,
          operationId: opts.operationId,
          summary: opts.summary,
          params: WebhookParams,
          response: { 200: WebhookReply, ...connectorErrors() },
        },
      },
      async (req) => receiveSiteWebhook(opts.ctx, opts.links, req, req.params.link_id, opts.headers, opts.interpret),
    );
  });
}
