// OpenAPI 3.1 generated from the route definitions (never written by hand). Each operation carries
// `x-scopes`, its security schemes and the error answers its access rule implies, all taken from the
// same `config.access` the access hook enforces (docs/access-model.md), so the document cannot drift.
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { registerApiReference } from '../../lib/http/api-reference.js';
import { ANY_REQUEST_ERRORS, namedWildcard, shareErrorResponses, withErrorResponses } from '../../lib/http/openapi-transform.js';
import { scopesOf, type AccessPolicy } from '../access/index.js';
import { openApiWebhooks } from '../outbox/index.js';

/** Routes open to callers without a credential: public ones, and people-only ones taking anonymous callers (sign-in). */
const needsNoCredential = (policy: AccessPolicy) => policy.access === 'public' || (policy.access === 'people' && !!policy.anonymous);

function securityOf(policy: AccessPolicy): Record<string, string[]>[] {
  if (needsNoCredential(policy)) return [];
  if (policy.access === 'people') return [{ bearerAuth: [] }];
  if (policy.access === 'token') return [policy.token === 'media' ? { mediaToken: [] } : { ingestionToken: [] }];
  return [{ bearerAuth: [] }, { apiKey: [] }];
}

/** The error statuses the access hook itself can answer on a route (docs/access-model.md, How a request is decided). */
function accessErrorsOf(policy: AccessPolicy): number[] {
  if (needsNoCredential(policy)) return [...ANY_REQUEST_ERRORS];
  // A missing or bad credential is 401; a closed endpoint, scope, project or role 403.
  if (policy.access !== 'scoped') return [...ANY_REQUEST_ERRORS, 401, 403];
  // Scoped routes take keys, which have their own rate limit (Key limits).
  return [...ANY_REQUEST_ERRORS, 401, 403, 429];
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
          'Each operation lists in `x-scopes` the API-key scopes that reach it; an empty list means closed to API keys. ' +
          'Every response carries an `x-request-id` header; error bodies repeat it as `request_id`.',
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      // Relative: the API is on the host that serves this document.
      servers: [{ url: '/', description: 'This server' }],
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
    // The events Overlook sends out, one `webhooks` entry per kind (docs/notifications.md).
    transformObject: (doc) => ({
      ...shareErrorResponses('openapiObject' in doc ? doc.openapiObject : doc.swaggerObject),
      webhooks: openApiWebhooks() as never,
    }),
    transform: ({ schema, url, route }) => {
      const policy = (route.config?.access as AccessPolicy | undefined) ?? { access: 'public' };
      const named = namedWildcard(url, (schema ?? {}) as Record<string, unknown>);
      const withErrors = withErrorResponses(named.schema, accessErrorsOf(policy));
      return {
        schema: { ...withErrors, 'x-scopes': [...scopesOf(policy)], security: securityOf(policy) } as unknown as typeof schema,
        url: named.url,
      };
    },
  });

  app.get('/v2/openapi.json', { config: { access: { access: 'public' } }, schema: { hide: true } }, async () => app.swagger());

  await registerApiReference(app, {
    routePrefix: '/docs',
    documentUrl: '/v2/openapi.json',
    title: 'Overlook main API reference',
    markPublic: (route) => {
      route.config = { ...(route.config ?? {}), access: { access: 'public' } };
    },
  });
}
