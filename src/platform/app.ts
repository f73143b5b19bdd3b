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
import { settingsRoutes } from './settings/routes.js';
import { progressPhotoRoutes } from './progress-photos/routes.js';
import { apiKeyRoutes } from './api-keys/routes.js';
import { keyPageRoutes } from './key-page/routes.js';
import { ptzRoutes } from './cameras/ptz/routes.js';
import { onvifRoutes } from './cameras/onvif/routes.js';
import { liveViewRoutes } from './live-view/routes.js';
import { anprRoutes } from './anpr/routes.js';
import { recordingReadRoutes } from './recordings/read-routes.js';
import { recordingWriteRoutes } from './recordings/write-routes.js';
import { adminRoutes } from './admin/routes.js';
import { auditRoutes } from './audit/routes.js';
import { providerSignInRoutes } from './auth/provider-routes.js';
import { proxyRoutes } from './proxy/routes.js';
import { loadOauthKeys } from './oauth/oauth-keys.js';
import { OauthServer } from './oauth/oauth-server.js';
import { oauthRoutes } from './oauth/routes.js';
import { developerAppRoutes } from './developer-apps/routes.js';
import { connectorRoutes } from './connectors/framework/routes.js';
import { bimRoutes } from './bim/routes.js';
import { weatherRoutes } from './weather/routes.js';
import { videoWallRoutes } from './video-walls/routes.js';
import { commentRoutes } from './comments/routes.js';
import { mediaHubRoutes } from './media-hub/routes.js';

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
  // The OAuth authorization server; its access tokens for the main API are accepted as the person's.
  const oauth = new OauthServer(opts.config, opts.db, await loadOauthKeys({ dataDir: opts.config.dataDir, json: opts.config.oauthKeysJson }), app.log);
  app.decorate('oauth', oauth);
  services.sessions.otherTokens = (token) => oauth.verifyAccessToken(token);

  await app.register(accessLayer(services, services.routes));
  await registerOpenApi(app);

  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(userRoutes);
  await app.register(notificationRoutes);
  await app.register(projectRoutes);
  await app.register(cameraRoutes);
  await app.register(memberRoutes);
  await app.register(settingsRoutes);
  await app.register(progressPhotoRoutes);
  await app.register(apiKeyRoutes);
  await app.register(keyPageRoutes);
  await app.register(ptzRoutes);
  await app.register(onvifRoutes);
  await app.register(liveViewRoutes);
  await app.register(anprRoutes);
  await app.register(recordingReadRoutes);
  await app.register(recordingWriteRoutes);
  await app.register(adminRoutes);
  await app.register(auditRoutes);
  await app.register(providerSignInRoutes);
  await app.register(proxyRoutes);
  await app.register(oauthRoutes(oauth));
  await app.register(developerAppRoutes);
  await app.register(connectorRoutes);
  await app.register(bimRoutes);
  await app.register(weatherRoutes);
  await app.register(videoWallRoutes);
  await app.register(commentRoutes);
  await app.register(mediaHubRoutes);

  // The cloud recorder runs inside the API process, from ready to close (OVERLOOK_RECORDING_LOOP=0: off).
  if (opts.config.recordingLoop) app.addHook('onReady', async () => services.recorder.start());
  // Media hub renders run in the API process too (OVERLOOK_MEDIA_JOBS=0: off); stopping aborts ffmpeg.
  if (opts.config.mediaJobs) app.addHook('onReady', async () => services.mediaJobs.start());
  app.addHook('onClose', async () => {
    await services.mediaJobs.stop();
    await services.recorder.stop();
    (services.storage as { close?: () => void }).close?.();
  });

  app.addHook('onClose', async () => {
    await services.keys.flush();
    await services.sessions.flush();
    await services.proxies.pool.close();
  });
  return app;
}
