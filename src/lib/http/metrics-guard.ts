// Who may read /metrics (docs/deploy.md, Metrics): the bearer token of OVERLOOK_METRICS_TOKEN, compared in
// constant time, or a client address inside OVERLOOK_METRICS_ALLOW. The address is the one the service
// sees: the connection's, or X-Forwarded-For's where the service trusts a proxy (OVERLOOK_TRUST_PROXY).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { ApiError } from '../errors.js';
import { bearerToken } from '../auth/bearer.js';
import type { MetricsConfig } from '../config/metrics-config.js';
import { inNetworks, parseAddress } from '../net/networks.js';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return null;
  return bearerToken(h) ?? null;
}

/** The route-level onRequest hook of /metrics: lets an allowed scraper through, refuses everyone else. */
export function metricsGuard(config: MetricsConfig): onRequestHookHandler {
  // Both sides hashed to the same length, so the comparison takes the same time whatever was sent.
  const expected = config.token === null ? null : digest(config.token);
  return (req, _reply, done) => {
    if (expected) {
      const sent = bearer(req);
      if (sent !== null && timingSafeEqual(digest(sent), expected)) return done();
    }
    if (config.allow.length > 0) {
      const address = parseAddress(req.ip);
      if (address && inNetworks(address, config.allow)) return done();
    }
    if (expected) {
      return done(
        new ApiError('UNAUTHORIZED', 'Reading the metrics needs Authorization: Bearer <OVERLOOK_METRICS_TOKEN>', {
          headers: { 'www-authenticate': 'Bearer realm="overlook-metrics"' },
        }),
      );
    }
    done(new ApiError('PERMISSION_DENIED', 'This address may not read the metrics (OVERLOOK_METRICS_ALLOW)'));
  };
}
