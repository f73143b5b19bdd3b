// The AI API (`overlook ai`, 127.0.0.1:3200). It takes the platform JWT as `Authorization: Bearer`
// or `x-api-key`, and refuses API keys (docs/access-model.md). It answers who the caller is (`GET /me`)
// and serves the gate report of a project (gate-report/, docs/plates.md).
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { MetricsConfig } from '../lib/config/metrics-config.js';
import { buildJwtServiceApp } from '../lib/services/jwt-service-app.js';
import { gateReportRoutes } from './gate-report/routes.js';

export async function buildAiApp(opts: { apiUrl: string; logger?: FastifyServerOptions['logger']; metrics?: MetricsConfig }): Promise<FastifyInstance> {
  const app = await buildJwtServiceApp({
    name: 'ai',
    apiUrl: opts.apiUrl,
    headers: ['authorization', 'x-api-key'],
    logger: opts.logger,
    metrics: opts.metrics,
  });
  await app.register(gateReportRoutes, { apiUrl: opts.apiUrl });
  return app;
}
