// Autodesk Construction Cloud connector against a local fake of APS (OAuth with PKCE and HTTP Basic
// client authentication, JSON:API Data Management, OSS signed uploads): the OAuth flow, browsing hubs →
// projects → folders → subfolders with the person's bearer token, the whole five-step upload (the fake
// decodes the JPEG that reached the signed URL), the viewer token, failures and every access rule.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOAuthProvider, type FakeOAuthProvider } from '../../fakes/fake-oauth-provider.js';
import { checkEndpointAccess, type EndpointSpec } from '../../helpers/access.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { connectDirectly, connectOAuth, storeSnapshot } from './connector-helpers.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

let tp: TestPlatform;
let fake: FakeOAuthProvider;
let owner: Person;
let projectExid: string;
let cameraExid: string;
const HUB = 'b.hub-1';
const PROJ = 'b.proj-1';
const TOP = 'urn:adsk.wipprod:fs.folder:co.top';
const SUB = 'urn:adsk.wipprod:fs.folder:co.sub';
const objects = new Map<string, { uploadKey: string; bytes?: Buffer; done: boolean; folder: string }>();
const items: { name: string; folder: string; storage: string; width: number }[] = [];
let failItems = false;

beforeAll(async () => {
  fake = await startFakeOAuthProvider({
    clientAuth: 'basic',
    requirePkce: true,
    authorizePath: '/authentication/v2/authorize',
    tokenPath: '/authentication/v2/token',
    revokePath: '/authentication/v2/revoke',
  });
  const hubs = { data: [{ type: 'hubs', id: HUB, attributes: { name: 'Builder ACC', extension: { type: 'hubs:autodesk.bim360:Account' } } }] };
  fake
    .route('GET', '/userprofile/v1/users/@me', () => ({
      json: { userId: 'U1', userName: 'pat', emailId: 'pat@builder.example', firstName: 'Pat', lastName: 'M' },
    }))
    .route('GET', '/project/v1/hubs', () => ({ json: hubs }))
    .route('GET', '/project/v1/hubs/:hub/projects', (r) =>
      r.params.hub === HUB
        ? { json: { data: [{ type: 'projects', id: PROJ, attributes: { name: 'Tower B', extension: { type: 'projects:autodesk.bim360:Project' } } }] } }
        : { status: 404, json: { errors: [{ detail: 'hub not found' }] } },
    )
    .route('GET', '/project/v1/hubs/:hub/projects/:project/topFolders', (r) =>
      r.params.project === PROJ
        ? {
            json: {
              data: [
                {
                  type: 'folders',
                  id: TOP,
                  attributes: { name: 'Project Files', displayName: 'Project Files', extension: { type: 'folders:autodesk.bim360:Folder' } },
                },
              ],
            },
          }
        : { status: 404, json: {} },
    )
    .route('GET', '/data/v1/projects/:project/folders/:folder/contents', (r) => {
      if (r.params.folder === 'urn:adsk.wipprod:fs.folder:co.broken') return { status: 500, text: 'oops' };
      return {
        json: {
          data: [
            {
              type: 'folders',
              id: SUB,
              attributes: { name: 'Site photos', displayName: 'Site photos', extension: { type: 'folders:autodesk.bim360:Folder' } },
            },
            { type: 'items', id: 'urn:adsk.wipprod:dm.lineage:x', attributes: { displayName: 'plan.pdf' } },
          ],
          filter: r.query.get('filter[type]'),
        },
      };
    })
    .route('POST', '/data/v1/projects/:project/storage', (r) => {
      const body = r.json();
      const name = body.data.attributes.name as string;
      const id = `urn:adsk.objects:os.object:wip.dm.prod/${objects.size + 1}-${name}`;
      objects.set(`${objects.size + 1}-${name}`, { uploadKey: `uk-${objects.size}`, done: false, folder: body.data.relationships.target.data.id });
      expect(r.headers['content-type']).toContain('application/vnd.api+json');
      return { status: 201, json: { data: { type: 'objects', id } } };
    })
    .route('GET', '/oss/v2/buckets/:bucket/objects/:object/signeds3upload', (r) => {
      const o = objects.get(r.params.object!);
      return o ? { json: { uploadKey: o.uploadKey, urls: [`${fake.url}/s3/${encodeURIComponent(r.params.object!)}?sig=abc`] } } : { status: 404, json: {} };
    })
    .route(
      'PUT',
      '/s3/:object',
      (r) => {
        // Signed URL: no bearer may be sent to S3.
        if (r.token || r.query.get('sig') !== 'abc') return { status: 403, text: 'bad signature' };
        objects.get(r.params.object!)!.bytes = r.body;
        return { status: 200, text: '' };
      },
      { public: true },
    )
    .route('POST', '/oss/v2/buckets/:bucket/objects/:object/signeds3upload', (r) => {
      const o = objects.get(r.params.object!);
      if (!o || r.json().uploadKey !== o.uploadKey || !o.bytes) return { status: 400, json: { reason: 'upload incomplete' } };
      o.done = true;
      return { json: { objectId: `urn:adsk.objects:os.object:${r.params.bucket}/${r.params.object}` } };
    })
    .route('POST', '/data/v1/projects/:project/items', async (r) => {
      if (failItems) return { status: 502, json: { errors: [{ detail: 'upstream' }] } };
      const body = r.json();
      const storage = body.included[0].relationships.storage.data.id as string;
      const o = objects.get(storage.split('/').pop()!);
      if (!o?.done) return { status: 400, json: { errors: [{ detail: 'storage not uploaded' }] } };
      const width = await sharp(o.bytes!)
        .metadata()
        .then(
          (m) => m.width!,
          () => 0,
        );
      items.push({ name: body.data.attributes.displayName, folder: body.data.relationships.parent.data.id, storage, width });
      return {
        status: 201,
        json: {
          data: {
            type: 'items',
            id: `urn:adsk.wipprod:dm.lineage:${items.length}`,
            links: { webView: { href: `https://acc.autodesk.example/docs/${items.length}` } },
          },
          included: [{ type: 'versions', id: `urn:adsk.wipprod:fs.file:vf.${items.length}?version=1` }],
        },
      };
    });
  tp = await buildTestPlatform(fake.env('ACC'));
  owner = await tp.person('owner');
  projectExid = (await tp.project(owner, 'ACC site')).exid;
  cameraExid = (await tp.camera(owner, projectExid, 'Tower cam')).exid;
});

