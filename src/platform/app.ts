// Builds the main API as a Fastify app. `server.ts` only starts it; tests build the very same app.
// Order: framework plugins (errors, OpenAPI), then services and the access layer, then routes.
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { PlatformConfig } from '../lib/config.js';
import type { Db } from '../lib/db/index.js';
import { loadJwtSigner, type JwtSigner } from '../lib/auth/jwt.js';
import { createBaseApp } from '../lib/http/base-app.js';
import { accessLayer } from './access/hook.js';
import { createServices } from './services.js';
import { registerOpenApi } from './openapi/plugin.js';
import { healthRoutes } from './health/routes.js';
import { authRoutes } from './auth/routes.js';
import { userRoutes } from './users/routes.js';
import { notificationRoutes } from './notifications/routes.js';
import { projectRoutes } from './projects/routes.js';
import { cameraRoutes } from './cameras/routes.js';
import { memberRoutes } from './members/routes.js';
import { progressPhotoRoutes } from './progress-photos/routes.js';
import { apiKeyRoutes } from './api-keys/routes.js';
import { keyPageRoutes } from './key-page/routes.js';

export interface PlatformAppOptions {
  config: PlatformConfig;
  db: Db;
  signer?: JwtSigner;
  logger?: FastifyServerOptions['logger'];
}

export type PlatformApp = FastifyInstance;

export async function buildPlatformApp(opts: PlatformAppOptions): Promise<FastifyInstance> {
  const app = createBaseApp({ logger: opts.logger, bodyLimit: opts.config.bodyLimit, trustProxy: process.env.OVERLOOK_TRUST_PROXY === '1' });

  const signer = opts.signer ?? (await loadJwtSigner({ dataDir: opts.config.dataDir, privateKeyPem: opts.config.jwtPrivateKeyPem }));
  const services = createServices(opts.config, opts.db, signer, app.log);
  app.decorate('platform', services);

  await app.register(accessLayer(services, services.routes));
  await registerOpenApi(app);

  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(userRoutes);
  await app.register(notificationRoutes);
  await app.register(projectRoutes);
  await app.register(cameraRoutes);
  await app.register(memberRoutes);
  await app.register(progressPhotoRoutes);
  await app.register(apiKeyRoutes);
  await app.register(keyPageRoutes);

  app.addHook('onClose', async () => {
    await services.keys.flush();
    await services.sessions.flush();
  });
  return app;
}
