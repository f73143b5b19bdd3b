// The Fastify app every Overlook service starts from: one logger, one body limit, short path
// parameters, and the shared error answers, validators and NUL guard, so all services fail alike.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { httpLimits, type HttpLimits } from '../config/http-limits.js';
import { loggerOptions } from '../logger.js';
import { installErrorHandling } from './error-handler.js';
import { ErrorResponse } from './schemas.js';
import { installCors } from './cors.js';
import { capConnectionsPerAddress, clientErrorHandler, deadlineOptions } from './slow-clients.js';
import { installNulGuard, installValidators } from './validation.js';

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
}

export function createBaseApp(opts: BaseAppOptions): FastifyInstance {
  const limits = opts.limits ?? httpLimits();
  const app = Fastify({
    ...deadlineOptions(limits),
    clientErrorHandler,
    logger: opts.logger ?? loggerOptions(),
    bodyLimit: opts.bodyLimit,
    trustProxy: opts.trustProxy ?? false,
    forceCloseConnections: opts.forceCloseConnections ? true : 'idle',
    // Ids in paths are short; anything longer is a mistake or an attack.
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>();
  capConnectionsPerAddress(app, limits.maxConnectionsPerAddress);
  installCors(app, opts.corsOrigins ?? []);
  installErrorHandling(app);
  installValidators(app);
  installNulGuard(app);
  app.addSchema(ErrorResponse);
  return app;
}
