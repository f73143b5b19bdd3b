// Video walls (project:video_wall): the five endpoints' access rules, the validated grid of tiles
// (cameras of the wall's project only), the list scoped to the caller's projects, and no dangling tile
// once a camera is deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEndpointAccess, type AccessWorld, type EndpointSpec } from '../../helpers/access.js';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

let tp: TestPlatform;
beforeAll(async () => {
  tp = await buildTestPlatform();
});
afterAll(() => tp.close());

const projectIdOf = async (exid: string) => (await tp.t.db.kysely.selectFrom('projects').select('id').where('exid', '=', exid).executeTakeFirstOrThrow()).id;

const wallBody = (w: Pick<AccessWorld, 'projectExid' | 'cameraExid'>) => ({
  project_exid: w.projectExid,
  name: 'Gate wall',
  rows: 2,
  columns: 2,
  tiles: [{ row: 0, column: 0, camera_exid: w.cameraExid }],
});

const withWalls: EndpointSpec['setup'] = async (t, w) => {
  const make = async (projectExid: string, cameraExid: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/v2/video-walls', headers: w.owner.auth, payload: wallBody({ projectExid, cameraExid }) });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  return { wall: await make(w.projectExid, w.cameraExid), otherWall: await make(w.otherProjectExid, w.otherCameraExid) };
};

const one = (method: EndpointSpec['method'], okStatus: number, role: 'viewer' | 'editor', payload?: EndpointSpec['payload']): EndpointSpec => ({
  method,
  url: (w) => `/v2/video-walls/${w.extra.wall}`,
  otherUrl: (w) => `/v2/video-walls/${w.extra.otherWall}`,
  payload,
  scopes: ['project:video_wall'],
  role,
  okStatus,
  setup: withWalls,
});

describe('access (project:video_wall)', () => {
  it('GET /v2/video-walls', () =>
    checkEndpointAccess(tp, { method: 'GET', url: () => '/v2/video-walls', scopes: ['project:video_wall'], okStatus: 200, setup: withWalls }));
  it('POST /v2/video-walls', () =>
    checkEndpointAccess(tp, {
      method: 'POST',
      url: () => '/v2/video-walls',
      otherUrl: () => '/v2/video-walls',
      payload: (w) => wallBody(w),
      otherPayload: (w) => wallBody({ projectExid: w.otherProjectExid, cameraExid: w.otherCameraExid }),
      scopes: ['project:video_wall'],
      role: 'editor',
      okStatus: 201,
    }));
  it('GET /v2/video-walls/{id}', () => checkEndpointAccess(tp, one('GET', 200, 'viewer')));
  it('PATCH /v2/video-walls/{id}', () =>
    checkEndpointAccess(
      tp,
      one('PATCH', 200, 'editor', () => ({ name: 'Renamed' })),
    ));
  it('DELETE /v2/video-walls/{id}', () => checkEndpointAccess(tp, one('DELETE', 204, 'editor')));
});

async function world() {
  const owner = await tp.person('owner');
  const project = await tp.project(owner, 'Walls');
  const a = await tp.camera(owner, project.exid, 'North');
  const b = await tp.camera(owner, project.exid, 'South');
  const other = await tp.project(owner, 'Elsewhere');
  const foreign = await tp.camera(owner, other.exid, 'Foreign');
  const req = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers = owner.auth) =>
    tp.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  return { owner, project, other, a, b, foreign, req };
}

