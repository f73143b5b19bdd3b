// The AI API (`overlook ai`, 127.0.0.1:3200). It takes the platform JWT as `Authorization: Bearer`
// or `x-api-key`, and refuses API keys (docs/access-model.md). It offers who the caller is (`GET /me`),
// the activity timeline of a project's cameras (docs/analysis.md) and the gate report of a project
// (gate-report/, docs/plates.md), read from the main API as the caller.
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { MetricsConfig } from '../lib/config/metrics-config.js';
import { buildJwtServiceApp } from '../lib/services/jwt-service-app.js';
import { registerActivityRoutes } from './activity-routes.js';
import { gateReportRoutes } from './gate-report/routes.js';

export async function buildAiApp(opts: { apiUrl: string; logger?: FastifyServerOptions['logger']; metrics?: MetricsConfig }): Promise<FastifyInstance> {
  const app = await buildJwtServiceApp({
    name: 'ai',
    apiUrl: opts.apiUrl,
    headers: ['authorization', 'x-api-key'],
    logger: opts.logger,
    metrics: opts.metrics,
  });
  registerActivityRoutes(app, opts.apiUrl);
  await app.register(gateReportRoutes, { apiUrl: opts.apiUrl });
  return app;
}
