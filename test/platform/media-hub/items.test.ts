// Media hub items: url and file items, the list's filters/pagination/sort, requesters, edits,
// deletion (with stored files), bad inputs (4xx, never 5xx), the access rules of all 18 endpoints,
// the scope count, and that deleting a camera or project leaves no media files behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { scopeMap } from '../../../src/platform/access/scope-map.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { checkEndpointAccess, type AccessWorld, type EndpointSpec } from '../../helpers/access.js';
import { storeFrames, waitForStatus } from './media-fixtures.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

let tp: TestPlatform;
let owner: Person;
let projectExid: string;
let cameraExid: string;
let png: Buffer;

beforeAll(async () => {
  tp = await buildTestPlatform({ OVERLOOK_MEDIA_FILE_MAX_BYTES: String(64 * 1024) });
  owner = await tp.person('hub-owner');
  projectExid = (await tp.project(owner, 'Hub site')).exid;
  cameraExid = (await tp.camera(owner, projectExid, 'Hub cam')).exid;
  png = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
});
afterAll(async () => tp?.close());

const base = (p = projectExid) => `/v2/projects/${p}/media-hub`;
const post = (url: string, payload: object, who: Person = owner) => tp.app.inject({ method: 'POST', url, headers: who.auth, payload });

describe('url and file items', () => {
  it('stores a link and an uploaded file, serves the file and its thumbnail', async () => {
    const link = await post(base(), { type: 'url', title: 'Site plan', url: 'https://example.com/plan?x=1' });
    expect(link.statusCode, link.body).toBe(201);
    expect(link.json()).toMatchObject({ type: 'url', status: 'completed', media_url: 'https://example.com/plan?x=1', thumbnail_url: null, public: false });

    const file = await post(base(), {
      type: 'file',
      title: 'Drawing',
      camera_exid: cameraExid,
      file: `data:image/png;base64,${png.toString('base64')}`,
      file_name: 'drawing.png',
      content_type: 'image/png',
      public: true,
    });
    expect(file.statusCode, file.body).toBe(201);
    const f = file.json();
    expect(f).toMatchObject({
      type: 'file',
      status: 'completed',
      camera_exid: cameraExid,
      content_type: 'image/png',
      file_size: png.length,
      file_name: 'drawing.png',
      public: true,
    });
    const got = await tp.app.inject({ method: 'GET', url: `/v2/media-hub/${f.id}/file?download=true`, headers: owner.auth });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['content-disposition']).toBe('attachment; filename="drawing.png"');
    expect(got.rawPayload.equals(png)).toBe(true);
    const part = await tp.app.inject({ method: 'GET', url: `/v2/media-hub/${f.id}/file`, headers: { ...owner.auth, range: 'bytes=1-3' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1-3/${png.length}`);
    expect(part.rawPayload.equals(png.subarray(1, 4))).toBe(true);
    const past = await tp.app.inject({ method: 'GET', url: `/v2/media-hub/${f.id}/file`, headers: { ...owner.auth, range: `bytes=${png.length + 5}-` } });
    expect(past.statusCode).toBe(200);
    expect(past.rawPayload.length).toBe(png.length);
    const thumb = await tp.app.inject({ method: 'GET', url: `/v2/media-hub/${f.id}/thumbnail`, headers: owner.auth });
    expect(thumb.statusCode).toBe(200);
    expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 200 });
    // A link has no stored file.
    const linkFile = await tp.app.inject({ method: 'GET', url: `/v2/media-hub/${link.json().id}/file`, headers: owner.auth });
    expect(linkFile.statusCode).toBe(404);
  });

  it('refuses bad inputs with 4xx', async () => {
    const cases: [object, number][] = [
      [{ type: 'url', title: 'x', url: 'javascript:alert(1)' }, 400],
      [{ type: 'url', title: 'x', url: 'not a url' }, 400],
      [{ type: 'url', title: 'x', url: 'ftp://example.com/a' }, 400],
      [{ type: 'url', title: 'x' }, 400],
      [{ type: 'url', title: '', url: 'https://example.com' }, 400],
      [{ type: 'clip', title: 'x' }, 400],
      [{ type: 'file', title: 'x' }, 400],
      [{ type: 'file', title: 'x', file: '%%%not base64' }, 400],
      [{ type: 'file', title: 'x', file: Buffer.from('just some text, not a file type').toString('base64') }, 415],
      [{ type: 'file', title: 'x', file: png.toString('base64'), content_type: 'image/jpeg' }, 400],
      [{ type: 'file', title: 'x', file: Buffer.concat([png, Buffer.alloc(70 * 1024)]).toString('base64') }, 413],
      [{ type: 'url', title: 'x', url: 'https://example.com', camera_exid: 'no-such-camera' }, 400],
      [{ type: 'url', title: 'x', url: 'https://example.com', extra: 1 }, 400],
    ];
    for (const [payload, status] of cases) {
      const res = await post(base(), payload);
      expect(res.statusCode, `${JSON.stringify(payload).slice(0, 80)} → ${res.body}`).toBe(status);
      expect(res.json().code).toBeTruthy();
    }
    const renders: [string, object][] = [
      ['timelapses', { title: 't', camera_exid: cameraExid, from_date: '2026-13-01', to_date: '2026-11-02', duration: 5 }],
      ['timelapses', { title: 't', camera_exid: cameraExid, from_date: '2026-11-02', to_date: '2026-11-01', duration: 5 }],
      ['timelapses', { title: 't', camera_exid: cameraExid, from_date: '2026-11-01', to_date: '2026-11-02', duration: 0 }],
      [
        'timelapses',
        { title: 't', camera_exid: cameraExid, from_date: '2026-11-01', to_date: '2026-11-02', duration: 5, schedule: { from: '25:00', to: '18:00' } },
      ],
      ['timelapses', { title: 't', camera_exid: cameraExid, from_date: '2026-11-01', to_date: '2026-11-02', duration: 5, width: 101 }],
      [
        'timelapses',
        {
          title: 't',
          camera_exid: cameraExid,
          from_date: '2026-11-01',
          to_date: '2026-11-02',
          duration: 5,
          logo: png.toString('base64').slice(0, 40) + 'AAAA',
        },
      ],
      ['timelapses', { title: 't', camera_exid: cameraExid, to_date: '2026-11-02', duration: 5 }],
      ['clips', { title: 'c', camera_exid: cameraExid, from_date: '2026-11-01', to_date: '2026-11-05' }],
      ['clips', { title: 'c', camera_exid: cameraExid, from_date: 'yesterday', to_date: '2026-11-05' }],
      ['compares', { title: 'c', camera_exid: cameraExid, before_date: '2026-11-05', after_date: '2026-11-01' }],
      ['compares', { title: 'c', camera_exid: 'nope', before_date: '2026-11-01', after_date: '2026-11-05' }],
    ];
    for (const [path, payload] of renders) {
      const res = await post(`${base()}/${path}`, payload);
      expect(res.statusCode, `${path} ${JSON.stringify(payload).slice(0, 120)} → ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    for (const url of [`${base()}/not-an-id`, `${base()}?sort=sideways`, `${base()}?page=0`, `${base()}?from_date=garbage`, `${base()}?type=video`]) {
      const res = await tp.app.inject({ method: 'GET', url, headers: owner.auth });
      expect(res.statusCode, url).toBe(400);
    }
    const missing = await tp.app.inject({ method: 'GET', url: `${base()}/01930000-0000-7000-8000-000000000000`, headers: owner.auth });
    expect(missing.statusCode).toBe(404);
    // Under /v2/media-hub the project comes from the item: an unknown id is simply not found.
    for (const url of ['/v2/media-hub/not-an-id/file', '/v2/media-hub/01930000-0000-7000-8000-000000000000/thumbnail']) {
      expect((await tp.app.inject({ method: 'GET', url, headers: owner.auth })).statusCode, url).toBe(404);
    }
  });
});

describe('list, requesters, edit, delete', () => {
  it('filters by type, camera, requester and date, paginates and sorts', async () => {
    const p = (await tp.project(owner, 'List site')).exid;
    const cam = (await tp.camera(owner, p, 'List cam')).exid;
    const editor = await tp.person('hub-editor');
    await tp.addMember(owner, p, editor, 'editor');
    const made: string[] = [];
    for (const [who, body] of [
      [owner, { type: 'url', title: 'B link', url: 'https://example.com/b' }],
      [owner, { type: 'url', title: 'A link', url: 'https://example.com/a', camera_exid: cam }],
      [editor, { type: 'file', title: 'C file', file: png.toString('base64') }],
    ] as [Person, object][]) {
      const res = await post(base(p), body, who);
      expect(res.statusCode, res.body).toBe(201);
      made.push(res.json().id);
    }
    const compare = await post(`${base(p)}/compares`, { title: 'D compare', camera_exid: cam, before_date: '2026-11-01', after_date: '2026-11-02' }, editor);
    expect(compare.statusCode).toBe(201);
    const list = async (q: string) => {
      const res = await tp.app.inject({ method: 'GET', url: `${base(p)}${q}`, headers: owner.auth });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const all = await list('');
    expect(all.meta.total_count).toBe(4);
    expect(all.data.map((i: any) => i.title)).toEqual(['D compare', 'C file', 'A link', 'B link']);
    expect((await list('?sort=title_asc')).data.map((i: any) => i.title)).toEqual(['A link', 'B link', 'C file', 'D compare']);
    expect((await list('?type=url')).data.map((i: any) => i.title).sort()).toEqual(['A link', 'B link']);
    expect((await list(`?camera_exid=${cam}`)).data.map((i: any) => i.title).sort()).toEqual(['A link', 'D compare']);
    expect((await list(`?requester=${encodeURIComponent(editor.email)}`)).data.map((i: any) => i.title).sort()).toEqual(['C file', 'D compare']);
    const page2 = await list('?page=2&limit=3&sort=title_asc');
    expect(page2.meta).toMatchObject({ current_page: 2, page_size: 3, total_count: 4, total_pages: 2 });
    expect(page2.data.map((i: any) => i.title)).toEqual(['D compare']);
    expect((await list('?from_date=2000-01-01&to_date=2000-12-31')).meta.total_count).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await list(`?from_date=${today}&to_date=${today}`)).meta.total_count).toBe(4);

    const users = await tp.app.inject({ method: 'GET', url: `${base(p)}/users`, headers: owner.auth });
    expect(users.json().users).toEqual(
      [
        { email: owner.email.toLowerCase(), name: 'hub-owner Tester', count: 2 },
        { email: editor.email.toLowerCase(), name: 'hub-editor Tester', count: 2 },
      ].sort((a, b) => a.email.localeCompare(b.email)),
    );

    // Edits: title and visibility; a url item's link; not a link on a file item.
    const edited = await tp.app.inject({
      method: 'PATCH',
      url: `${base(p)}/${made[0]}`,
      headers: owner.auth,
      payload: { title: 'Renamed', public: true, url: 'http://example.org/new' },
    });
    expect(edited.json()).toMatchObject({ title: 'Renamed', public: true, media_url: 'http://example.org/new' });
    const badEdit = await tp.app.inject({ method: 'PATCH', url: `${base(p)}/${made[2]}`, headers: owner.auth, payload: { url: 'https://example.com' } });
    expect(badEdit.statusCode).toBe(400);
    // Kind-specific routes only see their kind.
    const wrongKind = await tp.app.inject({ method: 'GET', url: `${base(p)}/timelapses/${compare.json().id}`, headers: owner.auth });
    expect(wrongKind.statusCode).toBe(404);
    // An item is only reachable under its own project.
    const elsewhere = await tp.app.inject({ method: 'GET', url: `${base()}/${made[0]}`, headers: owner.auth });
    expect(elsewhere.statusCode).toBe(404);

    // Deleting a file item removes its stored objects.
    const fileRow = await tp.t.db.kysely.selectFrom('media_hub_items').selectAll().where('id', '=', made[2]!).executeTakeFirstOrThrow();
    expect(await servicesOf(tp.app).storage.getBytes(fileRow.object_key!)).not.toBeNull();
    const del = await tp.app.inject({ method: 'DELETE', url: `${base(p)}/${made[2]}`, headers: editor.auth });
    expect(del.statusCode).toBe(204);
    expect(await servicesOf(tp.app).storage.getBytes(fileRow.object_key!)).toBeNull();
    expect(await servicesOf(tp.app).storage.getBytes(fileRow.thumbnail_key!)).toBeNull();
    expect((await tp.app.inject({ method: 'GET', url: `${base(p)}/${made[2]}`, headers: owner.auth })).statusCode).toBe(404);
  });
});

describe('deleting a camera or a project', () => {
  it('leaves no media rows or files behind', async () => {
    const p = (await tp.project(owner, 'Doomed site')).exid;
    const cam = (await tp.camera(owner, p, 'Doomed cam')).exid;
    await storeFrames(tp, cam, [new Date('2026-11-01T10:00:00Z'), new Date('2026-11-01T11:00:00Z')]);
    const compare = await post(`${base(p)}/compares`, {
      title: 'c',
      camera_exid: cam,
      before_date: '2026-11-01T10:00:00Z',
      after_date: '2026-11-01T11:00:00Z',
      width: 64,
    });
    const done = await waitForStatus(tp, owner.auth, `${base(p)}/${compare.json().id}`);
    expect(done.status, done.error).toBe('completed');
    const file = await post(base(p), { type: 'file', title: 'f', file: png.toString('base64') });
    const keysOf = async (id: string) => {
      const r = await tp.t.db.kysely.selectFrom('media_hub_items').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return [r.object_key, r.gif_key, r.thumbnail_key].filter((k): k is string => !!k);
    };
    const camKeys = await keysOf(done.id);
    const fileKeys = await keysOf(file.json().id);
    expect(camKeys.length).toBe(3);
    for (const k of [...camKeys, ...fileKeys]) expect(await servicesOf(tp.app).storage.getBytes(k)).not.toBeNull();

    const delCam = await tp.app.inject({ method: 'DELETE', url: `/v2/cameras/${cam}`, headers: owner.auth });
    expect(delCam.statusCode, delCam.body).toBe(204);
    for (const k of camKeys) expect(await servicesOf(tp.app).storage.getBytes(k)).toBeNull();
    expect(await tp.t.db.kysely.selectFrom('media_hub_items').select('id').where('id', '=', done.id).executeTakeFirst()).toBeUndefined();
    for (const k of fileKeys) expect(await servicesOf(tp.app).storage.getBytes(k)).not.toBeNull();

    const delProject = await tp.app.inject({ method: 'DELETE', url: `/v2/projects/${p}`, headers: owner.auth });
    expect(delProject.statusCode, delProject.body).toBe(204);
    for (const k of fileKeys) expect(await servicesOf(tp.app).storage.getBytes(k)).toBeNull();
    expect(await tp.t.db.kysely.selectFrom('media_hub_items').select('id').where('id', '=', file.json().id).executeTakeFirst()).toBeUndefined();
  });
});

describe('scope map', () => {
  it('project:media_hub opens exactly 18 operations, all under the media hub prefixes', () => {
    const ops = scopeMap(servicesOf(tp.app).registeredRoutes).filter((r: any) => (r.scopes ?? []).includes('project:media_hub'));
    expect(ops.length).toBe(18);
    for (const r of ops as any[]) expect(r.path).toMatch(/^\/v2\/(projects\/\{exid\}\/media-hub|media-hub)(\/|$)/);
  });

  it('GET /v2/openapi.json publishes the 18 operations with their scope', async () => {
    const doc = (await tp.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json();
    const ops = Object.values(doc.paths as Record<string, Record<string, any>>)
      .flatMap((p) => Object.values(p))
      .filter((op) => (op['x-scopes'] ?? []).includes('project:media_hub'));
    expect(ops.length).toBe(18);
  });
});

// Access rules of every endpoint. Items are made in the key's project and in the other one.
const mkUrlItem = async (t: TestPlatform, w: AccessWorld, project: string) =>
  (await t.app.inject({ method: 'POST', url: base(project), headers: w.owner.auth, payload: { type: 'url', title: 'l', url: 'https://example.com' } })).json()
    .id as string;
const mkFileItem = async (t: TestPlatform, w: AccessWorld, project: string) =>
  (
    await t.app.inject({ method: 'POST', url: base(project), headers: w.owner.auth, payload: { type: 'file', title: 'f', file: png.toString('base64') } })
  ).json().id as string;
const mkCompare = async (t: TestPlatform, w: AccessWorld, project: string, camera: string) =>
  (
    await t.app.inject({
      method: 'POST',
      url: `${base(project)}/compares`,
      headers: w.owner.auth,
      payload: { title: 'c', camera_exid: camera, before_date: '2026-11-01', after_date: '2026-11-02' },
    })
  ).json().id as string;
const mkTimelapse = async (t: TestPlatform, w: AccessWorld, project: string, camera: string) =>
  (
    await t.app.inject({
      method: 'POST',
      url: `${base(project)}/timelapses`,
      headers: w.owner.auth,
      payload: { title: 't', camera_exid: camera, from_date: '2026-11-01', to_date: '2026-11-02', duration: 2 },
    })
  ).json().id as string;
/** A render that fails (no frames), waited for; then a frame is stored in its range, so a retry may succeed. */
const mkFailed = async (t: TestPlatform, w: AccessWorld, project: string, camera: string) => {
  const id = await mkTimelapse(t, w, project, camera);
  await waitForStatus(t, w.owner.auth, `${base(project)}/${id}`, ['failed']);
  await storeFrames(t, camera, [new Date('2026-11-01T12:00:00Z')]);
  return id;
};

const S = ['project:media_hub'] as const;
const specs: EndpointSpec[] = [
  { method: 'GET', url: (w) => base(w.projectExid), otherUrl: (w) => base(w.otherProjectExid), scopes: S, role: 'viewer', okStatus: 200 },
  {
    method: 'POST',
    url: (w) => base(w.projectExid),
    otherUrl: (w) => base(w.otherProjectExid),
    payload: () => ({ type: 'url', title: 'l', url: 'https://example.com' }),
    scopes: S,
    role: 'editor',
    okStatus: 201,
  },
  { method: 'GET', url: (w) => `${base(w.projectExid)}/users`, otherUrl: (w) => `${base(w.otherProjectExid)}/users`, scopes: S, role: 'viewer', okStatus: 200 },
  {
    method: 'POST',
    url: (w) => `${base(w.projectExid)}/clips`,
    otherUrl: (w) => `${base(w.otherProjectExid)}/clips`,
    payload: (w) => ({ title: 'c', camera_exid: w.cameraExid, from_date: '2026-11-01T10:00:00Z', to_date: '2026-11-01T11:00:00Z' }),
    otherPayload: (w) => ({ title: 'c', camera_exid: w.otherCameraExid, from_date: '2026-11-01T10:00:00Z', to_date: '2026-11-01T11:00:00Z' }),
    scopes: S,
    role: 'editor',
    okStatus: 201,
    // A clip over a range with no frames is refused: both cameras have one in it.
    setup: async (t, w) => {
      for (const cam of [w.cameraExid, w.otherCameraExid]) await storeFrames(t, cam, [new Date('2026-11-01T10:30:00Z')]);
      return {};
    },
  },
  {
    method: 'POST',
    url: (w) => `${base(w.projectExid)}/compares`,
    otherUrl: (w) => `${base(w.otherProjectExid)}/compares`,
    payload: (w) => ({ title: 'c', camera_exid: w.cameraExid, before_date: '2026-11-01', after_date: '2026-11-02' }),
    otherPayload: (w) => ({ title: 'c', camera_exid: w.otherCameraExid, before_date: '2026-11-01', after_date: '2026-11-02' }),
    scopes: S,
    role: 'editor',
    okStatus: 201,
  },
  {
    method: 'POST',
    url: (w) => `${base(w.projectExid)}/timelapses`,
    otherUrl: (w) => `${base(w.otherProjectExid)}/timelapses`,
    payload: (w) => ({ title: 't', camera_exid: w.cameraExid, from_date: '2026-11-01', to_date: '2026-11-02', duration: 2 }),
    otherPayload: (w) => ({ title: 't', camera_exid: w.otherCameraExid, from_date: '2026-11-01', to_date: '2026-11-02', duration: 2 }),
    scopes: S,
    role: 'editor',
    okStatus: 201,
  },
];
const itemSpecs: [EndpointSpec['method'], string, 'url' | 'compare' | 'timelapse' | 'failed', 'viewer' | 'editor', number, object?][] = [
  ['GET', '', 'url', 'viewer', 200],
  ['PATCH', '', 'url', 'editor', 200, { title: 'New' }],
  ['DELETE', '', 'url', 'editor', 204],
  ['POST', '/retry', 'failed', 'editor', 200],
  ['GET', 'compares/', 'compare', 'viewer', 200],
  ['PATCH', 'compares/', 'compare', 'editor', 200, { title: 'New' }],
  ['DELETE', 'compares/', 'compare', 'editor', 204],
  ['GET', 'timelapses/', 'timelapse', 'viewer', 200],
  ['PATCH', 'timelapses/', 'timelapse', 'editor', 200, { title: 'New' }],
  ['DELETE', 'timelapses/', 'timelapse', 'editor', 204],
];
for (const [method, sub, kind, role, okStatus, body] of itemSpecs) {
  const make =
    kind === 'url'
      ? (t: TestPlatform, w: AccessWorld, p: string) => mkUrlItem(t, w, p)
      : kind === 'compare'
        ? mkCompare
        : kind === 'timelapse'
          ? mkTimelapse
          : mkFailed;
  const path = (p: string, id: string) => (sub === '/retry' ? `${base(p)}/${id}/retry` : `${base(p)}/${sub}${id}`);
  specs.push({
    method,
    url: (w) => path(w.projectExid, w.extra.id!),
    otherUrl: (w) => path(w.otherProjectExid, w.extra.otherId!),
    ...(body ? { payload: () => body } : {}),
    scopes: S,
    role,
    okStatus,
    setup: async (t, w) => ({ id: await make(t, w, w.projectExid, w.cameraExid), otherId: await make(t, w, w.otherProjectExid, w.otherCameraExid) }),
  });
}
for (const what of ['file', 'thumbnail']) {
  specs.push({
    method: 'GET',
    url: (w) => `/v2/media-hub/${w.extra.id}/${what}`,
    otherUrl: (w) => `/v2/media-hub/${w.extra.otherId}/${what}`,
    scopes: S,
    role: 'viewer',
    okStatus: 200,
    setup: async (t, w) => ({ id: await mkFileItem(t, w, w.projectExid), otherId: await mkFileItem(t, w, w.otherProjectExid) }),
  });
}

describe('clips of nothing', () => {
  it('refuses a clip over a range without recordings in plain words, and accepts it once a frame is there', async () => {
    const cam = (await tp.camera(owner, projectExid, 'Empty cam')).exid;
    const payload = { title: 'Nothing', camera_exid: cam, from_date: '2026-11-03T08:00:00Z', to_date: '2026-11-03T09:00:00Z' };
    const refused = await post(`${base()}/clips`, payload);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'from_date', message: 'the camera recorded no frames between these times' }],
    });
    // A frame just outside either end does not count; one at the very end (to the minute) does.
    await storeFrames(tp, cam, [new Date('2026-11-03T07:59:59Z'), new Date('2026-11-03T09:01:00Z')]);
    expect((await post(`${base()}/clips`, payload)).statusCode).toBe(400);
    await storeFrames(tp, cam, [new Date('2026-11-03T09:00:30Z')]);
    const made = await post(`${base()}/clips`, { ...payload, to_date: '2026-11-03T09:00' });
    expect(made.statusCode, made.body).toBe(201);
  });

  it('refuses to retry a render whose range still has no recordings (409), and retries once it has', async () => {
    const cam = (await tp.camera(owner, projectExid, 'Later cam')).exid;
    const res = await post(`${base()}/timelapses`, { title: 'Later', camera_exid: cam, from_date: '2026-11-04', to_date: '2026-11-04', duration: 1 });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id;
    await waitForStatus(tp, owner.auth, `${base()}/${id}`, ['failed']);
    const refused = await post(`${base()}/${id}/retry`, {});
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toBe('The camera recorded no frames in this range, so the render would fail again');
    await storeFrames(tp, cam, [new Date('2026-11-04T12:00:00Z')]);
    const retried = await post(`${base()}/${id}/retry`, {});
    expect(retried.statusCode, retried.body).toBe(200);
  });
});

describe('access rules', () => {
  it('covers all 18 endpoints', () => expect(specs.length).toBe(18));
  for (const spec of specs) {
    it(`${spec.method} ${spec.url({ projectExid: '{exid}', cameraExid: 'c', otherProjectExid: 'o', otherCameraExid: 'oc', owner: null as never, extra: { id: '{id}', otherId: '' } })}`, async () => {
      await checkEndpointAccess(tp, spec);
    });
  }
});
