// Procore connector against a local fake of Procore's OAuth and REST API: the whole OAuth flow
// (authorize → shared callback → tokens sealed in the database → status → a bearer-carrying call →
// refresh on expiry and on a 401 → disconnect revokes and forgets), every endpoint's access rules,
// the real upload (the fake decodes the JPEG it got), provider failures → 502/504, bad input → 4xx.
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
const images: { projectId: string; company: string; category: string | null; width: number; description: string; takenAt: string }[] = [];
let slow = false;

beforeAll(async () => {
  fake = await startFakeOAuthProvider({ accessTtlSeconds: 7200 });
  fake
    .route('GET', '/rest/v1.0/me', () => ({ json: { id: 42, login: 'pm@builder.example', name: 'Pat Manager' } }))
    .route('GET', '/rest/v1.0/companies', () => ({
      json: [
        { id: 8, name: 'Builder Ltd', is_active: true },
        { id: 9, name: 'Old Co', is_active: false },
      ],
    }))
    .route('GET', '/rest/v1.0/projects', async (r) => {
      if (slow) await new Promise((ok) => setTimeout(ok, 3000));
      if (r.query.get('company_id') === '500') return { status: 503, json: { message: 'maintenance' } };
      if (r.query.get('company_id') !== '8' || r.headers['procore-company-id'] !== '8') return { status: 404, json: { errors: 'company not found' } };
      return { json: [{ id: 1001, name: 'Tower A', display_name: 'Tower A (North)', project_number: 'TA-1', active: true }] };
    })
    .route('GET', '/rest/v1.0/image_categories', (r) =>
      r.query.get('project_id') === '1001' ? { json: [{ id: 77, name: 'Site cameras' }] } : { status: 404, json: { errors: 'project not found' } },
    )
    .route('POST', '/rest/v1.0/images', async (r) => {
      const form = await r.formData();
      const file = form.get('image[data]') as File;
      const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
      images.push({
        projectId: r.query.get('project_id')!,
        company: String(r.headers['procore-company-id']),
        category: (form.get('image[image_category_id]') as string | null) ?? null,
        width: meta.width!,
        description: String(form.get('image[description]')),
        takenAt: String(form.get('image[taken_at]')),
      });
      return { status: 201, json: { id: 5000 + images.length, url: `https://storage.procore.example/img/${images.length}.jpg`, image_category_id: 77 } };
    });
  tp = await buildTestPlatform({ ...fake.env('PROCORE'), OVERLOOK_CONNECTOR_TIMEOUT_MS: '1000' });
  owner = await tp.person('owner');
  projectExid = (await tp.project(owner, 'Procore site')).exid;
  cameraExid = (await tp.camera(owner, projectExid, 'Crane cam')).exid;
});

afterAll(async () => {
  await tp?.close();
  await fake?.close();
});

const as = (p: Person) => ({
  get: (url: string) => tp.app.inject({ method: 'GET', url, headers: p.auth }),
  post: (url: string, payload: object) => tp.app.inject({ method: 'POST', url, headers: p.auth, payload }),
});

