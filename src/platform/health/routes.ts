// Liveness and the public half of the JWT signing key (JWKS) for the other services.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { publicRoute } from '../access/policy.js';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/health',
    {
      config: { access: publicRoute() },
      schema: { tags: ['health'], operationId: 'getHealth', response: { 200: Type.Object({ status: Type.Literal('ok') }) } },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/.well-known/jwks.json',
    {
      config: { access: publicRoute() },
      schema: {
        tags: ['health'],
        operationId: 'getJwks',
        description: 'Public keys that verify platform JWTs (ES256).',
        response: { 200: Type.Object({ keys: Type.Array(Type.Record(Type.String(), Type.Unknown())) }) },
      },
    },
    async () => app.platform.signer.jwks,
  );
}
