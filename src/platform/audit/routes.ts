import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { peopleOnly } from '../access/index.js';
import { errorResponses } from '../../lib/http/schemas.js';
import { actingUserId } from '../http/index.js';
import { AuditPage, AuditQueryString, auditQuery } from './audit-schemas.js';
import { defineRoutes } from '../plugins/feature.js';

export const auditRoutes = defineRoutes('audit-routes', ['audit'], async (fastify, { audit }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/v2/users/audit',
    {
      config: { access: peopleOnly() },
      schema: {
        tags: ['users'],
        operationId: 'listMyAuditEvents',
        summary: 'Your security events (sign-ins, sessions, keys, membership, administration of your account), newest first',
        querystring: Type.Object(AuditQueryString, { additionalProperties: false }),
        response: { 200: AuditPage, ...errorResponses() },
      },
    },
    async (req) => {
      const me = actingUserId(req);
      const page = await audit.list({ ...auditQuery(req.query), involving: me });
      // Where someone else acted on your account (an admin, a project owner), where they were is theirs.
      return { ...page, data: page.data.map((e) => (e.actor_user_id === me && !e.impersonator_id ? e : { ...e, ip: null, user_agent: null })) };
    },
  );
});
