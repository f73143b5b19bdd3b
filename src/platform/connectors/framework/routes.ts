// The routes every connector has, built from its declaration: connect, status and disconnect (scoped
// `project:connectors`, the person's own connection: they touch no project), the ONE shared OAuth
// callback (people-only and open to anonymous browsers: the state binds it to the person), then the
// provider's own action routes.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from 'typebox';
import { peopleOnly, scoped } from '../../access/index.js';
import { errorResponses, Nullable } from '../../../lib/http/schemas.js';
import { actingUserId } from '../../http/index.js';
import { defineRoutes } from '../../plugins/feature.js';
import type { ConnectorsService } from './connectors-service.js';
import type { ConnectorContext, ConnectorProvider } from './provider.js';

const CONNECTOR_TAGS = ['connectors'];
/** Error statuses connector routes answer besides the usual ones: not connected, provider failures. */
export const connectorErrors = () => errorResponses(409, 502, 504);
const connectorPrefix = (p: Pick<ConnectorProvider, 'id'>) => `/v2/connectors/${p.id}`;

const ConnectionStatusSchema = Type.Object({
  provider: Type.String(),
  name: Type.String(),
  auth_kind: Type.String({ description: 'oauth or credentials' }),
  connected: Type.Boolean(),
  account: Nullable(Type.Record(Type.String(), Type.Unknown(), { description: 'Who you are at the provider (user, company names)' })),
  scopes: Type.Array(Type.String()),
  connected_at: Nullable(Type.String()),
  expires_at: Nullable(Type.String({ description: 'When the access token expires; it is renewed automatically before' })),
});

const ConnectOAuthBody = Type.Object(
  {
    redirect_after: Type.Optional(
      Type.String({ minLength: 1, maxLength: 500, description: 'A path on this site to send the browser back to after the callback' }),
    ),
    project_exid: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The project the person was looking at, passed back on return' })),
  },
  { additionalProperties: false },
);
const ConnectOAuthReply = Type.Object({
  authorization_url: Type.String({ description: 'Send the browser here; the provider redirects back to the shared callback' }),
  state: Type.String(),
  expires_at: Type.String({ description: 'The authorization must be finished before this' }),
});

/** Registers the shared OAuth callback; once, for every OAuth provider. */
async function connectorCallbackRoute(fastify: FastifyInstance, connectors: ConnectorsService): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const ids = connectors
    .providers()
    .filter((p) => p.authKind === 'oauth')
    .map((p) => p.id);
  if (!ids.length) return;
  app.get(
    '/v2/connectors/:provider/callback',
    {
      config: { access: peopleOnly({ anonymous: true }) },
      schema: {
        tags: CONNECTOR_TAGS,
        operationId: 'connectorOAuthCallback',
        summary: 'Where a provider sends the browser back after an authorization (OAuth 2.0 redirect URI)',
        params: Type.Object({ provider: Type.Union(ids.map((id) => Type.Literal(id))) }),
        querystring: Type.Object(
          {
            code: Type.Optional(Type.String({ maxLength: 4096 })),
            state: Type.Optional(Type.String({ maxLength: 200 })),
            error: Type.Optional(Type.String({ maxLength: 500 })),
            error_description: Type.Optional(Type.String({ maxLength: 2000 })),
          },
          { additionalProperties: true },
        ),
        response: { 200: ConnectionStatusSchema, 302: Type.Null(), ...connectorErrors() },
      },
    },
    async (req, reply) => {
      const url = new URL(req.url, connectors.redirectUri(req.params.provider));
      // openid-client compares the callback with the redirect URI it sent: same origin and path.
      const callback = new URL(connectors.redirectUri(req.params.provider));
      callback.search = url.search;
      const signedIn = req.principal.kind === 'user' ? req.principal.userId : null;
      const { redirectAfter, projectExid, status } = await connectors.completeAuthorization(req.params.provider, callback, signedIn);
      if (!redirectAfter) return status;
      const back = new URL(redirectAfter, 'http://x');
      back.searchParams.set('connector', status.provider);
      back.searchParams.set('status', 'connected');
      if (projectExid) back.searchParams.set('project_exid', projectExid);
      return reply.redirect(back.pathname + back.search + back.hash, 302);
    },
  );
}

/** connect, status and disconnect of one provider, then its own routes. */
async function registerConnector(fastify: FastifyInstance, connectors: ConnectorsService, ctx: ConnectorContext): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { provider, prefix } = ctx;
  const op = provider.operationPrefix;
  const access = scoped(['project:connectors']);

  if (provider.authKind === 'oauth') {
    app.post(
      `${prefix}/connect`,
      {
        config: { access },
        schema: {
          tags: CONNECTOR_TAGS,
          operationId: `${op}Connect`,
          summary: `Start connecting ${provider.name}: returns the provider's authorization URL (OAuth 2.0 with PKCE)`,
          body: Type.Optional(ConnectOAuthBody),
          response: { 200: ConnectOAuthReply, ...connectorErrors() },
        },
      },
      async (req) =>
        connectors.startAuthorization(provider.id, actingUserId(req), { redirectAfter: req.body?.redirect_after, projectExid: req.body?.project_exid }),
    );
  } else {
    const body: TSchema = provider.credentialsSchema ?? Type.Object({}, { additionalProperties: false });
    app.post(
      `${prefix}/connect`,
      {
        config: { access },
        schema: {
          tags: CONNECTOR_TAGS,
          operationId: `${op}Connect`,
          summary: `Connect ${provider.name} with credentials (checked with the provider, stored encrypted)`,
          body,
          response: { 200: ConnectionStatusSchema, ...connectorErrors() },
        },
      },
      async (req) => connectors.connectWithCredentials(provider.id, actingUserId(req), req.body as Record<string, string>),
    );
  }

  app.get(
    `${prefix}/status`,
    {
      config: { access },
      schema: {
        tags: CONNECTOR_TAGS,
        operationId: `${op}Status`,
        summary: `Whether you have connected ${provider.name}, and as whom`,
        response: { 200: ConnectionStatusSchema, ...connectorErrors() },
      },
    },
    async (req) => connectors.status(provider.id, actingUserId(req)),
  );

  app.delete(
    `${prefix}/connect`,
    {
      config: { access },
      schema: {
        tags: CONNECTOR_TAGS,
        operationId: `${op}Disconnect`,
        summary: `Disconnect ${provider.name}: revoke the tokens at the provider when it can, and forget them`,
        response: { 200: Type.Object({ provider: Type.String(), connected: Type.Literal(false), revoked: Type.Boolean() }), ...connectorErrors() },
      },
    },
    async (req) => connectors.disconnect(provider.id, actingUserId(req)),
  );

  await provider.routes?.(app, ctx);
}

/** The connectors plugin: the callback and every registered provider. */
export const connectorRoutes = defineRoutes('connector-routes', ['connectors', 'connectorHost'], async (fastify, { connectors, connectorHost }) => {
  await connectorCallbackRoute(fastify, connectors);
  for (const provider of connectors.providers()) {
    await registerConnector(fastify, connectors, {
      provider,
      client: connectors.client(provider.id),
      store: connectors.store,
      host: connectorHost,
      tags: CONNECTOR_TAGS,
      prefix: connectorPrefix(provider),
    });
  }
});
