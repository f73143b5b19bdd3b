// The AI API (`overlook ai`, 127.0.0.1:3200). It takes the platform JWT as `Authorization: Bearer`
// or `x-api-key`, and refuses API keys (docs/access-model.md). No AI operation is specified yet,
// so it offers only who the caller is (`GET /me`) until one is.
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { MetricsConfig } from '../lib/config/metrics-config.js';
import { buildJwtServiceApp } from '../lib/services/jwt-service-app.js';

export const buildAiApp = (opts: { apiUrl: string; logger?: FastifyServerOptions['logger']; metrics?: MetricsConfig }): Promise<FastifyInstance> =>
  buildJwtServiceApp({ name: 'ai', apiUrl: opts.apiUrl, headers: ['authorization', 'x-api-key'], logger: opts.logger, metrics: opts.metrics });
