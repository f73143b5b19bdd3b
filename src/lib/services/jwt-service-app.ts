// The shape shared by the small services that act for a signed-in person (AI, Labs): a base app whose
// every route but /health needs a platform JWT in one of the headers the service accepts (docs/access-model.md).
// API keys are refused in any header (401): these services are for people, not for unattended programs.
import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';
import { Type } from 'typebox';
import swagger from '@fastify/swagger';
import { createBaseApp } from '../http/base-app.js';
import { registerMetricsRoute } from '../http/metrics.js';
import type { MetricsConfig } from '../config/metrics-config.js';
import { ApiError } from '../errors.js';
import { looksLikeApiKey } from '../auth/api-key-format.js';
import { bearerToken } from '../auth/bearer.js';
import { PlatformSessionCheck, type PlatformUser } from '../auth/platform-session-check.js';
import { PACKAGE_VERSION } from '../package-version.js';

/** Where a service takes the JWT from: `Authorization: Bearer`, or the AI API's `x-api-key`. */
type JwtHeader = 'authorization' | 'x-api-key';

export interface JwtServiceOptions {
  name: string;
  apiUrl: string;
  headers: readonly JwtHeader[];
  bodyLimit?: number;
  logger?: FastifyServerOptions['logger'];
  /** Who may read `GET /metrics` (default: from the environment). */
  metrics?: MetricsConfig;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: PlatformUser | null;
  }
  interface FastifyContextConfig {
    /** Routes of a JWT service that need no credential (health). */
    open?: boolean;
  }
}

const UserRecord = Type.Object({
  id: Type.String(),
  email: Type.String(),
  firstname: Type.String(),
  lastname: Type.String(),
  is_admin: Type.Boolean(),
  created_at: Type.String(),
});

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

/** The JWT the request carries in an accepted header, or a 401 saying what was wrong. */
function credentialOf(req: FastifyRequest, accepted: readonly JwtHeader[], challenge: string): string {
  const fail = (message: string) => new ApiError('UNAUTHORIZED', message, { headers: { 'www-authenticate': challenge } });
  if (header(req, 'x-access-key') !== undefined) throw fail('API keys are not accepted by this service; sign in and send the JWT');
  const found: string[] = [];
  const auth = header(req, 'authorization');
  if (auth !== undefined) {
    if (!accepted.includes('authorization')) throw fail('Authorization is not accepted here');
    const token = bearerToken(auth);
    if (token === undefined) throw fail('Authorization must be "Bearer <JWT>"');
    found.push(token);
  }
  const xApiKey = header(req, 'x-api-key');
  if (xApiKey !== undefined) {
    if (!accepted.includes('x-api-key')) throw fail('x-api-key is not accepted by this service: send Authorization: Bearer <JWT>');
    found.push(xApiKey.trim());
  }
  if (found.length === 0) throw fail('A platform JWT is required');
  if (found.length > 1) throw fail('Send one credential, not several');
  if (looksLikeApiKey(found[0]!)) throw fail('API keys are not accepted by this service; sign in and send the JWT');
  return found[0]!;
}

export async function buildJwtServiceApp(opts: JwtServiceOptions): Promise<FastifyInstance> {
  const app = createBaseApp({ logger: opts.logger, bodyLimit: opts.bodyLimit ?? 1024 * 1024, metrics: opts.metrics });
  const sessions = new PlatformSessionCheck(opts.apiUrl);
  const challenge = [
    opts.headers.includes('authorization') ? `Bearer realm="overlook-${opts.name}"` : null,
    opts.headers.includes('x-api-key') ? `ApiKey realm="overlook-${opts.name}", header="x-api-key"` : null,
  ]
    .filter(Boolean)
    .join(', ');

  app.decorateRequest('user', null);
  app.addHook('onRequest', async (req) => {
    if (req.routeOptions.config?.open) return;
    const token = credentialOf(req, opts.headers, challenge);
    const result = await sessions.check(token);
    if (result.ok) {
      req.user = result.user;
      return;
    }
    if (result.reason === 'unreachable') throw new ApiError('SERVICE_UNAVAILABLE', 'The main API could not confirm the session; try again');
    const why = result.reason === 'ended' ? 'belongs to a session that has ended' : 'is not a valid platform JWT';
    throw new ApiError('UNAUTHORIZED', `The token ${why}`, { headers: { 'www-authenticate': `${challenge}, error="invalid_token"` } });
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `Overlook ${opts.name} API`,
        version: PACKAGE_VERSION,
        description: `Accepts a platform JWT in ${opts.headers.map((h) => (h === 'authorization' ? 'Authorization: Bearer' : h)).join(' or ')}; API keys are refused.`,
      },
    },
  });

  app.get(
    '/health',
    { config: { open: true }, schema: { tags: ['health'], operationId: 'getHealth', response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );
  app.get('/openapi.json', { config: { open: true }, schema: { hide: true } }, async () => app.swagger());
  registerMetricsRoute(app, { open: true });
  app.get(
    '/me',
    { schema: { tags: ['me'], operationId: 'getMe', summary: 'The signed-in person’s user record, as the main API knows it', response: { 200: UserRecord } } },
    async (req) => req.user!,
  );
  return app;
}
