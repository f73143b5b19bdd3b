// The one hook that applies each route's declared `auth` (see policy.ts). Tokens are read from
// `Authorization: Bearer` only, except on media routes, where `?token=` also works because players
// cannot set headers. Platform JWTs and API keys are not recorder tokens: 401.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../lib/errors.js';
import type { AccessTokens, TokenOwner } from './access-tokens.js';
import { RECORDER_AUTH, type RecorderAuth } from './policy.js';

declare module 'fastify' {
  interface FastifyRequest {
    recorderUser?: TokenOwner;
  }
  interface FastifyContextConfig {
    auth?: RecorderAuth;
  }
}

const CHALLENGE = { 'www-authenticate': 'Bearer realm="overlook-recorder"' };
const unauthorized = (message: string) => new ApiError('UNAUTHORIZED', message, { headers: CHALLENGE });

function bearer(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(h.trim());
  return m?.[1];
}

function queryToken(req: FastifyRequest): string | undefined {
  const t = (req.query as Record<string, unknown> | undefined)?.token;
  return typeof t === 'string' ? t : undefined;
}

/** Whether a token is one of a device's webhook tokens: the events' webhook tokens, wired in app.ts. */
interface WebhookTokenCheck {
  accepts(deviceId: string, token: string): Promise<boolean>;
}

export interface AuthDeps {
  tokens: AccessTokens;
  webhooks: WebhookTokenCheck;
}

export const recorderAuth = (deps: AuthDeps) =>
  fp(async (app: FastifyInstance) => {
    // Checked when the server is ready, not as each route arrives: a child context's own onRoute hook
    // (the docs pages) may still fill in the declaration after ours has seen the route.
    const routes: { method: unknown; url: string; config?: { auth?: RecorderAuth } }[] = [];
    app.addHook('onRoute', (route) => {
      routes.push(route as (typeof routes)[number]);
    });
    app.addHook('onReady', async () => {
      const unclassified = routes.filter((r) => !r.config?.auth || !RECORDER_AUTH.includes(r.config.auth)).map((r) => `${String(r.method)} ${r.url}`);
      if (unclassified.length) throw new Error(`recorder routes without an auth declaration: ${unclassified.join(', ')}`);
    });

    app.addHook('onRequest', async (req) => {
      const auth = req.routeOptions.config?.auth;
      if (auth === 'public' || auth === undefined) {
        // Unknown routes (404) carry no config; known ones always do (checked at start).
        if (auth === undefined && req.routeOptions.url) throw unauthorized('This route is not classified');
        return;
      }
      if (auth === 'webhook') {
        // A webhook token may come in the header or in ?token= (cameras often cannot set headers);
        // an access token only in the header: `?token=` carries access tokens on media routes alone.
        const header = bearer(req);
        const query = queryToken(req);
        const deviceId = (req.params as { id?: string }).id;
        for (const token of [header, query]) if (token && deviceId && (await deps.webhooks.accepts(deviceId, token))) return;
        const user = header ? await deps.tokens.verify(header) : null;
        if (user?.role === 'admin') {
          req.recorderUser = user;
          return;
        }
        throw unauthorized('A webhook token of this device (or an admin access token) is required');
      }
      const token = bearer(req) ?? (auth === 'media' ? queryToken(req) : undefined);
      if (!token) throw unauthorized('An access token from POST /api/users/login is required');
      const user = await deps.tokens.verify(token);
      if (!user) throw unauthorized('The access token is unknown, expired or revoked');
      req.recorderUser = user;
      if (auth === 'admin' && user.role !== 'admin') throw new ApiError('PERMISSION_DENIED', 'Only recorder admins may do this; role user is read-only');
    });
  });
