// The Fastify app every Overlook service starts from: one logger, one body limit, short path
// parameters, and the shared error answers, validators and NUL guard, so all services fail alike.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { httpLimits, type HttpLimits } from '../config/http-limits.js';
import { metricsConfig, type MetricsConfig } from '../config/metrics-config.js';
import { loggerOptions, requestLogOptions } from '../logger.js';
import { installErrorHandling } from './error-handler.js';
import { ErrorResponse } from './schemas.js';
import { installCors } from './cors.js';
import { capConnectionsPerAddress, clientErrorHandler, deadlineOptions } from './slow-clients.js';
import { installNulGuard, installValidators, urlRefusal } from './validation.js';
import { installRequestIdHeader, requestIdOptions } from './request-id.js';
import { installMetrics } from './metrics.js';
import { buildSharedSerializer } from './compiled-schemas.js';
import { installDraining } from './draining.js';

export interface BaseAppOptions {
  logger?: FastifyServerOptions['logger'];
  bodyLimit: number;
  trustProxy?: boolean;
  /** On close, cut every connection, not only idle ones (services with long media streams). */
  forceCloseConnections?: boolean;
  /** Request deadlines and the per-address connection cap (default: from the environment). */
  limits?: HttpLimits;
  /** Web origins allowed to call from a browser (CORS); none: off. */
  corsOrigins?: string[];
  /** Who may read `GET /metrics` (default: from the environment); the service registers the route. */
  metrics?: MetricsConfig;
}

/** How long one plugin may take to load before the service gives up starting. */
const PLUGIN_START_TIMEOUT_MS = 120_000;

export function createBaseApp(opts: BaseAppOptions): FastifyInstance {
  const limits = opts.limits ?? httpLimits();
  const app = Fastify({
    ...deadlineOptions(limits),
    clientErrorHandler,
    logger: opts.logger ?? loggerOptions(),
    // One line per request, written when it is answered.
    ...requestLogOptions(),
    // Each request's id: the caller's x-request-id when safe, else a new one (request-id.ts).
    ...requestIdOptions,
    bodyLimit: opts.bodyLimit,
    // Fastify's default of 10 s per plugin made a node exit at start on a busy machine (the OAuth
    // plugin makes its keys on a first start); a slow start is not a failed one.
    pluginTimeout: PLUGIN_START_TIMEOUT_MS,
    trustProxy: opts.trustProxy ?? false,
    forceCloseConnections: opts.forceCloseConnections ? true : 'idle',
    // Requests arriving while the app closes get our own 503 (draining.ts), not Fastify's bare one.
    return503OnClosing: false,
    // Ids in paths are short; anything longer is a mistake or an attack.
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: true },
    // Response serializers compiled once per process, not once per app (compiled-schemas.ts).
    schemaController: { compilersFactory: { buildSerializer: buildSharedSerializer } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  // First, so that its onRoute hook sees every route (docs/deploy.md, Metrics).
  const metrics = installMetrics(app, opts.metrics ?? metricsConfig());
  // The request id header and the address half of the NUL guard, in one hook.
  installRequestIdHeader(app, urlRefusal);
  installDraining(app);
  capConnectionsPerAddress(app, limits.maxConnectionsPerAddress);
  installCors(app, opts.corsOrigins ?? []);
  installErrorHandling(app, metrics ? (req, reply) => metrics.unmatched(req.method, reply.elapsedTime) : undefined);
  installValidators(app);
  installNulGuard(app);
  app.addSchema(ErrorResponse);
  return app;
}
