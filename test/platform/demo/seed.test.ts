import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_HISTORY_DAYS, seedDemoData } from '../../../src/platform/demo/seed.js';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

// One platform seeded once: seeding draws and stores a week of frames (seconds of CPU).
let tp: TestPlatform;
let demo: NonNullable<Awaited<ReturnType<typeof seedDemoData>>>;
let auth: Record<string, string>;
const app = () => tp.app;
beforeAll(async () => {
  tp = await buildTestPlatform();
  demo = (await seedDemoData(servicesOf(tp.app)))!;
  const login = await tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: demo?.email, password: demo?.password } });
  auth = { authorization: `Bearer ${login.json().token}` };
}, 120_000);
afterAll(() => tp.close());

describe('demo data', () => {
  it('creates a user who can sign in, two projects and three simulated cameras, once', async () => {
    expect(demo).not.toBeNull();
    expect(demo.projects).toHaveLength(2);
    expect(demo.cameras).toHaveLength(3);
    const login = await tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: demo.email, password: demo.password } });
    expect(login.statusCode).toBe(200);
    const cams = (await tp.app.inject({ method: 'GET', url: '/v2/cameras', headers: auth })).json();
    expect(cams.map((c: { exid: string }) => c.exid).sort()).toEqual([...demo.cameras].sort());
    expect(cams.every((c: { status: string; kind: string }) => c.status === 'online' && c.kind === 'simulated')).toBe(true);
    const note = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${demo.cameras[0]}/last-public-note`, headers: auth });
    expect(note.statusCode).toBe(200);
    expect(await seedDemoData(servicesOf(tp.app))).toBeNull();
  });
});

describe('demo history', () => {
  it('a week of frames an hour on every camera, kept that long', async () => {
    for (const exid of demo.cameras) {
      const res = await app().inject({ method: 'GET', url: `/v2/cameras/${exid}/recordings/snapshots?limit=1`, headers: auth });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().meta.total_count).toBe(DEMO_HISTORY_DAYS * 24);
      const oldest = await app().inject({ method: 'GET', url: `/v2/cameras/${exid}/recordings/snapshots/oldest`, headers: auth });
      expect(oldest.statusCode).toBe(200);
      const latest = await app().inject({ method: 'GET', url: `/v2/cameras/${exid}/recordings/snapshots/latest`, headers: auth });
      expect(latest.statusCode).toBe(200);
      const settings = await app().inject({ method: 'GET', url: `/v2/cameras/${exid}/cloud-recordings`, headers: auth });
      expect(settings.statusCode).toBe(200);
      expect(settings.json()).toMatchObject({ status: 'on', storage_duration: DEMO_HISTORY_DAYS });
    }
    // The frames span the week: the oldest is about seven days before the newest.
    const page = await app().inject({ method: 'GET', url: `/v2/cameras/${demo.cameras[0]}/recordings/snapshots?order=asc&limit=1`, headers: auth });
    const first = Date.parse(page.json().data[0].created_at);
    expect(Date.now() - first).toBeGreaterThan((DEMO_HISTORY_DAYS - 1) * 86_400_000);
  });

  it('plate reads at the gate every day, suppliers on the watch list, the gate camera set', async () => {
    const gate = demo.cameras[1]!;
    const res = await app().inject({ method: 'GET', url: `/v2/cameras/${gate}/anpr?limit=100`, headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const events = (body.data ?? body.events ?? body) as { plate: string; captured_at: string; direction: string }[];
    expect(events.length).toBeGreaterThan(30);
    const days = new Set(events.map((e) => e.captured_at.slice(0, 10)));
    expect(days.size).toBeGreaterThanOrEqual(DEMO_HISTORY_DAYS - 1);
    expect(new Set(events.map((e) => e.direction))).toEqual(new Set(['in', 'out']));
    const watch = await app().inject({ method: 'GET', url: `/v2/projects/${demo.projects[0]}/anpr/watchlist`, headers: auth });
    expect(watch.statusCode).toBe(200);
    expect(JSON.stringify(watch.json())).toContain('Readymix Concrete');
  });

  it('comments on both projects, media hub items ready at once, and a video wall', async () => {
    const [tower, bridge] = demo.projects;
    const comments = await app().inject({ method: 'GET', url: `/v2/projects/${tower}/comments`, headers: auth });
    expect(comments.statusCode, comments.body).toBe(200);
    expect(comments.json().data.length).toBe(3);
    expect((await app().inject({ method: 'GET', url: `/v2/projects/${bridge}/comments`, headers: auth })).json().data.length).toBe(1);
    const media = await app().inject({ method: 'GET', url: `/v2/projects/${tower}/media-hub`, headers: auth });
    expect(media.statusCode, media.body).toBe(200);
    const items = media.json().data as { title: string; status: string; type: string }[];
    expect(items.map((i) => i.type).sort()).toEqual(['file', 'url']);
    expect(items.every((i) => i.status === 'completed')).toBe(true);
    const walls = await app().inject({ method: 'GET', url: `/v2/video-walls?project_exid=${tower}`, headers: auth });
    expect(walls.json().map((w: { name: string; tiles: unknown[] }) => [w.name, w.tiles.length])).toEqual([['Site office', 2]]);
  });
});