describe('Procore OAuth connection', () => {
  it('connects through the provider, seals the tokens, calls with the bearer, refreshes, and disconnects with revocation', async () => {
    const person = await tp.person('flow');
    const before = await as(person).get('/v2/connectors/procore/status');
    expect(before.json()).toMatchObject({ provider: 'procore', connected: false });

    const start = await as(person).post('/v2/connectors/procore/connect', {});
    expect(start.statusCode, start.body).toBe(200);
    const authUrl = new URL(start.json().authorization_url);
    expect(authUrl.origin + authUrl.pathname).toBe(`${fake.url}/oauth/authorize`);
    expect(authUrl.searchParams.get('client_id')).toBe(fake.clientId);
    expect(authUrl.searchParams.get('state')).toBe(start.json().state);
    expect(authUrl.searchParams.get('redirect_uri')).toMatch(/\/v2\/connectors\/procore\/callback$/);

    const back = await fake.authorize(authUrl.href);
    // The browser comes back without any credential: the state says who it is.
    const cb = await tp.app.inject({ method: 'GET', url: back.pathname + back.search });
    expect(cb.statusCode, cb.body).toBe(200);
    expect(cb.json()).toMatchObject({ provider: 'procore', connected: true, account: { user_id: '42', name: 'Pat Manager' } });
    // The state is single use.
    const replay = await tp.app.inject({ method: 'GET', url: back.pathname + back.search });
    expect(replay.statusCode).toBe(400);

    // At rest: no plaintext token anywhere in the row.
    const issued = [...fake.accessTokens.entries()].at(-1)!;
    const row = await tp.t.db.kysely.selectFrom('connector_connections').selectAll().where('user_id', '=', person.id).executeTakeFirstOrThrow();
    const rowText = JSON.stringify(row);
    expect(rowText).not.toContain(issued[0]);
    expect(rowText).not.toContain(issued[1].refresh);
    expect(row.access_token_enc).toMatch(/^v1\./);

    const status = await as(person).get('/v2/connectors/procore/status');
    expect(status.json()).toMatchObject({ connected: true, auth_kind: 'oauth' });
    const listed = await as(person).get('/v2/oauth2-tokens/providers');
    expect(listed.json()).toEqual([expect.objectContaining({ provider: 'procore', name: 'Procore', auth_kind: 'oauth' })]);

    const companies = await as(person).get('/v2/connectors/procore/companies');
    expect(companies.statusCode, companies.body).toBe(200);
    expect(companies.json()).toEqual([
      { id: '8', name: 'Builder Ltd', is_active: true },
      { id: '9', name: 'Old Co', is_active: false },
    ]);
    expect(fake.log.at(-1)).toMatchObject({ path: '/rest/v1.0/companies', token: issued[0] });

    // Expired (by the provider's clock and ours): refreshed before the call.
    fake.expireAccessTokens();
    await tp.t.db.kysely
      .updateTable('connector_connections')
      .set({ expires_at: new Date(Date.now() + 10_000).toISOString() })
      .where('user_id', '=', person.id)
      .execute();
    const refreshesBefore = fake.grants.refresh_token;
    const again = await as(person).get('/v2/connectors/procore/companies');
    expect(again.statusCode, again.body).toBe(200);
    expect(fake.grants.refresh_token).toBe(refreshesBefore + 1);
    expect(fake.log.at(-1)!.token).not.toBe(issued[0]);

    // Dropped early by the provider (401 on a token we think valid): refresh once and retry.
    fake.dropAccessTokens();
    const third = await as(person).get('/v2/connectors/procore/companies');
    expect(third.statusCode, third.body).toBe(200);
    expect(fake.grants.refresh_token).toBe(refreshesBefore + 2);

    // Refresh refused too: 502 CONNECTOR_AUTH_EXPIRED.
    fake.dropAccessTokens();
    fake.refreshTokens.clear();
    const dead = await as(person).get('/v2/connectors/procore/companies');
    expect(dead.statusCode).toBe(502);
    expect(dead.json().code).toBe('CONNECTOR_AUTH_EXPIRED');

    // Reconnect, then disconnect: both tokens revoked at the provider, the row gone.
    expect((await connectOAuth(tp, person, 'procore', fake)).statusCode).toBe(200);
    const live = await servicesOf(tp.app).connectors.store.connection(person.id, 'procore');
    const off = await tp.app.inject({ method: 'DELETE', url: '/v2/connectors/procore/connect', headers: person.auth });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({ provider: 'procore', connected: false, revoked: true });
    expect(fake.revoked).toEqual(expect.arrayContaining([live!.accessToken, live!.refreshToken]));
    expect(await servicesOf(tp.app).connectors.store.connection(person.id, 'procore')).toBeNull();
    expect((await as(person).get('/v2/connectors/procore/companies')).json().code).toBe('CONNECTOR_NOT_CONNECTED');
    expect((await as(person).get('/v2/oauth2-tokens/providers')).json()).toEqual([]);
    const twice = await tp.app.inject({ method: 'DELETE', url: '/v2/connectors/procore/connect', headers: person.auth });
    expect(twice.statusCode).toBe(404);
  });

  it('sends the browser back to redirect_after, refuses foreign redirects, denied authorizations and strangers', async () => {
    const person = await tp.person('redir');
    expect((await as(person).post('/v2/connectors/procore/connect', { redirect_after: 'https://evil.example/x' })).statusCode).toBe(400);
    expect((await as(person).post('/v2/connectors/procore/connect', { redirect_after: '//evil.example/x' })).statusCode).toBe(400);
    const start = await as(person).post('/v2/connectors/procore/connect', { redirect_after: '/projects/abc/settings?tab=connectors', project_exid: 'abc' });
    const back = await fake.authorize(start.json().authorization_url);
    const cb = await tp.app.inject({ method: 'GET', url: back.pathname + back.search });
    expect(cb.statusCode).toBe(302);
    expect(cb.headers.location).toBe('/projects/abc/settings?tab=connectors&connector=procore&status=connected&project_exid=abc');

    // Someone else signed in finishing this person's authorization: refused, nothing stored for them.
    const other = await tp.person('other');
    const s2 = await as(person).post('/v2/connectors/procore/connect', {});
    const b2 = await fake.authorize(s2.json().authorization_url);
    const stolen = await tp.app.inject({ method: 'GET', url: b2.pathname + b2.search, headers: other.auth });
    expect(stolen.statusCode).toBe(403);
    expect(await servicesOf(tp.app).connectors.store.connection(other.id, 'procore')).toBeNull();

    // An API key cannot reach the callback at all.
    const key = await tp.key(owner, { projects: [projectExid], scopes: ['project:connectors'] });
    const s3 = await as(person).post('/v2/connectors/procore/connect', {});
    const b3 = await fake.authorize(s3.json().authorization_url);
    const keyed = await tp.app.inject({ method: 'GET', url: b3.pathname + b3.search, headers: key.headers });
    expect(keyed.statusCode).toBe(403);

    // The person said no at the provider.
    fake.denyNext = true;
    const s4 = await as(person).post('/v2/connectors/procore/connect', {});
    const b4 = await fake.authorize(s4.json().authorization_url);
    const denied = await tp.app.inject({ method: 'GET', url: b4.pathname + b4.search });
    expect(denied.statusCode).toBe(400);
    expect(denied.json().message).toContain('access_denied');

    // Forged, missing, other-provider state.
    for (const q of ['?code=x&state=forged', '?code=x', '?state=', '']) {
      const r = await tp.app.inject({ method: 'GET', url: `/v2/connectors/procore/callback${q}` });
      expect(r.statusCode, q).toBe(400);
    }
    expect((await tp.app.inject({ method: 'GET', url: '/v2/connectors/nope/callback?code=x&state=y' })).statusCode).toBe(400);
  });

  it('refuses to start when the server has no client id for the provider', async () => {
    const bare = await buildTestPlatform({ OVERLOOK_PROCORE_URL: fake.url });
    try {
      const p = await bare.person('bare');
      const r = await bare.app.inject({ method: 'POST', url: '/v2/connectors/procore/connect', headers: p.auth, payload: {} });
      // A server setting is missing: a 4xx that says so (no request gets a 5xx for what it cannot change).
      expect(r.statusCode).toBe(409);
      expect(r.json().code).toBe('CONNECTOR_NOT_CONFIGURED');
    } finally {
      await bare.close();
    }
  });
});