describe('walls and tiles', () => {
  it('creates, reads, lists, edits and deletes a wall with its layout', async () => {
    const { project, a, b, req } = await world();
    const created = await req('POST', '/v2/video-walls', {
      project_exid: project.exid,
      name: 'Site overview',
      rows: 1,
      columns: 2,
      tiles: [
        { row: 0, column: 1, camera_exid: b.exid },
        { row: 0, column: 0, camera_exid: a.exid },
      ],
    });
    expect(created.statusCode, created.body).toBe(201);
    const wall = created.json();
    expect(wall).toMatchObject({ name: 'Site overview', project_exid: project.exid, rows: 1, columns: 2 });
    expect(wall.tiles).toEqual([
      { row: 0, column: 0, camera_exid: a.exid, camera_name: 'North' },
      { row: 0, column: 1, camera_exid: b.exid, camera_name: 'South' },
    ]);
    expect((await req('GET', `/v2/video-walls/${wall.id}`)).json()).toEqual(wall);

    const patched = await req('PATCH', `/v2/video-walls/${wall.id}`, { name: 'Bigger', rows: 2, tiles: [{ row: 1, column: 1, camera_exid: a.exid }] });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ name: 'Bigger', rows: 2, columns: 2, tiles: [{ row: 1, column: 1, camera_exid: a.exid }] });

    const list = await req('GET', `/v2/video-walls?project_exid=${project.exid}`);
    expect(list.json().map((w: { id: string }) => w.id)).toEqual([wall.id]);

    expect((await req('DELETE', `/v2/video-walls/${wall.id}`)).statusCode).toBe(204);
    expect((await req('GET', `/v2/video-walls/${wall.id}`)).statusCode).toBe(404);
    expect((await req('DELETE', `/v2/video-walls/${wall.id}`)).statusCode).toBe(404);
    const tiles = await tp.t.db.kysely.selectFrom('video_wall_tiles').selectAll().where('wall_id', '=', wall.id).execute();
    expect(tiles).toEqual([]);
  });

  it('lists only the walls of the caller’s projects (and of the key’s list)', async () => {
    const { owner, project, other, a, foreign, req } = await world();
    const mine = (
      await req('POST', '/v2/video-walls', { project_exid: project.exid, name: 'A', rows: 1, columns: 1, tiles: [{ row: 0, column: 0, camera_exid: a.exid }] })
    ).json();
    const elsewhere = (
      await req('POST', '/v2/video-walls', {
        project_exid: other.exid,
        name: 'B',
        rows: 1,
        columns: 1,
        tiles: [{ row: 0, column: 0, camera_exid: foreign.exid }],
      })
    ).json();
    const ids = (await req('GET', '/v2/video-walls')).json().map((w: { id: string }) => w.id);
    expect(ids).toEqual(expect.arrayContaining([mine.id, elsewhere.id]));
    const key = await tp.key(owner, { projects: [project.exid], scopes: ['project:video_wall'] });
    const byKey = (await req('GET', '/v2/video-walls', undefined, key.headers as never)).json().map((w: { id: string }) => w.id);
    expect(byKey).toEqual([mine.id]);
    const stranger = await tp.person('stranger');
    expect((await req('GET', '/v2/video-walls', undefined, stranger.auth)).json()).toEqual([]);
    expect((await req('GET', `/v2/video-walls/${mine.id}`, undefined, stranger.auth)).statusCode).toBe(404);
  });

  it('refuses tiles that are not cameras of the wall’s project, or outside the grid, naming the tile', async () => {
    const { project, a, b, foreign, req } = await world();
    const base = { project_exid: project.exid, name: 'W', rows: 2, columns: 2 };
    const cases: [object, string][] = [
      [
        {
          ...base,
          tiles: [
            { row: 0, column: 0, camera_exid: a.exid },
            { row: 0, column: 1, camera_exid: foreign.exid },
          ],
        },
        'tiles[1].camera_exid',
      ],
      [{ ...base, tiles: [{ row: 0, column: 0, camera_exid: 'no-such-camera' }] }, 'tiles[0].camera_exid'],
      [{ ...base, tiles: [{ row: 2, column: 0, camera_exid: a.exid }] }, 'tiles[0].row'],
      [{ ...base, tiles: [{ row: 0, column: 5, camera_exid: a.exid }] }, 'tiles[0].column'],
      [
        {
          ...base,
          tiles: [
            { row: 1, column: 1, camera_exid: a.exid },
            { row: 1, column: 1, camera_exid: b.exid },
          ],
        },
        'tiles[1]',
      ],
    ];
    for (const [payload, field] of cases) {
      const res = await req('POST', '/v2/video-walls', payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().details[0].field).toBe(field);
    }
    for (const payload of [
      { ...base, rows: 0 },
      { ...base, columns: 9 },
      { ...base, rows: 1.5 },
      { ...base, name: '   ' },
      { ...base, name: '' },
      { ...base, extra: 1 },
      { ...base, tiles: [{ row: -1, column: 0, camera_exid: a.exid }] },
      { ...base, tiles: 'x' },
      { name: 'no project', rows: 1, columns: 1 },
    ]) {
      const res = await req('POST', '/v2/video-walls', payload);
      expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(400);
    }
    expect((await req('POST', '/v2/video-walls', { ...base, project_exid: 'no-such-project' })).statusCode).toBe(404);

    // A shrink that would cut a tile off is refused; the wall is unchanged.
    const wall = (await req('POST', '/v2/video-walls', { ...base, tiles: [{ row: 1, column: 1, camera_exid: a.exid }] })).json();
    const shrink = await req('PATCH', `/v2/video-walls/${wall.id}`, { rows: 1 });
    expect(shrink.statusCode).toBe(400);
    expect(shrink.json().details[0].field).toBe('tiles[0].row');
    expect((await req('PATCH', `/v2/video-walls/${wall.id}`, {})).statusCode).toBe(400);
    expect((await req('PATCH', `/v2/video-walls/${wall.id}`, { tiles: [{ row: 0, column: 0, camera_exid: foreign.exid }] })).statusCode).toBe(400);
    expect((await req('GET', `/v2/video-walls/${wall.id}`)).json()).toEqual(wall);
    expect((await req('GET', '/v2/video-walls/nope')).statusCode).toBe(404);
    expect((await req('PATCH', '/v2/video-walls/nope', { name: 'x' })).statusCode).toBe(404);
  });

  it('deleting a camera leaves no dangling tile', async () => {
    const { project, a, b, req } = await world();
    const wall = (
      await req('POST', '/v2/video-walls', {
        project_exid: project.exid,
        name: 'W',
        rows: 1,
        columns: 2,
        tiles: [
          { row: 0, column: 0, camera_exid: a.exid },
          { row: 0, column: 1, camera_exid: b.exid },
        ],
      })
    ).json();
    // The camera deletion (settings) runs the deletion hooks, then deletes the row: the tile follows by cascade.
    const cam = await tp.t.db.kysely.selectFrom('cameras').select(['id', 'project_id']).where('exid', '=', a.exid).executeTakeFirstOrThrow();
    await servicesOf(tp.app).deletionHooks.beforeCameraDelete({ id: cam.id, exid: a.exid, projectId: cam.project_id });
    await tp.t.db.kysely.deleteFrom('cameras').where('id', '=', cam.id).execute();
    const after = (await req('GET', `/v2/video-walls/${wall.id}`)).json();
    expect(after.tiles).toEqual([{ row: 0, column: 1, camera_exid: b.exid, camera_name: 'South' }]);
    const rows = await tp.t.db.kysely.selectFrom('video_wall_tiles').selectAll().where('camera_id', '=', cam.id).execute();
    expect(rows).toEqual([]);
  });

  it('walls and their tiles go with their project', async () => {
    const { project, a, req } = await world();
    const wall = (
      await req('POST', '/v2/video-walls', { project_exid: project.exid, name: 'W', rows: 1, columns: 1, tiles: [{ row: 0, column: 0, camera_exid: a.exid }] })
    ).json();
    const id = await projectIdOf(project.exid);
    expect(await tp.t.db.kysely.selectFrom('video_walls').select('id').where('project_id', '=', id).execute()).toHaveLength(1);
    await tp.t.db.kysely.deleteFrom('projects').where('id', '=', id).execute();
    expect(await tp.t.db.kysely.selectFrom('video_walls').select('id').where('id', '=', wall.id).execute()).toEqual([]);
    expect(await tp.t.db.kysely.selectFrom('video_wall_tiles').select('wall_id').where('wall_id', '=', wall.id).execute()).toEqual([]);
  });
});
