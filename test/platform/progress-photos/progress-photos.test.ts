// Progress photos (projects:read; writes need editor): access rules, then behaviour.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextSendAt } from '../../../src/platform/progress-photos/schedule.js';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';
import { checkEndpointAccess, type AccessWorld, type EndpointSpec } from '../../helpers/access.js';

let tp: TestPlatform;
beforeAll(async () => {
  tp = await buildTestPlatform();
});
afterAll(() => tp.close());

const body = (projectExid: string, cameraExid: string, extra: Record<string, unknown> = {}) => ({
  project_exid: projectExid,
  title: 'Weekly overview',
  camera_exids: [cameraExid],
  recipients: ['pm@example.com'],
  ...extra,
});

async function create(w: Pick<AccessWorld, 'owner'>, projectExid: string, cameraExid: string): Promise<string> {
  const res = await tp.app.inject({ method: 'POST', url: '/v2/progress-photos', headers: w.owner.auth, payload: body(projectExid, cameraExid) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

const withPhotos = async (_tp: TestPlatform, w: AccessWorld) => ({
  id: await create(w, w.projectExid, w.cameraExid),
  other: await create(w, w.otherProjectExid, w.otherCameraExid),
});

const endpoints: EndpointSpec[] = [
  {
    method: 'GET',
    url: (w) => `/v2/projects/${w.projectExid}/progress-photos`,
    otherUrl: (w) => `/v2/projects/${w.otherProjectExid}/progress-photos`,
    scopes: ['projects:read'],
    role: 'viewer',
    okStatus: 200,
  },
  {
    method: 'POST',
    url: () => '/v2/progress-photos',
    otherUrl: () => '/v2/progress-photos',
    payload: (w) => body(w.projectExid, w.cameraExid),
    otherPayload: (w) => body(w.otherProjectExid, w.otherCameraExid),
    scopes: ['projects:read'],
    role: 'editor',
    okStatus: 201,
  },
  {
    method: 'GET',
    url: (w) => `/v2/progress-photos/${w.extra.id}`,
    otherUrl: (w) => `/v2/progress-photos/${w.extra.other}`,
    scopes: ['projects:read'],
    role: 'viewer',
    okStatus: 200,
    setup: withPhotos,
  },
  {
    method: 'PATCH',
    url: (w) => `/v2/progress-photos/${w.extra.id}`,
    otherUrl: (w) => `/v2/progress-photos/${w.extra.other}`,
    payload: () => ({ title: 'Renamed' }),
    scopes: ['projects:read'],
    role: 'editor',
    okStatus: 200,
    setup: withPhotos,
  },
  {
    method: 'DELETE',
    url: (w) => `/v2/progress-photos/${w.extra.id}`,
    otherUrl: (w) => `/v2/progress-photos/${w.extra.other}`,
    scopes: ['projects:read'],
    role: 'editor',
    okStatus: 204,
    setup: withPhotos,
  },
];

describe('access rules', () => {
  for (const spec of endpoints)
    it(`${spec.method} ${spec.url({ projectExid: '{exid}', extra: { id: '{id}' } } as never)}`, () => checkEndpointAccess(tp, spec));

  it('an unknown id is refused to a key like another project’s (no existence leak), 404 to a person', async () => {
    const owner = await tp.person('owner');
    const p = await tp.project(owner);
    const key = await tp.key(owner, { projects: [p.exid], scopes: ['projects:read'] });
    const byKey = await tp.app.inject({ method: 'GET', url: '/v2/progress-photos/00000000-0000-0000-0000-000000000000', headers: key.headers });
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().code).toBe('PROJECT_NOT_ALLOWED');
    expect((await tp.app.inject({ method: 'GET', url: '/v2/progress-photos/00000000-0000-0000-0000-000000000000', headers: owner.auth })).statusCode).toBe(404);
  });
});

describe('progress photos', () => {
  it('create, get, edit, list, delete', async () => {
    const owner = await tp.person('owner');
    const p = await tp.project(owner);
    const c1 = await tp.camera(owner, p.exid, 'North');
    const c2 = await tp.camera(owner, p.exid, 'South');
    const res = await tp.app.inject({
      method: 'POST',
      url: '/v2/progress-photos',
      headers: owner.auth,
      payload: body(p.exid, c1.exid, {
        recipients: ['PM@Example.com', 'pm@example.com', 'qs@example.com'],
        schedule: 'weekly',
        days: ['fri', 'mon'],
        send_at: '07:30',
      }),
    });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({
      project_exid: p.exid,
      camera_exids: [c1.exid],
      recipients: ['pm@example.com', 'qs@example.com'],
      schedule: 'weekly',
      days: ['mon', 'fri'],
      send_at: '07:30',
      provider: 'email',
      is_paused: false,
      creator_email: owner.email,
    });
    expect(['Monday', 'Friday']).toContain(new Date(created.next_send_at).toLocaleDateString('en-GB', { weekday: 'long', timeZone: 'UTC' }));

    const edit = await tp.app.inject({
      method: 'PATCH',
      url: `/v2/progress-photos/${created.id}`,
      headers: owner.auth,
      payload: { camera_exids: [c1.exid, c2.exid], is_paused: true },
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json()).toMatchObject({ camera_exids: [c1.exid, c2.exid], is_paused: true, next_send_at: null, title: 'Weekly overview' });
    expect((await tp.app.inject({ method: 'GET', url: `/v2/progress-photos/${created.id}`, headers: owner.auth })).json().is_paused).toBe(true);
    const list = (await tp.app.inject({ method: 'GET', url: `/v2/projects/${p.exid}/progress-photos`, headers: owner.auth })).json();
    expect(list.map((x: { id: string }) => x.id)).toEqual([created.id]);
    expect((await tp.app.inject({ method: 'DELETE', url: `/v2/progress-photos/${created.id}`, headers: owner.auth })).statusCode).toBe(204);
    expect((await tp.app.inject({ method: 'GET', url: `/v2/progress-photos/${created.id}`, headers: owner.auth })).statusCode).toBe(404);
    expect((await tp.app.inject({ method: 'GET', url: `/v2/projects/${p.exid}/progress-photos`, headers: owner.auth })).json()).toEqual([]);
  });

  it('bad input is a 400 naming the field, and an edit that fails changes nothing', async () => {
    const owner = await tp.person('owner');
    const p = await tp.project(owner);
    const other = await tp.project(owner, 'Other');
    const c = await tp.camera(owner, p.exid);
    const foreign = await tp.camera(owner, other.exid);
    const cases: [Record<string, unknown>, string][] = [
      [{ camera_exids: [foreign.exid] }, 'camera_exids'],
      [{ camera_exids: [] }, 'camera_exids'],
      [{ recipients: ['not-an-email'] }, 'recipients'],
      [{ schedule: 'weekly' }, 'days'],
      [{ schedule: 'weekly', days: ['fun'] }, 'days'],
      [{ send_at: '25:00' }, 'send_at'],
      [{ title: '   ' }, 'title'],
      [{ schedule: 'hourly' }, 'schedule'],
      [{ unknown: 1 }, 'unknown'],
    ];
    for (const [extra, field] of cases) {
      const res = await tp.app.inject({ method: 'POST', url: '/v2/progress-photos', headers: owner.auth, payload: body(p.exid, c.exid, extra) });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().message, JSON.stringify(extra)).toContain(field);
    }
    const id = await create({ owner }, p.exid, c.exid);
    const before = (await tp.app.inject({ method: 'GET', url: `/v2/progress-photos/${id}`, headers: owner.auth })).json();
    const bad = await tp.app.inject({
      method: 'PATCH',
      url: `/v2/progress-photos/${id}`,
      headers: owner.auth,
      payload: { title: 'New', recipients: ['nope'] },
    });
    expect(bad.statusCode).toBe(400);
    expect((await tp.app.inject({ method: 'GET', url: `/v2/progress-photos/${id}`, headers: owner.auth })).json()).toEqual(before);
  });

  it('the next delivery is computed in the project’s time zone', () => {
    const now = new Date('2026-03-27T12:00:00Z'); // a Friday
    // Daily at 09:00 in Dublin (UTC+0 in March before the 29th): tomorrow 09:00Z.
    expect(nextSendAt('daily', [], '09:00', 'Europe/Dublin', now, false)).toBe('2026-03-28T09:00:00.000Z');
    // Across the spring change (29 March): Monday 09:00 Dublin is 08:00Z.
    expect(nextSendAt('weekly', ['mon'], '09:00', 'Europe/Dublin', now, false)).toBe('2026-03-30T08:00:00.000Z');
    // Later today in New York (UTC-4): 17:00 local is 21:00Z the same day.
    expect(nextSendAt('daily', [], '17:00', 'America/New_York', now, false)).toBe('2026-03-27T21:00:00.000Z');
    expect(nextSendAt('daily', [], '17:00', 'UTC', now, true)).toBeNull();
  });
});