describe('Procore actions', () => {
  beforeAll(async () => {
    expect((await connectOAuth(tp, owner, 'procore', fake)).statusCode).toBe(200);
  });

  it('browses companies, projects and image categories with the Procore-Company-Id header', async () => {
    const projects = await as(owner).get('/v2/connectors/procore/companies/8/projects');
    expect(projects.statusCode, projects.body).toBe(200);
    expect(projects.json()).toEqual([{ id: '1001', name: 'Tower A (North)', project_number: 'TA-1', active: true }]);
    const cats = await as(owner).get('/v2/connectors/procore/companies/8/projects/1001/image-categories');
    expect(cats.json()).toEqual([{ id: '77', name: 'Site cameras' }]);
  });

  it('maps provider failures: 404 → 404, 5xx → 502, no answer → 504; bad ids → 400', async () => {
    expect((await as(owner).get('/v2/connectors/procore/companies/12/projects')).statusCode).toBe(404);
    const down = await as(owner).get('/v2/connectors/procore/companies/500/projects');
    expect(down.statusCode).toBe(502);
    expect(down.json()).toMatchObject({ code: 'BAD_GATEWAY', details: { upstream_status: 503 } });
    slow = true;
    try {
      const late = await as(owner).get('/v2/connectors/procore/companies/8/projects');
      expect(late.statusCode).toBe(504);
      expect(late.json().code).toBe('GATEWAY_TIMEOUT');
    } finally {
      slow = false;
    }
    expect((await as(owner).get('/v2/connectors/procore/companies/8%2F..%2Fx/projects')).statusCode).toBe(400);
    // Longer than any path parameter the router accepts: 414 before our schema (still a 4xx).
    expect((await as(owner).get(`/v2/connectors/procore/companies/${'9'.repeat(300)}/projects`)).statusCode).toBe(414);
  });

  it('uploads a recorded snapshot and a live frame to Procore and lists the uploads', async () => {
    await storeSnapshot(tp, cameraExid, '2026-11-20T10:00:00Z');
    await storeSnapshot(tp, cameraExid, '2026-11-20T12:00:00Z');
    const up = await as(owner).post(`/v2/connectors/procore/cameras/${cameraExid}/uploads`, {
      company_id: '8',
      project_id: '1001',
      image_category_id: '77',
      timestamp: '2026-11-20T10:05:00Z',
    });
    expect(up.statusCode, up.body).toBe(201);
    expect(up.json()).toMatchObject({ procore_project_id: '1001', taken_at: '2026-11-20T10:00:00.000Z', file_name: `${cameraExid}-20261120T100000Z.jpg` });
    const sent = images.at(-1)!;
    expect(sent).toMatchObject({ projectId: '1001', company: '8', category: '77', width: 320, takenAt: '2026-11-20T10:00:00.000Z' });

    const live = await as(owner).post(`/v2/connectors/procore/cameras/${cameraExid}/uploads`, {
      company_id: '8',
      project_id: '1001',
      source: 'live',
      description: 'Now',
    });
    expect(live.statusCode, live.body).toBe(201);
    expect(images.at(-1)).toMatchObject({ description: 'Now', category: null });
    expect(images.at(-1)!.width).toBeGreaterThan(0);

    const list = await as(owner).get(`/v2/connectors/procore/projects/${projectExid}/uploads`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().total).toBeGreaterThanOrEqual(2);
    expect(list.json().items[0]).toMatchObject({
      provider: 'procore',
      project_exid: projectExid,
      camera_exid: cameraExid,
      remote_project_id: '1001',
      uploaded_by: owner.email,
    });
    const filtered = await as(owner).get(`/v2/connectors/procore/projects/${projectExid}/uploads?procore_project_id=999&limit=5`);
    expect(filtered.json()).toMatchObject({ items: [], total: 0, limit: 5 });
  });

  it('refuses bad uploads with 4xx: unknown fields, bad source, no snapshot at all, unknown Procore project', async () => {
    const url = `/v2/connectors/procore/cameras/${cameraExid}/uploads`;
    expect((await as(owner).post(url, { company_id: '8' })).statusCode).toBe(400);
    expect((await as(owner).post(url, { company_id: '8', project_id: '1001', extra: 1 })).statusCode).toBe(400);
    expect((await as(owner).post(url, { company_id: '8', project_id: '1001', source: 'dream' })).statusCode).toBe(400);
    expect((await as(owner).post(url, { company_id: '8', project_id: '1001', timestamp: 'yesterday' })).statusCode).toBe(400);
    const empty = (await tp.camera(owner, projectExid, 'Empty cam')).exid;
    expect((await as(owner).post(`/v2/connectors/procore/cameras/${empty}/uploads`, { company_id: '8', project_id: '1001' })).statusCode).toBe(404);
    expect((await as(owner).get(`/v2/connectors/procore/projects/${projectExid}/uploads?limit=0`)).statusCode).toBe(400);
  });
});

