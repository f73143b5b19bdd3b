import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PageMeta, PageQuery } from '../../lib/http/pagination.js';
import { scoped } from '../access/index.js';
import { errorResponses, Nullable } from '../../lib/http/schemas.js';
import { actingUserId } from '../http/index.js';
import { defineRoutes } from '../plugins/feature.js';

const Notification = Type.Object({
  id: Type.String(),
  type: Type.String(),
  message: Type.String(),
  context: Type.Record(Type.String(), Type.Unknown()),
  read: Type.Boolean(),
  read_timestamp: Nullable(Type.String()),
  created_at: Type.String(),
});

export const notificationRoutes = defineRoutes('notification-routes', ['notifications'], async (fastify, { notifications }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['notifications'];
  app.get(
    '/v2/notifications',
    {
      config: { access: scoped(['user:info']) },
      schema: {
        tags,
        operationId: 'listNotifications',
        summary: 'The caller’s notifications, newest first',
        querystring: Type.Object({ unread: Type.Optional(Type.Boolean()), ...PageQuery }),
        response: { 200: Type.Object({ meta: PageMeta, unread_count: Type.Integer(), data: Type.Array(Notification) }), ...errorResponses() },
      },
    },
    async (req) =>
      notifications.list(actingUserId(req), { unreadOnly: req.query.unread === true, page: req.query.page ?? 1, pageSize: req.query.page_size ?? 50 }),
  );

  app.patch(
    '/v2/notifications/:id',
    {
      config: { access: scoped(['profile:write']) },
      schema: {
        tags,
        operationId: 'markNotification',
        summary: 'Mark one notification read or unread',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
        body: Type.Object({ read: Type.Boolean() }, { additionalProperties: false }),
        response: { 200: Notification, ...errorResponses() },
      },
    },
    async (req) => notifications.mark(actingUserId(req), req.params.id, req.body.read),
  );

  app.post(
    '/v2/notifications/mark-as-read',
    {
      config: { access: scoped(['profile:write']) },
      schema: {
        tags,
        operationId: 'markAllNotificationsRead',
        summary: 'Mark all of the caller’s notifications read',
        response: { 200: Type.Object({ marked: Type.Integer() }), ...errorResponses() },
      },
    },
    async (req) => ({ marked: await notifications.markAllRead(actingUserId(req)) }),
  );
});
