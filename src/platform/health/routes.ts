import { Type } from 'typebox';
import { publicRoute } from '../access/index.js';
import { defineRoutes } from '../plugins/feature.js';

/** The one answer of `GET /health`; never changed (the serializer only reads it). */
const HEALTHY = Object.freeze({ status: 'ok' as const });

export const healthRoutes = defineRoutes('health-routes', ['signer'], async (app, { signer }) => {
  app.get(
    '/health',
    {
      config: { access: publicRoute() },
      schema: {
        tags: ['health'],
        operationId: 'getHealth',
        summary: 'Whether the server accepts requests',
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    // A plain function returning a value: Fastify sends it at once, with no promise to settle.
    () => HEALTHY,
  );

  app.get(
    '/.well-known/jwks.json',
    {
      config: { access: publicRoute() },
      schema: {
        tags: ['health'],
        operationId: 'getJwks',
        summary: 'The public keys that verify platform JWTs',
        description: 'Public keys that verify platform JWTs (ES256).',
        response: { 200: Type.Object({ keys: Type.Array(Type.Record(Type.String(), Type.Unknown())) }) },
      },
    },
    async () => signer.jwks(),
  );
});