describe('Procore access rules', () => {
  const connected = async (t: TestPlatform, userId: string) => connectDirectly(t, userId, 'procore', fake);
  const specs: EndpointSpec[] = [
    { method: 'POST', url: () => '/v2/connectors/procore/connect', payload: () => ({}), scopes: ['project:connectors'], okStatus: 200 },
    { method: 'GET', url: () => '/v2/connectors/procore/status', scopes: ['project:connectors'], okStatus: 200 },
    {
      method: 'DELETE',
      url: () => '/v2/connectors/procore/connect',
      scopes: ['project:connectors'],
      okStatus: 200,
      setup: async (t, w) => {
        await connected(t, w.owner.id);
        return {};
      },
    },
    {
      method: 'GET',
      url: () => '/v2/connectors/procore/companies',
      scopes: ['project:connectors'],
      okStatus: 200,
      setup: async (t, w) => {
        await connected(t, w.owner.id);
        return {};
      },
    },
    {
      method: 'GET',
      url: () => '/v2/connectors/procore/companies/8/projects',
      scopes: ['project:connectors'],
      okStatus: 200,
      setup: async (t, w) => {
        await connected(t, w.owner.id);
        return {};
      },
    },
    {
      method: 'GET',
      url: () => '/v2/connectors/procore/companies/8/projects/1001/image-categories',
      scopes: ['project:connectors'],
      okStatus: 200,
      setup: async (t, w) => {
        await connected(t, w.owner.id);
        return {};
      },
    },
    {
      method: 'POST',
      url: (w) => `/v2/connectors/procore/cameras/${w.cameraExid}/uploads`,
      otherUrl: (w) => `/v2/connectors/procore/cameras/${w.otherCameraExid}/uploads`,
      payload: () => ({ company_id: '8', project_id: '1001' }),
      scopes: ['project:connectors'],
      role: 'editor',
      okStatus: 201,
      setup: async (t, w) => {
        await connected(t, w.owner.id);
        await storeSnapshot(t, w.cameraExid, '2026-11-21T08:00:00Z');
        await storeSnapshot(t, w.otherCameraExid, '2026-11-21T08:00:00Z');
        return {};
      },
    },
    {
      method: 'GET',
      url: (w) => `/v2/connectors/procore/projects/${w.projectExid}/uploads`,
      otherUrl: (w) => `/v2/connectors/procore/projects/${w.otherProjectExid}/uploads`,
      scopes: ['project:connectors'],
      role: 'viewer',
      okStatus: 200,
    },
  ];
  for (const spec of specs) {
    it(`${spec.method} ${spec.url({ projectExid: '{exid}', cameraExid: '{camera_exid}' } as never)}`, async () => {
      await checkEndpointAccess(tp, spec);
    });
  }
});
