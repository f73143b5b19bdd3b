// Builds the recorder's Fastify app (`server.ts` starts it; tests build the very same app).
// Order: error handling, services, the auth hook, OpenAPI, then routes.
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { createBaseApp } from '../lib/http/base-app.js';
import { installJsonDepthLimit } from '../lib/http/json-depth.js';
import type { RecorderConfig } from './config.js';
import type { RecorderDb } from './db/recorder-db.js';
import { createRecorderServices } from './services.js';
import { recorderAuth } from './auth/hook.js';
import { registerRecorderOpenApi } from './http/openapi.js';
import { userRoutes } from './users/routes.js';
import { deviceRoutes } from './devices/routes.js';
import { recordingRoutes } from './recordings/routes.js';
import { hlsRoutes } from './hls/routes.js';
import { liveRoutes } from './live/routes.js';
import { snapshotRoutes } from './snapshots/routes.js';
import { footageRoutes } from './footage/routes.js';
import { eventRoutes } from './events/routes.js';
import { remoteStorageRoutes } from './remote-storages/routes.js';
import { systemRoutes } from './system/routes.js';
import { webUiRoutes } from './web-ui/routes.js';
import { linkRoutes } from './link/routes.js';
import { registerRecorderMetrics } from './system/metrics.js';
import { PACKAGE_VERSION } from '../lib/package-version.js';

export async function buildRecorderApp(opts: { config: RecorderConfig; db: RecorderDb; logger?: FastifyServerOptions['logger'] }): Promise<FastifyInstance> {
  const app = createBaseApp({
    logger: opts.logger,
    bodyLimit: opts.config.bodyLimit,
    forceCloseConnections: true,
    limits: opts.config.httpLimits,
    corsOrigins: opts.config.corsOrigins,
    metrics: opts.config.metrics,
  });
  installJsonDepthLimit(app);

  const services = createRecorderServices(opts.config, opts.db, app.log, PACKAGE_VERSION);
  // Rows written before secrets were sealed are sealed now (idempotent).
  const sealed = await services.secrets.sealPlaintextRows(opts.db);
  if (sealed) app.log.info({ sealed }, 'sealed stored secrets that were kept in plaintext');
  app.decorate('recorder', services);
  await app.register(recorderAuth({ tokens: services.tokens, webhooks: services.webhooks }));
  await registerRecorderOpenApi(app, PACKAGE_VERSION);
  registerRecorderMetrics(app, {
    devicesByState: () => services.devices.countByState(),
    segmentsWritten: () => services.index.written,
    webrtcViewers: () => services.whep.count,
  });

  for (const routes of [
    userRoutes,
    deviceRoutes,
    recordingRoutes,
    hlsRoutes,
    liveRoutes,
    snapshotRoutes,
    footageRoutes,
    eventRoutes,
    remoteStorageRoutes,
    systemRoutes,
    linkRoutes,
    webUiRoutes,
  ]) {
    await app.register(routes);
  }
  // Uploads run while the app does; what is queued stays queued in the database across restarts.
  app.addHook('onReady', async () => {
    services.uploader.start();
    services.snapshotUploads.start();
  });
  app.addHook('onClose', async () => {
    await services.link.stop();
    await services.whep.closeAll();
    await services.snapshotUploads.stop();
    await services.plates.stopAll();
    await services.manager.stopAll();
    await services.uploader.stop();
    await services.rtp.closeAll();
  });
  return app;
}
