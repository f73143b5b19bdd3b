// The Labs API (`overlook labs`, 127.0.0.1:3300). Only `Authorization: Bearer <JWT>`; `x-api-key` and
// API keys are refused (docs/access-model.md). No Labs operation is specified yet, so it offers only `GET /me`.
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { MetricsConfig } from '../lib/config/metrics-config.js';
import { buildJwtServiceApp } from '../lib/services/jwt-service-app.js';

export const buildLabsApp = (opts: { apiUrl: string; logger?: FastifyServerOptions['logger']; metrics?: MetricsConfig }): Promise<FastifyInstance> =>
  buildJwtServiceApp({ name: 'labs', apiUrl: opts.apiUrl, headers: ['authorization'], logger: opts.logger, metrics: opts.metrics });
