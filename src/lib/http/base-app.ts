// The Fastify app every Overlook service starts from: one logger, one body limit, short path
// parameters, and the shared error answers, validators and NUL guard, so all services fail alike.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { loggerOptions } from '../logger.js';
import { installErrorHandling } from './error-handler.js';
import { ErrorResponse } from './schemas.js';
import { installNulGuard, installValidators } from './validation.js';

export interface BaseAppOptions {
  logger?: FastifyServerOptions['logger'];
  bodyLimit: number;
  trustProxy?: boolean;
  /** On close, cut every connection, not only idle ones (services with long media streams). */
  forceCloseConnections?: boolean;
}

export function createBaseApp(opts: BaseAppOptions): FastifyInstance {
  const app = Fastify({
    logger: opts.logger ?? loggerOptions(),
    bodyLimit: opts.bodyLimit,
    trustProxy: opts.trustProxy ?? false,
    forceCloseConnections: opts.forceCloseConnections ? true : 'idle',
    // Ids in paths are short; anything longer is a mistake or an attack.
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>();
  installErrorHandling(app);
  installValidators(app);
  installNulGuard(app);
  app.addSchema(ErrorResponse);
  return app;
}
