// Builds the main API as a Fastify app. `server.ts` only starts it; tests build the very same app.
// Order (docs/architecture.md): infrastructure, then each feature's services in dependency order
// (each plugin names what it needs and Fastify checks the names), then the access layer, which must
// see every route, then OpenAPI, then the routes, in the order the OpenAPI document lists them.
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { PlatformConfig } from '../lib/config.js';
import type { PlatformDb } from './database.js';
import { createBaseApp } from '../lib/http/base-app.js';
import { infrastructure } from './plugins/infrastructure.js';
import { secretsFeature } from './secrets/secrets-plugin.js';
import { outboxFeature } from './outbox/outbox-plugin.js';
import { auditFeature } from './audit/audit-plugin.js';
import { lifecycleFeature } from './lifecycle/lifecycle-plugin.js';
import { notificationsFeature } from './notifications/notifications-plugin.js';
import { directoryFeature } from './directory/directory-plugin.js';
import { apiKeysFeature } from './api-keys/api-keys-plugin.js';
import { oauthFeature } from './oauth/oauth-plugin.js';
import { authFeature } from './auth/auth-plugin.js';
import { membersFeature } from './members/members-plugin.js';
import { projectsFeature } from './projects/projects-plugin.js';
import { camerasFeature } from './cameras/cameras-plugin.js';
import { liveViewFeature } from './live-view/live-view-plugin.js';
import { workFeature } from './work/work-plugin.js';
import { recordingsFeature } from './recordings/recordings-plugin.js';
import { anprFeature } from './anpr/anpr-plugin.js';
import { cameraLifecycleFeature } from './camera-lifecycle/camera-lifecycle-plugin.js';
import { projectSettingsFeature } from './project-settings/project-settings-plugin.js';
import { adminFeature } from './admin/admin-plugin.js';
import { weatherFeature } from './weather/weather-plugin.js';
import { videoWallsFeature } from './video-walls/video-walls-plugin.js';
import { commentsFeature } from './comments/comments-plugin.js';
import { bimFeature } from './bim/bim-plugin.js';
import { mediaHubFeature } from './media-hub/media-hub-plugin.js';
import { connectorsFeature } from './connectors/connectors-plugin.js';
import { webhooksFeature } from './webhooks/webhooks-plugin.js';
import { mqttFeature } from './mqtt/mqtt-plugin.js';
import { mailFeature } from './mail/mail-plugin.js';
import { recorderLinksFeature } from './recorder-links/recorder-links-plugin.js';
import { pictureChecksFeature } from './picture-checks/picture-checks-plugin.js';
import { accessFeature } from './access-layer/access-plugin.js';
import { explainerFeature } from './access-layer/explainer-plugin.js';
import { registerOpenApi } from './openapi/plugin.js';
import { healthRoutes } from './health/routes.js';
import { metricsRoutes } from './metrics/metrics-routes.js';
import { authRoutes } from './auth/routes.js';
import { userRoutes } from './account/routes.js';
import { mailRoutes } from './mail/routes.js';
import { notificationRoutes } from './notifications/routes.js';
import { projectRoutes } from './projects/routes.js';
import { cameraRoutes } from './cameras/routes.js';
import { pictureCheckRoutes } from './picture-checks/routes.js';
import { memberRoutes } from './members/routes.js';
import { invitationRoutes } from './members/invitation-routes.js';
import { projectSettingsRoutes } from './project-settings/project-settings-routes.js';
import { projectImageRoutes } from './project-settings/project-image-routes.js';
import { cameraSettingsRoutes } from './camera-lifecycle/camera-settings-routes.js';
import { progressPhotoRoutes } from './progress-photos/routes.js';
import { apiKeyRoutes } from './api-keys/routes.js';
import { keyPageRoutes } from './key-page/routes.js';
import { webAppRoutes } from './web-app/routes.js';
import { ptzRoutes } from './cameras/ptz/routes.js';
import { onvifRoutes } from './cameras/onvif/routes.js';
import { liveViewRoutes } from './live-view/routes.js';
import { anprRoutes } from './anpr/routes.js';
import { anprGateRoutes } from './anpr/gate-routes.js';
import { recordingReadRoutes } from './recordings/read-routes.js';
import { recordingWriteRoutes } from './recordings/write-routes.js';
import { adminRoutes } from './admin/routes.js';
import { auditRoutes } from './audit/routes.js';
import { providerSignInRoutes } from './auth/provider-routes.js';
import { proxyRoutes } from './proxy/routes.js';
import { aiProxyRoutes } from './ai-proxy/routes.js';
import { oauthRoutes } from './oauth/routes.js';
import { developerAppRoutes } from './developer-apps/routes.js';
import { connectorRoutes } from './connectors/framework/routes.js';
import { bimRoutes } from './bim/routes.js';
import { weatherRoutes } from './weather/routes.js';
import { videoWallRoutes } from './video-walls/routes.js';
import { commentRoutes } from './comments/routes.js';
import { mediaHubRoutes } from './media-hub/routes.js';
import { webhookRoutes } from './webhooks/routes.js';
import { recorderLinkRoutes } from './recorder-links/routes.js';

