// Projects (projects:read): access rules per endpoint, then behaviour.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';
import { checkEndpointAccess, type EndpointSpec } from '../../helpers/access.js';

let tp: TestPlatform;
beforeAll(async () => {
  tp = await buildTestPlatform();
});
afterAll(() => tp.close());

const endpoints: EndpointSpec[] = [
  { method: 'POST', url: () => '/v2/projects', payload: () => ({ name: 'New site' }), scopes: ['projects:read'], okStatus: 201 },
  {
    method: 'GET',
    url: (w) => `/v2/projects/${w.projectExid}`,
    otherUrl: (w) => `/v2/projects/${w.otherProjectExid}`,
    scopes: ['projects:read'],
    role: 'viewer',
    okStatus: 200,
  },
  {
    method: 'GET',
    url: (w) => `/v2/projects/${w.projectExid}/contacts`,
    otherUrl: (w) => `/v2/projects/${w.otherProjectExid}/contacts`,
    scopes: ['projects:read'],
    role: 'viewer',
    okStatus: 200,
  },
  {
    method: 'GET',
    url: (w) => `/v2/projects/${w.projectExid}/camera_refs`,
    otherUrl: (w) => `/v2/projects/${w.otherProjectExid}/camera_refs`,
    scopes: ['projects:read'],
    role: 'viewer',
    okStatus: 200,
  },
  {
    method: 'GET',
    url: (w) => `/v2/projects/${w.projectExid}/battery-readings`,
    otherUrl: (w) => `/v2/projects/${w.otherProjectExid}/battery-readings`,
    scopes: ['projects:read'],
    role: 'viewer',
    okStatus: 200,
  },
];

describe('access rules', () => {
  for (const spec of endpoints) it(`${spec.method} ${spec.url({ projectExid: '{exid}' } as never)}`, () => checkEndpointAccess(tp, spec));

  it('GET /v2/projects: a key lists only its projects; an empty project list lists nothing', async () => {
    const owner = await tp.person('owner');
    const a = await tp.project(owner, 'Alpha');
    await tp.project(owner, 'Beta');
    const key = await tp.key(owner, { projects: [a.exid], scopes: ['projects:read'] });
    const byKey = await tp.app.inject({ method: 'GET', url: '/v2/projects', headers: key.headers });
    expect(byKey.statusCode).toBe(200);
    expect(byKey.json().map((p: { exid: string }) => p.exid)).toEqual([a.exid]);
    const empty = await tp.key(owner, { projects: [], scopes: ['projects:read'] });
    const none = await tp.app.inject({ method: 'GET', url: '/v2/projects', headers: empty.headers });
    // A key with no projects reaches nothing, lists included (docs/access-model.md).
    expect(none.statusCode).toBe(403);
    expect(none.json().code).toBe('PROJECT_NOT_ALLOWED');
    const byPerson = await tp.app.inject({ method: 'GET', url: '/v2/projects', headers: owner.auth });
    expect(byPerson.json()).toHaveLength(2);
    const wrongScope = await tp.key(owner, { projects: [a.exid], scopes: ['cameras:read'] });
    expect((await tp.app.inject({ method: 'GET', url: '/v2/projects', headers: wrongScope.headers })).statusCode).toBe(403);
  });
});

