// The recorder's /metrics (docs/deploy.md, Metrics), opened here by address: requests under their route
// template, refusals by code, devices by state and segments written as a file device records.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecorder, type TestRecorder } from '../helpers/recorder.js';
import { parsePrometheus, sampleValue } from '../helpers/prometheus.js';

let r: TestRecorder;

beforeAll(async () => {
  r = await buildTestRecorder({ OVERLOOK_METRICS_ALLOW: '127.0.0.1/32' });
});
afterAll(() => r?.close());

async function scrape() {
  const res = await r.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return { body: res.body, ...parsePrometheus(res.body) };
}

describe('recorder metrics', () => {
  it('answers only the allowed addresses, and is not in the OpenAPI document', async () => {
    const res = await r.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.5', headers: r.bearer(r.adminToken) });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('PERMISSION_DENIED');
    const doc = (await r.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
  });

  it('counts devices by state and the segments written as a device records, and requests by template', async () => {
    const before = await scrape();
    expect(sampleValue(before.samples, 'overlook_recorder_devices', { state: 'recording' })).toBe(0);
    expect(sampleValue(before.samples, 'overlook_recorder_webrtc_viewers')).toBe(0);
    const add = await r.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: r.bearer(r.adminToken),
      payload: { name: 'Loop', type: 'file', stream_config: { path: r.video } },
    });
    expect(add.statusCode, add.body).toBe(201);
    const id = add.json().id as string;
    await expect
      .poll(async () => sampleValue((await scrape()).samples, 'overlook_recorder_segments_written_total') ?? 0, { timeout: 30_000, interval: 250 })
      .toBeGreaterThanOrEqual(2);
    expect(r.app.recorder.index.written).toBeGreaterThanOrEqual(2);
    await expect.poll(async () => sampleValue((await scrape()).samples, 'overlook_recorder_devices', { state: 'recording' }), { timeout: 30_000 }).toBe(1);

    expect((await r.app.inject({ method: 'GET', url: `/api/devices/${id}`, headers: r.bearer(r.userToken) })).statusCode).toBe(200);
    expect((await r.app.inject({ method: 'GET', url: `/api/devices/${id}` })).statusCode).toBe(401);
    const { body, samples } = await scrape();
    expect(sampleValue(samples, 'overlook_http_requests_total', { method: 'GET', route: '/api/devices/:id', status_code: '200' })).toBe(1);
    expect(sampleValue(samples, 'overlook_http_requests_total', { method: 'GET', route: '/api/devices/:id', status_code: '401' })).toBe(1);
    expect(sampleValue(samples, 'overlook_access_refusals_total', { code: 'UNAUTHORIZED' })).toBeGreaterThanOrEqual(1);
    for (const secret of [id, r.adminToken, r.userToken]) expect(body).not.toContain(secret);
  });
});
