// The AI API (`overlook ai`, 127.0.0.1:3200). It takes the platform JWT as `Authorization: Bearer`
// or `x-api-key`, and refuses API keys (docs/access-model.md). It offers who the caller is (`GET /me`)
// and the activity timeline of a project's cameras (docs/analysis.md), read from the main API as the caller.
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { MetricsConfig } from '../lib/config/metrics-config.js';
import { buildJwtServiceApp } from '../lib/services/jwt-service-app.js';
import { registerActivityRoutes } from './activity-routes.js';

export async function buildAiApp(opts: { apiUrl: string; logger?: FastifyServerOptions['logger']; metrics?: MetricsConfig }): Promise<FastifyInstance> {
  const app = await buildJwtServiceApp({
    name: 'ai',
    apiUrl: opts.apiUrl,
    headers: ['authorization', 'x-api-key'],
    logger: opts.logger,
    metrics: opts.metrics,
  });
  registerActivityRoutes(app, opts.apiUrl);
  return app;
}
