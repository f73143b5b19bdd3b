// OpenAPI 3.1 generated from the route definitions (never written by hand). Each operation carries
// `x-scopes`, taken from the same `config.access` the access hook enforces, and its security schemes.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { scopesOf, type AccessPolicy } from '../access/policy.js';

function securityOf(policy: AccessPolicy | undefined): Record<string, string[]>[] {
  if (!policy || policy.access === 'public') return [];
  if (policy.access === 'people') return [{ bearerAuth: [] }];
  if (policy.access === 'token') return [policy.token === 'media' ? { mediaToken: [] } : { ingestionToken: [] }];
  return [{ bearerAuth: [] }, { apiKey: [] }];
}

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Overlook main API',
        version: '2.0.0',
        description:
          'Construction-site cameras: people sign in with a JWT (`Authorization: Bearer`), programs use API keys (`x-access-key`). ' +
          'Each operation lists in `x-scopes` the API-key scopes that reach it; an empty list means closed to API keys.',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          apiKey: { type: 'apiKey', in: 'header', name: 'x-access-key' },
          mediaToken: {
            type: 'apiKey',
            in: 'query',
            name: 'token',
            description: 'Short-lived media token bound to one camera, as the API hands it out in playlist URLs',
          },
          ingestionToken: { type: 'http', scheme: 'bearer', description: 'A camera’s ingestion token' },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transform: ({ schema, url, route }) => {
      const policy = route.config?.access as AccessPolicy | undefined;
      const base = (schema ?? {}) as Record<string, unknown>;
      return {
        schema: { ...base, 'x-scopes': [...scopesOf(policy ?? { access: 'public' })], security: securityOf(policy) } as unknown as typeof schema,
        url,
      };
    },
  });

  app.get('/v2/openapi.json', { config: { access: { access: 'public' } }, schema: { hide: true } }, async () => app.swagger());

  // The interactive reference. Its own routes are public; they are registered in a child context
  // whose onRoute hook declares that, so the fail-closed check sees a policy on each of them.
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), access: { access: 'public' } };
    });
    await docs.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
  });
}
