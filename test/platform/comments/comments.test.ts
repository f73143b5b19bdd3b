// Comments (project:comments): the five endpoints' access rules, comments pinned to a camera, a moment
// and a point, filters and pages, archive/unarchive, author-or-admin edits, and mentions that notify
// members (seen at GET /v2/notifications) but never people outside the project.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEndpointAccess, type EndpointSpec } from '../../helpers/access.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

let tp: TestPlatform;
beforeAll(async () => {
  tp = await buildTestPlatform();
});
afterAll(() => tp.close());

const projectIdOf = async (exid: string) => (await tp.t.db.kysely.selectFrom('projects').select('id').where('exid', '=', exid).executeTakeFirstOrThrow()).id;

const body = (cameraExid: string, extra: object = {}) => ({
  camera_exid: cameraExid,
  timestamp: '2026-11-20T08:15:00Z',
  position2d: { x: 0.25, y: 0.75 },
  content: 'Scaffold missing a toe board',
  ...extra,
});

const withComments: EndpointSpec['setup'] = async (t, w) => {
  const make = async (projectExid: string, cameraExid: string) => {
    const res = await t.app.inject({ method: 'POST', url: `/v2/projects/${projectExid}/comments`, headers: w.owner.auth, payload: body(cameraExid) });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  return { comment: await make(w.projectExid, w.cameraExid), otherComment: await make(w.otherProjectExid, w.otherCameraExid) };
};

const spec = (
  method: EndpointSpec['method'],
  path: 'list' | 'one',
  okStatus: number,
  role: 'viewer' | 'editor',
  payload?: (c: string) => unknown,
): EndpointSpec => ({
  method,
  url: (w) => `/v2/projects/${w.projectExid}/comments${path === 'one' ? `/${w.extra.comment}` : ''}`,
  otherUrl: (w) => `/v2/projects/${w.otherProjectExid}/comments${path === 'one' ? `/${w.extra.otherComment}` : ''}`,
  ...(payload ? { payload: (w) => payload(w.cameraExid), otherPayload: (w) => payload(w.otherCameraExid) } : {}),
  scopes: ['project:comments'],
  role,
  okStatus,
  setup: withComments,
});

describe('access (project:comments)', () => {
  it('GET …/comments', () => checkEndpointAccess(tp, spec('GET', 'list', 200, 'viewer')));
  it('GET …/comments/{id}', () => checkEndpointAccess(tp, spec('GET', 'one', 200, 'viewer')));
  it('POST …/comments', () =>
    checkEndpointAccess(
      tp,
      spec('POST', 'list', 201, 'editor', (c) => body(c)),
    ));
  it('PATCH …/comments/{id}', () =>
    checkEndpointAccess(
      tp,
      spec('PATCH', 'one', 200, 'editor', () => ({ archived: true })),
    ));
  it('DELETE …/comments/{id}', () => checkEndpointAccess(tp, spec('DELETE', 'one', 204, 'editor')));
});

async function world() {
  const owner = await tp.person('owner');
  const project = await tp.project(owner, 'Comments');
  const cam = await tp.camera(owner, project.exid, 'North');
  const cam2 = await tp.camera(owner, project.exid, 'South');
  const other = await tp.project(owner, 'Elsewhere');
  const foreign = await tp.camera(owner, other.exid, 'Foreign');
  const url = `/v2/projects/${project.exid}/comments`;
  const req = (who: Person | { 'x-access-key': string }, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: object) =>
    tp.app.inject({ method, url: `${url}${path}`, headers: 'auth' in who ? who.auth : who, ...(payload ? { payload } : {}) });
  return { owner, project, cam, cam2, foreign, req };
}

const notificationsOf = async (p: Person) =>
  (await tp.app.inject({ method: 'GET', url: '/v2/notifications', headers: p.auth })).json().data as {
    type: string;
    message: string;
    context: Record<string, string>;
  }[];

describe('comments', () => {
  it('are created on a camera at a moment and a point, read back, edited, archived and deleted', async () => {
    const { owner, project, cam, req } = await world();
    const created = await req(owner, 'POST', '', body(cam.exid, { timestamp: '2026-11-20T09:15:00+01:00', content: '  Check the crane  ' }));
    expect(created.statusCode, created.body).toBe(201);
    const c = created.json();
    expect(c).toMatchObject({
      camera_exid: cam.exid,
      project_exid: project.exid,
      timestamp: '2026-11-20T08:15:00.000Z',
      content: 'Check the crane',
      position2d: { x: 0.25, y: 0.75 },
      creator_email: owner.email,
      creator_name: 'owner Tester',
      archived: false,
      archived_at: null,
      mentions: [],
    });
    expect((await req(owner, 'GET', `/${c.id}`)).json()).toEqual(c);

    const edited = await req(owner, 'PATCH', `/${c.id}`, { content: 'Crane checked', position2d: { x: 1, y: 0 } });
    expect(edited.json()).toMatchObject({ content: 'Crane checked', position2d: { x: 1, y: 0 }, archived: false });

    const archived = await req(owner, 'PATCH', `/${c.id}`, { archived: true });
    expect(archived.json().archived).toBe(true);
    expect(archived.json().archived_at).toBeTruthy();
    expect((await req(owner, 'GET', '')).json().data).toEqual([]);
    expect((await req(owner, 'GET', '?archived=true')).json().data.map((x: { id: string }) => x.id)).toEqual([c.id]);
    const unarchived = await req(owner, 'PATCH', `/${c.id}`, { archived: false });
    expect(unarchived.json()).toMatchObject({ archived: false, archived_at: null });
    expect((await req(owner, 'GET', '')).json().data.map((x: { id: string }) => x.id)).toEqual([c.id]);

    expect((await req(owner, 'DELETE', `/${c.id}`)).statusCode).toBe(204);
    expect((await req(owner, 'GET', `/${c.id}`)).statusCode).toBe(404);
    expect((await req(owner, 'DELETE', `/${c.id}`)).statusCode).toBe(404);
  });

  it('are listed by camera, time range and page, newest moment first', async () => {
    const { owner, cam, cam2, req } = await world();
    for (const [camera, at] of [
      [cam.exid, '2026-11-01T10:00:00Z'],
      [cam.exid, '2026-11-02T10:00:00Z'],
      [cam2.exid, '2026-11-03T10:00:00Z'],
      [cam.exid, '2026-11-04T10:00:00Z'],
    ] as const) {
      expect((await req(owner, 'POST', '', body(camera, { timestamp: at }))).statusCode).toBe(201);
    }
    const all = (await req(owner, 'GET', '')).json();
    expect(all.meta.total_count).toBe(4);
    expect(all.data.map((x: { timestamp: string }) => x.timestamp.slice(0, 10))).toEqual(['2026-11-04', '2026-11-03', '2026-11-02', '2026-11-01']);
    const byCamera = (await req(owner, 'GET', `?camera_exid=${cam2.exid}`)).json();
    expect(byCamera.data.map((x: { camera_exid: string }) => x.camera_exid)).toEqual([cam2.exid]);
    const range = (await req(owner, 'GET', '?from=2026-11-02&to=2026-11-03T23:59:59Z')).json();
    expect(range.data.map((x: { timestamp: string }) => x.timestamp.slice(0, 10))).toEqual(['2026-11-03', '2026-11-02']);
    const page2 = (await req(owner, 'GET', '?page=2&page_size=3')).json();
    expect(page2.meta).toEqual({ current_page: 2, page_size: 3, total_count: 4, total_pages: 2 });
    expect(page2.data.map((x: { timestamp: string }) => x.timestamp.slice(0, 10))).toEqual(['2026-11-01']);
  });

  it('are changed or deleted only by their author or a project admin', async () => {
    const { owner, project, cam, req } = await world();
    const author = await tp.person('author');
    const editor = await tp.person('editor');
    const admin = await tp.person('admin');
    await tp.addMember(owner, project.exid, author, 'editor');
    await tp.addMember(owner, project.exid, editor, 'editor');
    await tp.addMember(owner, project.exid, admin, 'admin');
    const c = (await req(author, 'POST', '', body(cam.exid))).json();
    const denied = await req(editor, 'PATCH', `/${c.id}`, { content: 'hijacked' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('PERMISSION_DENIED');
    expect((await req(editor, 'DELETE', `/${c.id}`)).statusCode).toBe(403);
    // The author's key acts as the author.
    const key = await tp.key(author, { projects: [project.exid], scopes: ['project:comments'] });
    expect((await req(key.headers, 'PATCH', `/${c.id}`, { content: 'by my key' })).json().content).toBe('by my key');
    expect((await req(admin, 'PATCH', `/${c.id}`, { archived: true })).json().archived).toBe(true);
    expect((await req(admin, 'DELETE', `/${c.id}`)).statusCode).toBe(204);
  });

  it('notify the members they mention, once, and nobody outside the project', async () => {
    const { owner, project, cam, req } = await world();
    const alice = await tp.person('alice');
    const bob = await tp.person('bob');
    const outsider = await tp.person('outsider');
    await tp.addMember(owner, project.exid, alice, 'viewer');
    await tp.addMember(owner, project.exid, bob, 'viewer');
    const created = await req(owner, 'POST', '', body(cam.exid, { content: `@${alice.email.toUpperCase()}, please look; cc @${outsider.email}.` }));
    expect(created.statusCode, created.body).toBe(201);
    const c = created.json();
    expect(c.mentions).toEqual([alice.email]);

    const forAlice = (await notificationsOf(alice)).filter((n) => n.type === 'mention');
    expect(forAlice).toHaveLength(1);
    expect(forAlice[0]!.context).toMatchObject({ camera_exid: cam.exid, project_exid: project.exid, comment_id: c.id });
    expect(forAlice[0]!.message).toContain(owner.email);
    expect((await notificationsOf(outsider)).filter((n) => n.type === 'mention')).toEqual([]);
    expect((await notificationsOf(owner)).filter((n) => n.type === 'mention')).toEqual([]);

    // An edit notifies only newly mentioned members (bob by id), not alice again.
    const edited = await req(owner, 'PATCH', `/${c.id}`, { content: `@${alice.email} thanks`, mentions: [bob.id, outsider.id] });
    expect(edited.json().mentions).toEqual([alice.email, bob.email].sort());
    expect((await notificationsOf(alice)).filter((n) => n.type === 'mention')).toHaveLength(1);
    const forBob = (await notificationsOf(bob)).filter((n) => n.type === 'mention');
    expect(forBob).toHaveLength(1);
    expect(forBob[0]!.context.comment_id).toBe(c.id);
    expect((await notificationsOf(outsider)).filter((n) => n.type === 'mention')).toEqual([]);
  });

  it('refuse bad input with 4xx', async () => {
    const { owner, cam, foreign, req } = await world();
    const bad: [object, string][] = [
      [body(foreign.exid), 'camera_exid'],
      [body('no-such-camera'), 'camera_exid'],
      [body(cam.exid, { timestamp: '2026-02-30T10:00:00Z' }), 'timestamp'],
      [body(cam.exid, { timestamp: 'yesterday' }), 'timestamp'],
      [body(cam.exid, { timestamp: '2026-11-20T10:00:00' }), 'timestamp'],
      [body(cam.exid, { content: '   ' }), 'content'],
    ];
    for (const [payload, field] of bad) {
      const res = await req(owner, 'POST', '', payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().details[0].field).toBe(field);
    }
    for (const payload of [
      body(cam.exid, { position2d: { x: 1.5, y: 0 } }),
      body(cam.exid, { position2d: { x: -0.1, y: 0 } }),
      body(cam.exid, { position2d: { x: 0.5 } }),
      body(cam.exid, { position2d: { x: '0.5', y: 0 } }),
      body(cam.exid, { content: '' }),
      body(cam.exid, { extra: true }),
      body(cam.exid, { mentions: 'alice' }),
      { content: 'no camera' },
    ]) {
      const res = await req(owner, 'POST', '', payload);
      expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(400);
    }
    const c = (await req(owner, 'POST', '', body(cam.exid))).json();
    for (const payload of [{}, { archived: 'yes' }, { position2d: { x: 2, y: 2 } }, { content: ' ' }, { camera_exid: cam.exid }]) {
      expect((await req(owner, 'PATCH', `/${c.id}`, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    for (const q of [
      '?archived=maybe',
      '?from=not-a-date',
      '?from=2026-11-05&to=2026-11-01',
      '?page=0',
      '?page_size=100000',
      `?camera_exid=${foreign.exid}`,
      '?bogus=1',
    ]) {
      const res = await req(owner, 'GET', q);
      expect(res.statusCode, `${q}: ${res.body}`).toBe(400);
    }
    expect((await req(owner, 'GET', '/nope')).statusCode).toBe(404);
    expect((await req(owner, 'PATCH', '/nope', { content: 'x' })).statusCode).toBe(404);
  });

  it('go with their camera when it is deleted', async () => {
    const { owner, cam, cam2, req } = await world();
    await req(owner, 'POST', '', body(cam.exid));
    await req(owner, 'POST', '', body(cam2.exid));
    const row = await tp.t.db.kysely.selectFrom('cameras').select(['id', 'project_id']).where('exid', '=', cam.exid).executeTakeFirstOrThrow();
    await servicesOf(tp.app).deletionHooks.beforeCameraDelete({ id: row.id, exid: cam.exid, projectId: row.project_id });
    await tp.t.db.kysely.deleteFrom('cameras').where('id', '=', row.id).execute();
    const left = (await req(owner, 'GET', '')).json().data;
    expect(left.map((x: { camera_exid: string }) => x.camera_exid)).toEqual([cam2.exid]);
    expect(await tp.t.db.kysely.selectFrom('comments').select('id').where('camera_id', '=', row.id).execute()).toEqual([]);
  });

  it('go with their project when it is deleted', async () => {
    const { owner, project, cam, req } = await world();
    await req(owner, 'POST', '', body(cam.exid));
    const id = await projectIdOf(project.exid);
    const rows = () => tp.t.db.kysely.selectFrom('comments').select('id').where('project_id', '=', id).execute();
    expect(await rows()).toHaveLength(1);
    await tp.t.db.kysely.deleteFrom('projects').where('id', '=', id).execute();
    expect(await rows()).toEqual([]);
  });
});
