// Schemas and checks the site connectors (voyage-control, doorbell) share: webhook replies, the
// webhook's link id, the events list, timestamps and webhook URLs.
import { Type } from 'typebox';
import { validation } from '../../../lib/errors.js';
import { Nullable } from '../../../lib/http/schemas.js';
import type { ConnectorContext } from '../framework/provider.js';
import { parseRfc3339 } from '../../../lib/time/read-time.js';

export const ProjectParams = Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }) });
export const WebhookParams = Type.Object({
  link_id: Type.String({
    pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
    description: 'The link id from the webhook URL',
  }),
});
export const WebhookReply = Type.Object({ received: Type.Literal(true), event_id: Type.String(), notified: Type.Integer({ description: 'People notified' }) });

export const EventsQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: 'Default 50' })),
  },
  { additionalProperties: false },
);
const SiteEvent = Type.Object({
  id: Type.String(),
  received_at: Type.String(),
  event: Type.Record(Type.String(), Type.Unknown(), { description: 'The event as the provider sent it, with the Overlook project and camera' }),
});
export const EventsPage = Type.Object({ page: Type.Integer(), limit: Type.Integer(), data: Type.Array(SiteEvent) });

export const WebhookSetup = {
  webhook_url: Type.String({ description: 'Give this URL to the provider: it POSTs events here' }),
  webhook_secret: Type.String({ description: 'Shown this once: the provider signs each call with it (HMAC-SHA256 of `<timestamp>.<body>`)' }),
  linked_at: Type.String(),
  camera_exid: Nullable(Type.String()),
};

export async function listSiteEvents(ctx: ConnectorContext, projectId: string, q: { page?: number; limit?: number }) {
  const page = q.page ?? 1;
  const limit = q.limit ?? 50;
  const rows = await ctx.store.listEvents(ctx.provider.id, { projectId, limit, offset: (page - 1) * limit });
  return { page, limit, data: rows.map((r) => ({ id: r.id, received_at: r.received_at, event: r.payload })) };
}

/** An RFC 3339 date-time (docs/security.md, "Times"), as a Date; else a 400 on `field`. */
export function isoTime(field: string, v: unknown): Date {
  const t = typeof v === 'string' ? parseRfc3339(v) : null;
  if (!t) throw validation(field, 'must be an RFC 3339 date-time, e.g. 2026-05-01T08:00:00Z');
  return t;
}

export const webhookUrl = (publicUrl: string, prefix: string, linkId: string) => `${publicUrl.replace(/\/+$/, '')}${prefix}/webhooks/${linkId}`;
