// The main API's /metrics (docs/deploy.md, Metrics), on SQLite and PostgreSQL: requests under their route
// template, access refusals by code, the token check, the gauges read at scrape time (the media render
// queue from the database), and the route kept out of the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { parsePrometheus, sampleValue } from '../../helpers/prometheus.js';

const TOKEN = 'platform-scrape-token-42';
let tp: TestPlatform;
let owner: Person;
let project: { exid: string };
let camera: { exid: string };

beforeAll(async () => {
  // Renders stay queued: this node runs none.
  tp = await buildTestPlatform({ OVERLOOK_METRICS_TOKEN: TOKEN, OVERLOOK_MEDIA_JOBS: '0' });
  owner = await tp.person('metrics-owner');
  project = await tp.project(owner, 'Metrics site');
  camera = await tp.camera(owner, project.exid, 'Metrics cam');
});
afterAll(() => tp?.close());

async function scrape() {
  const res = await tp.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return { body: res.body, ...parsePrometheus(res.body) };
}

const refusals = async (code: string) => sampleValue((await scrape()).samples, 'overlook_access_refusals_total', { code }) ?? 0;

describe('platform metrics', () => {
  it('counts a request under its route template and status, with no id or credential in any label', async () => {
    for (let i = 0; i < 2; i++) {
      expect((await tp.app.inject({ method: 'GET', url: `/v2/projects/${project.exid}`, headers: owner.auth })).statusCode).toBe(200);
    }
    const missing = await tp.app.inject({ method: 'GET', url: '/v2/projects/nope-0000', headers: owner.auth });
    expect(missing.statusCode).toBe(404);
    const { body, samples } = await scrape();
    expect(sampleValue(samples, 'overlook_http_requests_total', { method: 'GET', route: '/v2/projects/:exid', status_code: '200' })).toBe(2);
    expect(sampleValue(samples, 'overlook_http_requests_total', { method: 'GET', route: '/v2/projects/:exid', status_code: '404' })).toBe(1);
    expect(sampleValue(samples, 'overlook_http_request_duration_seconds_count', { method: 'GET', route: '/v2/projects/:exid', status_code: '200' })).toBe(2);
    expect(sampleValue(samples, 'overlook_http_requests_total', { method: 'POST', route: '/v2/auth/login', status_code: '200' })).toBe(1);
    for (const secret of [project.exid, camera.exid, owner.token, owner.email, 'nope-0000', TOKEN]) expect(body).not.toContain(secret);
    for (const s of samples) if (s.labels.route) expect(s.labels.route === 'unmatched' || s.labels.route.startsWith('/'), s.labels.route).toBe(true);
  });

  it('counts access refusals by their code', async () => {
    const key = await tp.key(owner, { projects: [project.exid], scopes: ['user:info'] });
    const before = {
      scope: await refusals('INSUFFICIENT_SCOPE'),
      unauthorized: await refusals('UNAUTHORIZED'),
      closed: await refusals('ENDPOINT_CLOSED_TO_KEYS'),
    };
    // A key without the scope, no credential, an unknown key, a key on a people-only route.
    expect((await tp.app.inject({ method: 'GET', url: `/v2/projects/${project.exid}`, headers: key.headers })).statusCode).toBe(403);
    expect((await tp.app.inject({ method: 'GET', url: `/v2/projects/${project.exid}` })).statusCode).toBe(401);
    expect((await tp.app.inject({ method: 'GET', url: '/v2/projects', headers: { 'x-access-key': 'olk_unknown' } })).statusCode).toBe(401);
    expect((await tp.app.inject({ method: 'GET', url: '/v2/api-keys', headers: key.headers })).statusCode).toBe(403);
    expect(await refusals('INSUFFICIENT_SCOPE')).toBe(before.scope + 1);
    expect(await refusals('UNAUTHORIZED')).toBe(before.unauthorized + 2);
    expect(await refusals('ENDPOINT_CLOSED_TO_KEYS')).toBe(before.closed + 1);
    const { samples } = await scrape();
    expect(sampleValue(samples, 'overlook_http_requests_total', { method: 'GET', route: '/v2/projects/:exid', status_code: '403' })).toBeGreaterThanOrEqual(1);
  });

  it('refuses /metrics without the token (a person’s JWT is not it), and keeps it out of the OpenAPI document', async () => {
    for (const headers of [{}, owner.auth, { authorization: 'Bearer not-the-metrics-token' }]) {
      const res = await tp.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="overlook-metrics"');
    }
    const doc = (await tp.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
    expect(Object.keys(doc.paths).length).toBeGreaterThan(30);
  });

  it('reads the live streams, the render queue and the held work when scraped', async () => {
    const render = (title: string) =>
      tp.app.inject({
        method: 'POST',
        url: `/v2/projects/${project.exid}/media-hub/timelapses`,
        headers: owner.auth,
        payload: { title, camera_exid: camera.exid, from_date: '2026-11-10T02:00:00Z', to_date: '2026-11-10T04:00:00Z', duration: 1, width: 64 },
      });
    const before = sampleValue((await scrape()).samples, 'overlook_media_jobs_queued');
    expect(before).toBe(0);
    for (const title of ['first', 'second', 'third']) {
      const res = await render(title);
      expect(res.statusCode, res.body).toBe(201);
    }
    const { samples, types } = await scrape();
    expect(sampleValue(samples, 'overlook_media_jobs_queued')).toBe(3);
    expect(sampleValue(samples, 'overlook_media_jobs_running')).toBe(0);
    // The count stops at its cap: the query reads no more rows than that.
    expect(await servicesOf(tp.app).mediaJobs.queued(2)).toBe(2);
    expect(types.get('overlook_live_streams')).toBe('gauge');
    expect(sampleValue(samples, 'overlook_live_streams', { state: 'running' })).toBe(0);
    expect(sampleValue(samples, 'overlook_live_streams', { state: 'starting' })).toBe(0);
    expect(sampleValue(samples, 'overlook_live_viewers')).toBe(0);
    for (const kind of ['camera', 'retention', 'media', 'live', 'recorder-node']) expect(sampleValue(samples, 'overlook_work_leases', { kind })).toBeDefined();
    expect(types.get('process_resident_memory_bytes')).toBe('gauge');
  });
});
