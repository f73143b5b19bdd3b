// The metrics every service shares (docs/deploy.md, Metrics): requests by route template (never the raw
// path), refusals by code, the token and address checks of /metrics, the exposition format, and the
// configuration that turns it all on.
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createBaseApp } from '../../../src/lib/http/base-app.js';
import { registerMetricsRoute } from '../../../src/lib/http/metrics.js';
import { ApiError } from '../../../src/lib/errors.js';
import { METRICS_OFF, metricsConfig, type MetricsConfig } from '../../../src/lib/config/metrics-config.js';
import { parsePrometheus, sampleValue } from '../../helpers/prometheus.js';

const TOKEN = 'scrape-token-0123456789';
const bearer = { authorization: `Bearer ${TOKEN}` };
const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

async function build(config: MetricsConfig, trustProxy = false): Promise<FastifyInstance> {
  const app = createBaseApp({ bodyLimit: 1024, logger: false, metrics: config, trustProxy });
  apps.push(app);
  app.get('/things/:id', async (req) => ({ id: (req.params as { id: string }).id }));
  app.post('/things/:id/notes', async (_req, reply) => reply.code(201).send({ ok: true }));
  app.get('/locked/:id', async () => {
    throw new ApiError('INSUFFICIENT_SCOPE', 'no');
  });
  app.get('/slow-down', async () => {
    throw new ApiError('TOO_MANY_REQUESTS', 'wait');
  });
  registerMetricsRoute(app);
  await app.ready();
  return app;
}

async function scrape(app: FastifyInstance, headers: Record<string, string> = bearer) {
  const res = await app.inject({ method: 'GET', url: '/metrics', headers });
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  return { res, ...parsePrometheus(res.body) };
}

describe('request metrics', () => {
  it('counts a request under its route template, method and status, never its raw path', async () => {
    const app = await build({ token: TOKEN, allow: [] });
    for (const id of ['cam-8f3a', 'cam-77b1', 'olk_secretish']) await app.inject({ method: 'GET', url: `/things/${id}?token=abc123` });
    await app.inject({ method: 'POST', url: '/things/cam-8f3a/notes', payload: {} });
    await app.inject({ method: 'GET', url: '/no/such/path/9f9f' });
    const { res, samples, types } = await scrape(app);

    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(types.get('overlook_http_requests_total')).toBe('counter');
    expect(types.get('overlook_http_request_duration_seconds')).toBe('histogram');
    expect(sampleValue(samples, 'overlook_http_requests_total', { method: 'GET', route: '/things/:id', status_code: '200' })).toBe(3);
    expect(sampleValue(samples, 'overlook_http_requests_total', { method: 'POST', route: '/things/:id/notes', status_code: '201' })).toBe(1);
    expect(sampleValue(samples, 'overlook_http_requests_total', { method: 'GET', route: 'unmatched', status_code: '404' })).toBe(1);
    const count = sampleValue(samples, 'overlook_http_request_duration_seconds_count', { method: 'GET', route: '/things/:id', status_code: '200' });
    expect(count).toBe(3);
    expect(sampleValue(samples, 'overlook_http_request_duration_seconds_bucket', { route: '/things/:id', method: 'GET', le: '+Inf' })).toBe(3);
    // Buckets are cumulative.
    const buckets = samples.filter((s) => s.name === 'overlook_http_request_duration_seconds_bucket' && s.labels.route === '/things/:id').map((s) => s.value);
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));

    // No id, token or path of a request appears in any label; /metrics does not count itself.
    for (const secret of ['cam-8f3a', 'cam-77b1', 'olk_secretish', 'abc123', '9f9f']) expect(res.body).not.toContain(secret);
    expect(samples.some((s) => s.labels.route === '/metrics')).toBe(false);
    const second = await scrape(app);
    expect(second.samples.some((s) => s.labels.route === '/metrics')).toBe(false);
  });

  it('counts a HEAD request once, under HEAD', async () => {
    const app = await build({ token: TOKEN, allow: [] });
    await app.inject({ method: 'HEAD', url: '/things/a' });
    const { samples } = await scrape(app);
    expect(sampleValue(samples, 'overlook_http_requests_total', { method: 'HEAD', route: '/things/:id' })).toBe(1);
    expect(sampleValue(samples, 'overlook_http_requests_total', { method: 'GET', route: '/things/:id' })).toBeUndefined();
  });

  it('counts refusals (401, 403, 429) by their error code, and nothing else', async () => {
    const app = await build({ token: TOKEN, allow: [] });
    await app.inject({ method: 'GET', url: '/locked/1' });
    await app.inject({ method: 'GET', url: '/locked/2' });
    await app.inject({ method: 'GET', url: '/slow-down' });
    await app.inject({ method: 'GET', url: '/things/1' });
    await app.inject({ method: 'POST', url: '/things/1/notes', payload: '{', headers: { 'content-type': 'application/json' } });
    // A refused scrape is not an access refusal of the API.
    await app.inject({ method: 'GET', url: '/metrics' });
    const { samples } = await scrape(app);
    expect(sampleValue(samples, 'overlook_access_refusals_total', { code: 'INSUFFICIENT_SCOPE' })).toBe(2);
    expect(sampleValue(samples, 'overlook_access_refusals_total', { code: 'TOO_MANY_REQUESTS' })).toBe(1);
    expect(
      samples
        .filter((s) => s.name === 'overlook_access_refusals_total')
        .map((s) => s.labels.code)
        .sort(),
    ).toEqual(['INSUFFICIENT_SCOPE', 'TOO_MANY_REQUESTS']);
    expect(sampleValue(samples, 'overlook_http_requests_total', { route: '/locked/:id', status_code: '403' })).toBe(2);
  });

  it('exports the process metrics once, in each app of the process', async () => {
    const a = await build({ token: TOKEN, allow: [] });
    const b = await build({ token: TOKEN, allow: [] });
    for (const app of [a, b]) {
      const { types } = await scrape(app);
      expect(types.get('process_cpu_user_seconds_total')).toBe('counter');
      expect(types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
    }
    // Each app counts its own requests.
    await a.inject({ method: 'GET', url: '/things/1' });
    expect(sampleValue((await scrape(b)).samples, 'overlook_http_requests_total', { route: '/things/:id' })).toBeUndefined();
  });
});