describe('projects', () => {
  it('create: the caller owns it; name, time zone and status are validated', async () => {
    const owner = await tp.person('owner');
    const res = await tp.app.inject({
      method: 'POST',
      url: '/v2/projects',
      headers: owner.auth,
      payload: { name: 'Harbour Tower', timezone: 'Europe/Dublin' },
    });
    expect(res.statusCode).toBe(201);
    const p = res.json();
    expect(p).toMatchObject({
      name: 'Harbour Tower',
      timezone: 'Europe/Dublin',
      role: 'owner',
      owner: { id: owner.id, email: owner.email },
      camera_count: 0,
      status: 'In Progress',
    });
    expect(p.exid).toMatch(/^harbo-[a-z]{5}$/);
    for (const payload of [{ name: '' }, { name: 'x', timezone: 'Mars/Olympus' }, { name: 'x', status: 'Done' }, { name: 'x', extra: true }, { name: 7 }]) {
      const bad = await tp.app.inject({ method: 'POST', url: '/v2/projects', headers: owner.auth, payload });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(bad.json().code).toBe('VALIDATION_ERROR');
    }
    const list = (await tp.app.inject({ method: 'GET', url: '/v2/projects', headers: owner.auth })).json();
    expect(list.map((x: { exid: string }) => x.exid)).toEqual([p.exid]);
  });

  it('a project created through a key belongs to its owner, and the key does not reach it until added', async () => {
    const owner = await tp.person('owner');
    const a = await tp.project(owner);
    const key = await tp.key(owner, { projects: [a.exid], scopes: ['projects:read'] });
    const res = await tp.app.inject({ method: 'POST', url: '/v2/projects', headers: key.headers, payload: { name: 'By key' } });
    expect(res.statusCode).toBe(201);
    expect(res.json().owner.id).toBe(owner.id);
    const get = await tp.app.inject({ method: 'GET', url: `/v2/projects/${res.json().exid}`, headers: key.headers });
    expect(get.statusCode).toBe(403);
    expect(get.json().code).toBe('PROJECT_NOT_ALLOWED');
  });

  it('get, contacts and camera refs show the project as its members see it', async () => {
    const owner = await tp.person('owner');
    const viewer = await tp.person('viewer');
    const p = await tp.project(owner, 'Quay');
    const cam = await tp.camera(owner, p.exid, 'Crane cam');
    await tp.addMember(owner, p.exid, viewer, 'viewer');
    const got = (await tp.app.inject({ method: 'GET', url: `/v2/projects/${p.exid}`, headers: viewer.auth })).json();
    expect(got).toMatchObject({ exid: p.exid, role: 'viewer', camera_count: 1 });
    const contacts = (await tp.app.inject({ method: 'GET', url: `/v2/projects/${p.exid}/contacts`, headers: viewer.auth })).json();
    expect(contacts.map((c: { email: string; role: string }) => [c.email, c.role]).sort()).toEqual(
      [
        [owner.email, 'owner'],
        [viewer.email, 'viewer'],
      ].sort(),
    );
    const refs = (await tp.app.inject({ method: 'GET', url: `/v2/projects/${p.exid}/camera_refs`, headers: viewer.auth })).json();
    expect(refs).toEqual([{ exid: cam.exid, name: 'Crane cam', status: expect.any(String) }]);
    expect((await tp.app.inject({ method: 'GET', url: '/v2/projects/nope-nopes', headers: viewer.auth })).statusCode).toBe(404);
  });

  it('battery readings: recorded by health checks of the simulated solar camera, newest first, range-checked', async () => {
    const owner = await tp.person('owner');
    const p = await tp.project(owner);
    const cam = await tp.camera(owner, p.exid);
    const health = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/health`, headers: owner.auth });
    expect(health.json().battery).toMatchObject({ voltage: expect.any(Number) });
    const res = (await tp.app.inject({ method: 'GET', url: `/v2/projects/${p.exid}/battery-readings`, headers: owner.auth })).json();
    expect(res.meta.total_count).toBe(1);
    expect(res.data[0]).toMatchObject({ camera_exid: cam.exid, voltage: health.json().battery.voltage });
    const future = (
      await tp.app.inject({ method: 'GET', url: `/v2/projects/${p.exid}/battery-readings?from=2999-01-01T00:00:00Z`, headers: owner.auth })
    ).json();
    expect(future.data).toEqual([]);
    for (const q of ['from=yesterday', 'from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'page=0']) {
      const bad = await tp.app.inject({ method: 'GET', url: `/v2/projects/${p.exid}/battery-readings?${q}`, headers: owner.auth });
      expect(bad.statusCode, q).toBe(400);
    }
  });
});
