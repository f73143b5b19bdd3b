// Builds the recorder's Fastify app (`server.ts` starts it; tests build the very same app).
// Order: error handling, services, the auth hook, OpenAPI, then routes.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { installErrorHandling } from '../lib/http/error-handler.js';
import { installNulGuard, installValidators } from '../lib/http/validation.js';
import { ErrorResponse } from '../lib/http/schemas.js';
import { loggerOptions } from '../lib/logger.js';
import type { RecorderConfig } from './config.js';
import type { RecorderDb } from './db/recorder-db.js';
import { createRecorderServices } from './services.js';
import { recorderAuth } from './auth/hook.js';
import { registerRecorderOpenApi } from './http/openapi.js';
import { userRoutes } from './users/routes.js';
import { deviceRoutes } from './devices/routes.js';
import { recordingRoutes } from './recordings/routes.js';
import { hlsRoutes } from './hls/routes.js';
import { snapshotRoutes } from './snapshots/routes.js';
import { footageRoutes } from './footage/routes.js';
import { eventRoutes } from './events/routes.js';
import { remoteStorageRoutes } from './remote-storages/routes.js';
import { systemRoutes } from './system/routes.js';

export const RECORDER_VERSION = '0.1.0';

export async function buildRecorderApp(opts: { config: RecorderConfig; db: RecorderDb; logger?: FastifyServerOptions['logger'] }): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? loggerOptions(),
    bodyLimit: opts.config.bodyLimit,
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>();
  installErrorHandling(app);
  installValidators(app);
  installNulGuard(app);
  app.addSchema(ErrorResponse);

  const services = createRecorderServices(opts.config, opts.db, app.log, RECORDER_VERSION);
  app.decorate('recorder', services);
  await app.register(recorderAuth({ tokens: services.tokens, webhooks: services.webhooks }));
  await registerRecorderOpenApi(app, RECORDER_VERSION);

  for (const routes of [userRoutes, deviceRoutes, recordingRoutes, hlsRoutes, snapshotRoutes, footageRoutes, eventRoutes, remoteStorageRoutes, systemRoutes]) {
    await app.register(routes);
  }
  app.addHook('onClose', async () => {
    await services.manager.stopAll();
  });
  return app;
}
