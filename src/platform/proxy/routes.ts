import replyFrom from '@fastify/reply-from';
import { peopleOnly } from '../access/index.js';
import { errorResponses } from '../../lib/http/schemas.js';
import { actingUserId } from '../http/index.js';
import { findUserById } from '../users/index.js';
import type { UpstreamProxy } from './upstream-proxy.js';
import { defineRoutes } from '../plugins/feature.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const NAMES = { crm: 'customer-relationship', cms: 'content-management' } as const;

export const proxyRoutes = defineRoutes('proxy-routes', ['proxies', 'db'], async (app, { proxies, db }) => {
  // Raw bytes, not parsed JSON: the upstream gets exactly what the client sent (within the body limit).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  // One pool for both upstreams (admin-plugin.ts closes it); no retries: the upstream decides once.
  await app.register(replyFrom, { undici: proxies.crm.dispatcher, retryMethods: [], disableRequestLogging: true });

  for (const proxy of [proxies.crm, proxies.cms] as UpstreamProxy[]) {
    const prefix = `/v2/${proxy.name}`;
    for (const method of METHODS) {
      app.route({
        method,
        url: `${prefix}/*`,
        config: { access: peopleOnly() },
        schema: {
          tags: ['proxies'],
          operationId: `${proxy.name}Proxy${method[0]}${method.slice(1).toLowerCase()}`,
          summary: `Pass a request through to the ${NAMES[proxy.name]} service (allow-listed paths only)`,
          response: { ...errorResponses(502, 504) },
        },
        handler: async (req, reply) => {
          const raw = req.raw.url ?? '';
          const q = raw.indexOf('?');
          const path = (q < 0 ? raw : raw.slice(0, q)).slice(prefix.length) || '/';
          const userId = actingUserId(req);
          const user = await findUserById(db, userId);
          return proxy.forward(reply, {
            method,
            path,
            query: q < 0 ? '' : raw.slice(q + 1),
            headers: req.headers,
            body: Buffer.isBuffer(req.body) ? req.body : undefined,
            user: { id: userId, email: user?.email },
          });
        },
      });
    }
  }
});
