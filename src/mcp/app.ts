// The MCP server (`overlook mcp`, 127.0.0.1:3100): Streamable HTTP at /mcp with the SDK's own server
// and transport, stateless — every request is authenticated afresh and served by a server bound to
// that caller, so a revoked grant or ended session is refused from the next request on.
// It publishes its protected-resource metadata (RFC 9728) naming the main API as authorization server.
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { Type } from 'typebox';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { createBaseApp } from '../lib/http/base-app.js';
import { registerMetricsRoute } from '../lib/http/metrics.js';
import { hijack } from '../lib/http/request-id.js';
import type { MetricsConfig } from '../lib/config/metrics-config.js';
import { CredentialResolver, type Caller } from './credential.js';
import { MainApi } from './main-api.js';
import { registerTools } from './tools.js';
import { rebindingGuard } from './dns-rebinding.js';
import { PACKAGE_VERSION } from '../lib/package-version.js';

export interface McpAppOptions {
  /** The main API (and its authorization server). */
  apiUrl: string;
  /**
   * This server's public `/mcp` URL: its resource identifier, the audience of its OAuth tokens.
   * Omitted: `http://<host>:<port>/mcp` of the address it listens on (known once listening, so `--port 0` works).
   */
  resourceUrl?: string;
  logger?: FastifyServerOptions['logger'];
  /** Web origins (besides this server's own) allowed to call /mcp from a browser. */
  allowedOrigins?: readonly string[];
  /** Who may read `GET /metrics` (default: from the environment). */
  metrics?: MetricsConfig;
}

const MCP_SCOPES = ['mcp'];

/** RFC 9728: the metadata document's URL for a resource, with the resource's path appended. */
function protectedResourceMetadataUrl(resourceUrl: string): string {
  const u = new URL(resourceUrl);
  const path = u.pathname === '/' ? '' : u.pathname.replace(/\/+$/, '');
  return `${u.origin}/.well-known/oauth-protected-resource${path}`;
}

export async function buildMcpApp(opts: McpAppOptions): Promise<FastifyInstance> {
  const app = createBaseApp({ logger: opts.logger, bodyLimit: 4 * 1024 * 1024, metrics: opts.metrics });
  const resource = (): string => {
    if (opts.resourceUrl) return opts.resourceUrl;
    const addr = app.server.address();
    const host = typeof addr === 'object' && addr ? addr.address : '127.0.0.1';
    const port = typeof addr === 'object' && addr ? addr.port : 0;
    const h = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
    return `http://${h}:${port}/mcp`;
  };
  const apiUrl = opts.apiUrl.replace(/\/+$/, '');
  const credentials = new CredentialResolver(apiUrl, resource);
  const metadataUrl = () => protectedResourceMetadataUrl(resource());

  const guard = rebindingGuard({
    resourceUrl: resource,
    allowedOrigins: opts.allowedOrigins,
    listeningHost: () => {
      const addr = app.server.address();
      return typeof addr === 'object' && addr ? addr.address : null;
    },
  });
  app.addHook('onRequest', guard.checkHost);

  app.get('/health', { schema: { response: { 200: Type.Object({ status: Type.Literal('ok') }) } } }, async () => ({ status: 'ok' as const }));
  registerMetricsRoute(app);
  // At the path-aware address (RFC 9728 §3.1) and at the root, where older clients look.
  const metadataPath = new URL(protectedResourceMetadataUrl(opts.resourceUrl ?? 'http://localhost/mcp')).pathname;
  for (const url of new Set([metadataPath, '/.well-known/oauth-protected-resource'])) {
    app.get(url, async (_req, reply) =>
      reply.header('access-control-allow-origin', '*').send({
        resource: resource(),
        authorization_servers: [apiUrl],
        scopes_supported: MCP_SCOPES,
        bearer_methods_supported: ['header'],
        resource_name: 'Overlook MCP server',
      }),
    );
  }

  const challenge = (error?: string, description?: string) =>
    [
      `Bearer resource_metadata="${metadataUrl()}"`,
      error ? `error="${error}"` : null,
      description ? `error_description="${description.replace(/["\\]/g, '')}"` : null,
    ]
      .filter(Boolean)
      .join(', ');

  const authenticate = async (req: FastifyRequest, reply: FastifyReply): Promise<Caller | null> => {
    const r = await credentials.resolve(req.headers);
    if (r.ok) return r.caller;
    if (r.status === 401) {
      reply.code(401).header('www-authenticate', challenge(r.error, r.message)).send({ code: 'UNAUTHORIZED', message: r.message, request_id: req.id });
    } else {
      reply.code(503).header('retry-after', '5').send({ code: 'SERVICE_UNAVAILABLE', message: r.message, request_id: req.id });
    }
    return null;
  };

  // The credential is checked before the body is read: a refused request learns nothing more.
  const callers = new WeakMap<FastifyRequest, Caller>();
  const onRequest = async (req: FastifyRequest, reply: FastifyReply) => {
    const caller = await authenticate(req, reply);
    if (!caller) return reply;
    callers.set(req, caller);
  };

  const handle = async (req: FastifyRequest, reply: FastifyReply) => {
    const caller = callers.get(req)!;
    const server = new McpServer(
      { name: 'overlook', version: PACKAGE_VERSION },
      { instructions: 'Tools over the Overlook construction-camera platform, acting as the signed-in person.' },
    );
    registerTools(server, new MainApi(apiUrl, caller.token));
    // Stateless: no session ids; JSON answers rather than SSE streams (every tool answers at once).
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    hijack(reply);
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    const raw = req.raw as typeof req.raw & { auth?: AuthInfo };
    raw.auth = {
      token: caller.token,
      clientId: caller.clientId ?? 'platform-jwt',
      scopes: caller.scopes,
      expiresAt: caller.expiresAt,
      resource: new URL(resource()),
      extra: { user: caller.user },
    };
    await transport.handleRequest(raw, reply.raw, req.body);
  };

  // Origin first (DNS rebinding), then the credential.
  app.route({ method: ['GET', 'POST', 'DELETE'], url: '/mcp', onRequest: [guard.checkOrigin, onRequest], handler: handle });
  return app;
}