afterAll(async () => {
  await tp?.close();
  await fake?.close();
});

const get = (p: Person, url: string) => tp.app.inject({ method: 'GET', url, headers: p.auth });
const post = (p: Person, url: string, payload: object) => tp.app.inject({ method: 'POST', url, headers: p.auth, payload });

describe('ACC connection and actions', () => {
  it('connects with PKCE and Basic client auth, then browses hubs, projects, folders and subfolders', async () => {
    const start = await post(owner, '/v2/connectors/acc/connect', {});
    const url = new URL(start.json().authorization_url);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toContain('data:create');
    const back = await fake.authorize(url.href);
    const cb = await tp.app.inject({ method: 'GET', url: back.pathname + back.search });
    expect(cb.statusCode, cb.body).toBe(200);
    expect(cb.json().account).toMatchObject({ email: 'pat@builder.example', name: 'Pat M' });

    expect((await get(owner, '/v2/connectors/acc/hubs')).json()).toEqual([{ id: HUB, name: 'Builder ACC', type: 'hubs:autodesk.bim360:Account' }]);
    expect((await get(owner, `/v2/connectors/acc/hubs/${HUB}/projects`)).json()).toEqual([
      { id: PROJ, name: 'Tower B', type: 'projects:autodesk.bim360:Project' },
    ]);
    const top = await get(owner, `/v2/connectors/acc/hubs/${HUB}/projects/${PROJ}/folders`);
    expect(top.json()).toEqual([{ id: TOP, name: 'Project Files', type: 'folders:autodesk.bim360:Folder' }]);
    const subs = await get(owner, `/v2/connectors/acc/hubs/${HUB}/projects/${PROJ}/folders/${encodeURIComponent(TOP)}/subfolders`);
    expect(subs.statusCode, subs.body).toBe(200);
    expect(subs.json()).toEqual([{ id: SUB, name: 'Site photos', type: 'folders:autodesk.bim360:Folder' }]);
    expect(fake.log.at(-1)!.query).toContain('filter%5Btype%5D=folders');
    expect(fake.log.at(-1)!.token).toMatch(/^at_/);
  });

  it('uploads a snapshot through storage, the signed URL and a new item', async () => {
    const jpeg = await storeSnapshot(tp, cameraExid, '2026-11-19T09:30:00Z');
    const res = await post(owner, `/v2/connectors/acc/cameras/${cameraExid}/uploads`, {
      hub_id: HUB,
      project_id: PROJ,
      folder_id: SUB,
      file_name: 'tower.jpg',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      item_id: 'urn:adsk.wipprod:dm.lineage:1',
      version_id: expect.stringContaining('version=1'),
      file_name: 'tower.jpg',
      taken_at: '2026-11-19T09:30:00.000Z',
    });
    expect(res.json().web_view_url).toContain('/docs/1');
    expect(items.at(-1)).toMatchObject({ name: 'tower.jpg', folder: SUB, width: 320 });
    const stored = [...objects.values()].at(-1)!;
    expect(stored.bytes!.equals(jpeg)).toBe(true);
    const row = await tp.t.db.kysely.selectFrom('connector_uploads').selectAll().where('provider', '=', 'acc').executeTakeFirstOrThrow();
    expect(row.remote_id).toBe('urn:adsk.wipprod:dm.lineage:1');
  });

  it("uploads a media hub file of the camera's project, and refuses items of other projects or both sources at once", async () => {
    const { id: projectId } = await tp.t.db.kysely.selectFrom('projects').select('id').where('exid', '=', projectExid).executeTakeFirstOrThrow();
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    const item = await servicesOf(tp.app).mediaHub.create({ id: projectId, exid: projectExid }, owner.id, {
      type: 'file',
      title: 'Weekly report',
      file: pdf.toString('base64'),
      file_name: 'weekly-report.pdf',
      content_type: 'application/pdf',
    });
    const url = `/v2/connectors/acc/cameras/${cameraExid}/uploads`;
    const res = await post(owner, url, { hub_id: HUB, project_id: PROJ, folder_id: SUB, media_item_id: item.id });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ file_name: 'weekly-report.pdf', taken_at: null });
    expect([...objects.values()].at(-1)!.bytes!.equals(pdf)).toBe(true);
    expect(items.at(-1)).toMatchObject({ name: 'weekly-report.pdf', folder: SUB });

    expect((await post(owner, url, { hub_id: HUB, project_id: PROJ, folder_id: SUB, media_item_id: item.id, source: 'live' })).statusCode).toBe(400);
    const elsewhere = await tp.project(owner, 'Elsewhere');
    const { id: otherId } = await tp.t.db.kysely.selectFrom('projects').select('id').where('exid', '=', elsewhere.exid).executeTakeFirstOrThrow();
    const foreign = await servicesOf(tp.app).mediaHub.create({ id: otherId, exid: elsewhere.exid }, owner.id, {
      type: 'file',
      title: 'Other',
      file: pdf.toString('base64'),
      content_type: 'application/pdf',
    });
    expect((await post(owner, url, { hub_id: HUB, project_id: PROJ, folder_id: SUB, media_item_id: foreign.id })).statusCode).toBe(404);
  });

  it('hands out a viewer token of the app with viewables:read only', async () => {
    const res = await get(owner, '/v2/connectors/acc/viewer-token');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ token_type: 'Bearer', scopes: ['viewables:read'] });
    expect(fake.appTokens.at(-1)).toEqual({ token: res.json().access_token, scope: 'viewables:read' });
    const stranger = await tp.person('stranger');
    expect((await get(stranger, '/v2/connectors/acc/viewer-token')).json().code).toBe('CONNECTOR_NOT_CONNECTED');
  });

  it('maps failures and refuses bad input', async () => {
    expect((await get(owner, '/v2/connectors/acc/hubs/b.nohub/projects')).statusCode).toBe(404);
    const broken = await get(
      owner,
      `/v2/connectors/acc/hubs/${HUB}/projects/${PROJ}/folders/${encodeURIComponent('urn:adsk.wipprod:fs.folder:co.broken')}/subfolders`,
    );
    expect(broken.statusCode).toBe(502);
    failItems = true;
    try {
      await storeSnapshot(tp, cameraExid, '2026-11-19T10:30:00Z');
      const r = await post(owner, `/v2/connectors/acc/cameras/${cameraExid}/uploads`, { hub_id: HUB, project_id: PROJ, folder_id: SUB });
      expect(r.statusCode).toBe(502);
    } finally {
      failItems = false;
    }
    const url = `/v2/connectors/acc/cameras/${cameraExid}/uploads`;
    expect((await post(owner, url, { hub_id: HUB, project_id: PROJ })).statusCode).toBe(400);
    expect((await post(owner, url, { hub_id: HUB, project_id: PROJ, folder_id: SUB, file_name: '../x.jpg' })).statusCode).toBe(400);
    expect((await post(owner, url, { hub_id: HUB, project_id: PROJ, folder_id: SUB, file_name: 'no-extension' })).statusCode).toBe(400);
    expect((await post(owner, url, { hub_id: HUB, project_id: 'a/b', folder_id: SUB })).statusCode).toBe(400);
    expect((await get(owner, `/v2/connectors/acc/hubs/${encodeURIComponent('a b')}/projects`)).statusCode).toBe(400);
  });

  it('disconnects, revoking at Autodesk', async () => {
    const person = await tp.person('leaver');
    expect((await connectOAuth(tp, person, 'acc', fake)).statusCode).toBe(200);
    const c = await servicesOf(tp.app).connectors.store.connection(person.id, 'acc');
    const off = await tp.app.inject({ method: 'DELETE', url: '/v2/connectors/acc/connect', headers: person.auth });
    expect(off.json()).toEqual({ provider: 'acc', connected: false, revoked: true });
    expect(fake.revoked).toContain(c!.refreshToken);
  });
});