export interface PlatformAppOptions {
  config: PlatformConfig;
  db: PlatformDb;
  logger?: FastifyServerOptions['logger'];
}

/** Each feature's services, in an order where every plugin comes after the ones it needs. */
export const FEATURES = [
  secretsFeature,
  outboxFeature,
  auditFeature,
  lifecycleFeature,
  notificationsFeature,
  directoryFeature,
  apiKeysFeature,
  oauthFeature,
  authFeature,
  camerasFeature,
  projectsFeature,
  membersFeature,
  workFeature,
  liveViewFeature,
  recordingsFeature,
  anprFeature,
  cameraLifecycleFeature,
  projectSettingsFeature,
  adminFeature,
  weatherFeature,
  videoWallsFeature,
  commentsFeature,
  bimFeature,
  mediaHubFeature,
  connectorsFeature,
  webhooksFeature,
  mqttFeature,
  mailFeature,
  recorderLinksFeature,
  pictureChecksFeature,
];

/** The routes, in the order of the OpenAPI document. */
export const ROUTES = [
  healthRoutes,
  metricsRoutes,
  authRoutes,
  userRoutes,
  mailRoutes,
  notificationRoutes,
  projectRoutes,
  cameraRoutes,
  pictureCheckRoutes,
  memberRoutes,
  invitationRoutes,
  projectSettingsRoutes,
  projectImageRoutes,
  cameraSettingsRoutes,
  progressPhotoRoutes,
  apiKeyRoutes,
  keyPageRoutes,
  webAppRoutes,
  ptzRoutes,
  onvifRoutes,
  liveViewRoutes,
  anprRoutes,
  anprGateRoutes,
  recordingReadRoutes,
  recordingWriteRoutes,
  adminRoutes,
  auditRoutes,
  providerSignInRoutes,
  proxyRoutes,
  aiProxyRoutes,
  oauthRoutes,
  developerAppRoutes,
  connectorRoutes,
  bimRoutes,
  weatherRoutes,
  videoWallRoutes,
  commentRoutes,
  mediaHubRoutes,
  webhookRoutes,
  recorderLinkRoutes,
];

export async function buildPlatformApp(opts: PlatformAppOptions): Promise<FastifyInstance> {
  const app = createBaseApp({
    logger: opts.logger,
    bodyLimit: opts.config.bodyLimit,
    trustProxy: opts.config.trustProxy,
    limits: opts.config.httpLimits,
    corsOrigins: opts.config.corsOrigins,
    metrics: opts.config.metrics,
  });
  await app.register(infrastructure, { config: opts.config, db: opts.db });
  for (const feature of FEATURES) await app.register(feature);
  await app.register(accessFeature);
  await app.register(explainerFeature);
  await registerOpenApi(app);
  for (const routes of ROUTES) await app.register(routes);
  return app;
}
