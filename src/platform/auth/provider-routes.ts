// The provider sign-in itself (provider logins are closed to API keys: docs/access-model.md). Both steps are
// reached by a browser that is not signed in yet, so they let anonymous callers in; a valid API key
// sent here is still refused (403 ENDPOINT_CLOSED_TO_KEYS) by the access layer.
import type { FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { peopleOnly } from '../access/index.js';
import { errorResponses } from '../../lib/http/schemas.js';
import { UserRecord } from '../users/index.js';
import { auditContext } from '../audit/index.js';
import { logActivity } from './activities.js';
import { defineRoutes } from '../plugins/feature.js';

const COOKIE = 'overlook_oidc_state';
const Provider = Type.Object({ provider: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_-]*$' }) });

function cookie(req: FastifyRequest, name: string): string | undefined {
  const header = req.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export const providerSignInRoutes = defineRoutes('provider-sign-in-routes', ['oidc', 'config', 'db', 'audit'], async (fastify, { oidc, config, db, audit }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const secure = config.publicUrl.startsWith('https:') ? '; Secure' : '';
  const tags = ['auth'];

  app.get(
    '/v2/auth/provider/:provider/login',
    {
      config: { access: peopleOnly({ anonymous: true }) },
      schema: {
        tags,
        operationId: 'providerLogin',
        summary: 'Start signing in with a provider: redirects to it (state, nonce and PKCE S256)',
        params: Provider,
        response: { 302: Type.Null(), ...errorResponses(502) },
      },
    },
    async (req, reply) => {
      const { url, state } = await oidc.begin(req.params.provider);
      // Binds the sign-in to this browser; read back by the callback.
      reply.header('set-cookie', `${COOKIE}=${state}; Path=/v2/auth/provider/; HttpOnly; SameSite=Lax; Max-Age=${config.admin.oidcLoginSeconds}${secure}`);
      reply.header('cache-control', 'no-store');
      return reply.redirect(url, 302);
    },
  );

  app.get(
    '/v2/auth/provider/:provider/callback',
    {
      config: { access: peopleOnly({ anonymous: true }) },
      schema: {
        tags,
        operationId: 'providerCallback',
        summary: 'Where the provider sends the browser back: links the account by verified e-mail and signs in (user record and JWT, as login)',
        params: Provider,
        querystring: Type.Object({
          code: Type.Optional(Type.String({ maxLength: 4096 })),
          state: Type.Optional(Type.String({ maxLength: 512 })),
          error: Type.Optional(Type.String({ maxLength: 256 })),
          error_description: Type.Optional(Type.String({ maxLength: 2048 })),
          iss: Type.Optional(Type.String({ maxLength: 2048 })),
          session_state: Type.Optional(Type.String({ maxLength: 512 })),
        }),
        response: { 200: Type.Intersect([UserRecord, Type.Object({ token: Type.String() })]), ...errorResponses(502) },
      },
    },
    async (req, reply) => {
      const raw = req.raw.url ?? '';
      const q = raw.indexOf('?');
      const ua = req.headers['user-agent'];
      reply.header('set-cookie', `${COOKIE}=; Path=/v2/auth/provider/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`);
      reply.header('cache-control', 'no-store');
      const result = await oidc.complete(auditContext(req), req.params.provider, q < 0 ? '' : raw.slice(q + 1), cookie(req, COOKIE), {
        ip: req.ip,
        userAgent: typeof ua === 'string' ? ua : undefined,
      });
      await logActivity({ db, audit }, req, result.user.id, 'login', result.sessionId, { method: 'oidc', provider: req.params.provider });
      return { ...result.user, token: result.token };
    },
  );
});