describe('ACC access rules', () => {
  const connected = async (t: TestPlatform, w: { owner: Person }) => {
    await connectDirectly(t, w.owner.id, 'acc', fake);
    return {};
  };
  const base = { scopes: ['project:connectors'] as const, okStatus: 200 };
  const specs: EndpointSpec[] = [
    { ...base, method: 'POST', url: () => '/v2/connectors/acc/connect', payload: () => ({}) },
    { ...base, method: 'GET', url: () => '/v2/connectors/acc/status' },
    { ...base, method: 'DELETE', url: () => '/v2/connectors/acc/connect', setup: connected },
    { ...base, method: 'GET', url: () => '/v2/connectors/acc/hubs', setup: connected },
    { ...base, method: 'GET', url: () => `/v2/connectors/acc/hubs/${HUB}/projects`, setup: connected },
    { ...base, method: 'GET', url: () => `/v2/connectors/acc/hubs/${HUB}/projects/${PROJ}/folders`, setup: connected },
    { ...base, method: 'GET', url: () => `/v2/connectors/acc/hubs/${HUB}/projects/${PROJ}/folders/${encodeURIComponent(TOP)}/subfolders`, setup: connected },
    {
      ...base,
      method: 'POST',
      url: (w) => `/v2/connectors/acc/cameras/${w.cameraExid}/uploads`,
      otherUrl: (w) => `/v2/connectors/acc/cameras/${w.otherCameraExid}/uploads`,
      payload: () => ({ hub_id: HUB, project_id: PROJ, folder_id: SUB }),
      role: 'editor',
      okStatus: 201,
      setup: async (t, w) => {
        await connectDirectly(t, w.owner.id, 'acc', fake);
        await storeSnapshot(t, w.cameraExid, '2026-11-21T08:00:00Z');
        await storeSnapshot(t, w.otherCameraExid, '2026-11-21T08:00:00Z');
        return {};
      },
    },
    { ...base, method: 'GET', url: () => '/v2/connectors/acc/viewer-token', setup: connected },
  ];
  for (const spec of specs) {
    it(`${spec.method} ${spec.url({ projectExid: '{exid}', cameraExid: '{camera_exid}' } as never)}`, async () => {
      await checkEndpointAccess(tp, spec);
    });
  }
});
