// The recorder's OpenAPI document, generated from its route definitions, at /api/openapi.json, and
// the interactive reference at /api/docs. Security and the error answers of the auth hook are taken
// from each route's `config.auth`, the same declaration the hook enforces.
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { registerApiReference } from '../../lib/http/api-reference.js';
import { ANY_REQUEST_ERRORS, shareErrorResponses, withErrorResponses } from '../../lib/http/openapi-transform.js';
import type { RecorderAuth } from '../auth/index.js';

function securityOf(auth: RecorderAuth): Record<string, string[]>[] {
  if (auth === 'public') return [];
  if (auth === 'media') return [{ accessToken: [] }, { tokenQuery: [] }];
  if (auth === 'webhook') return [{ webhookToken: [] }, { accessToken: [] }];
  return [{ accessToken: [] }];
}

/** A missing or bad token is 401; role `user` on an admin route is 403 (docs/recorder.md). */
const authErrorsOf = (auth: RecorderAuth): number[] =>
  auth === 'public' ? [...ANY_REQUEST_ERRORS] : auth === 'admin' ? [...ANY_REQUEST_ERRORS, 401, 403] : [...ANY_REQUEST_ERRORS, 401];

export async function registerRecorderOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Overlook recorder API',
        version,
        description:
          'The on-device recorder. Sign in with `POST /api/users/login` and send the access token as `Authorization: Bearer`. ' +
          'HLS playlists, HLS segments and snapshots also take it as `?token=`. Platform JWTs and API keys are not accepted here. ' +
          'Role `user` is read-only; every change needs role `admin`. ' +
          'Every response carries an `x-request-id` header; error bodies repeat it as `request_id`.',
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      // Relative: the API is on the device that serves this document.
      servers: [{ url: '/', description: 'This recorder' }],
      components: {
        securitySchemes: {
          accessToken: { type: 'http', scheme: 'bearer', description: 'Recorder access token from POST /api/users/login' },
          tokenQuery: { type: 'apiKey', in: 'query', name: 'token', description: 'The access token, for media URLs only' },
          webhookToken: { type: 'apiKey', in: 'query', name: 'token', description: "A device's webhook token (or as Authorization: Bearer)" },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _b, _f, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transformObject: (doc) => shareErrorResponses('openapiObject' in doc ? doc.openapiObject : doc.swaggerObject),
    transform: ({ schema, url, route }) => {
      const auth = (route.config?.auth as RecorderAuth | undefined) ?? 'public';
      const withErrors = withErrorResponses((schema ?? {}) as Record<string, unknown>, authErrorsOf(auth));
      return { schema: { ...withErrors, 'x-auth': auth, security: securityOf(auth) } as unknown as typeof schema, url };
    },
  });
  app.get('/api/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, async () => app.swagger());
  await registerApiReference(app, {
    routePrefix: '/api/docs',
    documentUrl: '/api/openapi.json',
    title: 'Overlook recorder API reference',
    markPublic: (route) => {
      route.config = { ...(route.config ?? {}), auth: 'public' };
    },
  });
}
