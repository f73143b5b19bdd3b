import { Type } from 'typebox';
import { publicRoute } from '../access/index.js';
import { defineRoutes } from '../plugins/feature.js';
import { ApiError } from '../../lib/errors.js';
import { pendingMigrations } from '../../lib/db/migrate.js';
import { PLATFORM_MIGRATIONS } from '../db/platform-migrations.js';

/** The one answer of `GET /health`; never changed (the serializer only reads it). */
const HEALTHY = Object.freeze({ status: 'ok' as const });

/** The answer of `GET /ready` while the node can serve. */
const READY = Object.freeze({ status: 'ready' as const });

export const healthRoutes = defineRoutes('health-routes', ['signer', 'db'], async (app, { signer, db }) => {
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
    '/ready',
    {
      config: { access: publicRoute() },
      schema: {
        tags: ['health'],
        operationId: 'getReady',
        summary: 'Whether this node should be sent requests',
        description:
          'For load balancers: 200 while the database answers and every migration is applied; 503 with Retry-After when the database cannot be reached, a migration is pending, or the node is shutting down.',
        response: { 200: Type.Object({ status: Type.Literal('ready') }) },
      },
    },
    async () => {
      // An unreachable or full database fails this query: the error handler answers 503 with Retry-After.
      const pending = await pendingMigrations(db, PLATFORM_MIGRATIONS);
      if (pending.length > 0)
        throw new ApiError('SERVICE_UNAVAILABLE', `The database lacks ${pending.length} migration(s) of this version; run overlook migrate`);
      return READY;
    },
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