describe('who may read /metrics', () => {
  it('does not exist when neither a token nor networks are configured', async () => {
    const app = await build(METRICS_OFF);
    expect((await app.inject({ method: 'GET', url: '/metrics', headers: bearer })).statusCode).toBe(404);
    expect(app.metrics).toBeNull();
  });

  it('with a token: 401 with a challenge without it or with a wrong one, 200 with it', async () => {
    const app = await build({ token: TOKEN, allow: [] });
    for (const headers of [{}, { authorization: 'Bearer wrong-token-0123456789' }, { authorization: TOKEN }, { authorization: `Basic ${TOKEN}` }]) {
      const res = await app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="overlook-metrics"');
      expect(res.json().code).toBe('UNAUTHORIZED');
      expect(res.body).not.toContain('overlook_http');
    }
    expect((await app.inject({ method: 'GET', url: '/metrics', headers: bearer })).statusCode).toBe(200);
    // Loopback is not enough when only a token is configured.
    expect((await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(401);
  });

  it('with networks: 403 from elsewhere, 200 from inside (IPv4-mapped IPv6 too)', async () => {
    const app = await build(metricsConfig({ OVERLOOK_METRICS_ALLOW: '127.0.0.1/32, 10.1.0.0/16' }));
    expect((await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '::ffff:10.1.2.3' })).statusCode).toBe(200);
    for (const remoteAddress of ['10.2.0.1', '203.0.113.9', '::1']) {
      const res = await app.inject({ method: 'GET', url: '/metrics', remoteAddress });
      expect(res.statusCode, remoteAddress).toBe(403);
      expect(res.json().code).toBe('PERMISSION_DENIED');
    }
  });

  it('with both: either opens it; a forwarded address counts only where the service trusts the proxy', async () => {
    const both = metricsConfig({ OVERLOOK_METRICS_ALLOW: '10.1.0.0/16', OVERLOOK_METRICS_TOKEN: TOKEN });
    const app = await build(both);
    expect((await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.0.7' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9', headers: bearer })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' })).statusCode).toBe(401);
    const spoofed = { 'x-forwarded-for': '10.1.0.7' };
    expect((await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9', headers: spoofed })).statusCode).toBe(401);
    const proxied = await build(both, true);
    expect((await proxied.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1', headers: spoofed })).statusCode).toBe(200);
  });
});

describe('configuration', () => {
  it('is off by default, and reads the token and networks', () => {
    expect(metricsConfig({})).toEqual(METRICS_OFF);
    const c = metricsConfig({ OVERLOOK_METRICS_TOKEN: TOKEN, OVERLOOK_METRICS_ALLOW: '127.0.0.1/32,::1' });
    expect(c.token).toBe(TOKEN);
    expect(c.allow).toHaveLength(2);
  });

  it('refuses a short or spaced token without printing it, and names a bad network', () => {
    expect(() => metricsConfig({ OVERLOOK_METRICS_TOKEN: 'short-secret' })).toThrow(/OVERLOOK_METRICS_TOKEN must be at least 16 characters/);
    try {
      metricsConfig({ OVERLOOK_METRICS_TOKEN: 'short-secret' });
    } catch (err) {
      expect(String(err)).not.toContain('short-secret');
    }
    expect(() => metricsConfig({ OVERLOOK_METRICS_TOKEN: 'has a space in it, long enough' })).toThrow(/printable ASCII/);
    expect(() => metricsConfig({ OVERLOOK_METRICS_ALLOW: '127.0.0.1/32,localhost' })).toThrow(/OVERLOOK_METRICS_ALLOW: "localhost"/);
  });
});
