// The recorder's OpenAPI document, generated from its route definitions, at /api/openapi.json, and
// the interactive reference at /api/docs.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { RecorderAuth } from '../auth/policy.js';

function securityOf(auth: RecorderAuth | undefined): Record<string, string[]>[] {
  if (!auth || auth === 'public') return [];
  if (auth === 'media') return [{ accessToken: [] }, { tokenQuery: [] }];
  if (auth === 'webhook') return [{ webhookToken: [] }, { accessToken: [] }];
  return [{ accessToken: [] }];
}

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
          'Role `user` is read-only; every change needs role `admin`.',
      },
      components: {
        securitySchemes: {
          accessToken: { type: 'http', scheme: 'bearer', description: 'Recorder access token from POST /api/users/login' },
          tokenQuery: { type: 'apiKey', in: 'query', name: 'token', description: 'The access token, for media URLs only' },
          webhookToken: { type: 'apiKey', in: 'query', name: 'token', description: "A device's webhook token (or as Authorization: Bearer)" },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _b, _f, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transform: ({ schema, url, route }) => {
      const auth = route.config?.auth as RecorderAuth | undefined;
      return { schema: { ...((schema ?? {}) as object), 'x-auth': auth ?? 'public', security: securityOf(auth) } as unknown as typeof schema, url };
    },
  });
  app.get('/api/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, async () => app.swagger());
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), auth: 'public' };
    });
    await docs.register(swaggerUi, { routePrefix: '/api/docs' });
  });
}
