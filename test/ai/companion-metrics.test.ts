// /metrics on the MCP, AI and Labs services (docs/deploy.md, Metrics): off unless configured, then behind
// the token, with the requests each service answered under their route templates.
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildAiApp } from '../../src/ai/app.js';
import { buildLabsApp } from '../../src/labs/app.js';
import { buildMcpApp } from '../../src/mcp/app.js';
import { METRICS_OFF, metricsConfig, type MetricsConfig } from '../../src/lib/config/metrics-config.js';
import { parsePrometheus, sampleValue } from '../helpers/prometheus.js';

const TOKEN = 'companion-scrape-token-7';
// Nothing listens there: only /health and /metrics are called, and neither asks the main API.
const apiUrl = 'http://127.0.0.1:9';
const apps: FastifyInstance[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

const builders: [string, (metrics: MetricsConfig) => Promise<FastifyInstance>][] = [
  ['mcp', (metrics) => buildMcpApp({ apiUrl, resourceUrl: 'http://localhost/mcp', logger: false, metrics })],
  ['ai', (metrics) => buildAiApp({ apiUrl, logger: false, metrics })],
  ['labs', (metrics) => buildLabsApp({ apiUrl, logger: false, metrics })],
];

async function ready(app: Promise<FastifyInstance>): Promise<FastifyInstance> {
  const a = await app;
  apps.push(a);
  await a.ready();
  return a;
}

// The MCP server checks the Host header (DNS rebinding): the one of its resource URL.
const host = { host: 'localhost' };

describe.each(builders)('%s /metrics', (_name, build) => {
  it('is refused without the token and answers a scrape with it', async () => {
    const app = await ready(build(metricsConfig({ OVERLOOK_METRICS_TOKEN: TOKEN })));
    expect((await app.inject({ method: 'GET', url: '/health', headers: host })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/metrics', headers: host })).statusCode).toBe(401);
    const res = await app.inject({ method: 'GET', url: '/metrics', headers: { ...host, authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const { samples, types } = parsePrometheus(res.body);
    expect(sampleValue(samples, 'overlook_http_requests_total', { method: 'GET', route: '/health', status_code: '200' })).toBe(1);
    expect(types.get('process_cpu_seconds_total')).toBe('counter');
  });

  it('does not exist when not configured', async () => {
    const app = await ready(build(METRICS_OFF));
    const res = await app.inject({ method: 'GET', url: '/metrics', headers: { ...host, authorization: `Bearer ${TOKEN}` } });
    // An unknown path: 404, or on AI and Labs 401 first, as every path but the open ones.
    expect([401, 404]).toContain(res.statusCode);
    expect(res.body).not.toContain('overlook_http');
    expect(app.metrics).toBeNull();
  });
});
