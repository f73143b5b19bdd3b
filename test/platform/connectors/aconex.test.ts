// Oracle Aconex connector against a local fake speaking Aconex's XML: the OAuth flow through the shared
// callback, projects and the register schema parsed from XML, an upload whose fields are checked
// against the schema before sending (the fake reads the metadata XML and decodes the JPEG), the list of
// registered documents, failures → 502/504, bad input → 4xx, and every endpoint's access rules.
import sharp from 'sharp';
import { XMLParser } from 'fast-xml-parser';
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
const PROJECT = '1879048400';
const registered: { metadata: Record<string, string>; width: number; fileName: string }[] = [];
let garbage = false;

const SCHEMA = `<?xml version="1.0" encoding="UTF-8"?>
<RegisterSchema>
  <SchemaFields>
    <SchemaField><Identifier>DocumentNumber</Identifier><FieldName>Document No</FieldName><Mandatory>true</Mandatory><DataType>STRING</DataType></SchemaField>
    <SchemaField><Identifier>Title</Identifier><FieldName>Title</FieldName><Mandatory>true</Mandatory><DataType>STRING</DataType></SchemaField>
    <SchemaField><Identifier>Revision</Identifier><FieldName>Revision</FieldName><Mandatory>true</Mandatory><DataType>STRING</DataType></SchemaField>
    <SchemaField><Identifier>DocumentTypeId</Identifier><FieldName>Type</FieldName><Mandatory>true</Mandatory><DataType>NUMBER</DataType>
      <SchemaValues><SchemaValue><Id>10</Id><Value>Photo</Value></SchemaValue><SchemaValue><Id>11</Id><Value>Drawing</Value></SchemaValue></SchemaValues></SchemaField>
    <SchemaField><Identifier>DocumentStatusId</Identifier><FieldName>Status</FieldName><Mandatory>false</Mandatory><DataType>NUMBER</DataType>
      <SchemaValues><SchemaValue><Id>1</Id><Value>For Information</Value></SchemaValue></SchemaValues></SchemaField>
    <SchemaField><Identifier>DateModified</Identifier><FieldName>Date</FieldName><Mandatory>false</Mandatory><DataType>DATE</DataType></SchemaField>
  </SchemaFields>
</RegisterSchema>`;

beforeAll(async () => {
  fake = await startFakeOAuthProvider({
    clientAuth: 'basic',
    requirePkce: true,
    authorizePath: '/auth/authorize',
    tokenPath: '/auth/token',
    revokePath: '/auth/revoke',
  });
  const xml = (text: string, status = 200) => ({ status, text, contentType: 'application/xml' });
  fake
    .route('GET', '/api/user', () =>
      xml('<User><UserId>555</UserId><FirstName>Ada</FirstName><LastName>Doc</LastName><OrganizationName>Builder Ltd</OrganizationName></User>'),
    )
    .route('GET', '/api/projects', () =>
      garbage
        ? { text: 'not xml at all <<<', contentType: 'application/xml' }
        : xml(
            `<ProjectResults TotalResults="2"><SearchResults><Project><ProjectID>${PROJECT}</ProjectID><ProjectName>Harbour &amp; Quay</ProjectName><ProjectShortName>HQ</ProjectShortName></Project><Project><ProjectID>42</ProjectID><ProjectName>Depot</ProjectName></Project></SearchResults></ProjectResults>`,
          ),
    )
    .route('GET', '/api/projects/:project/register/schema', (r) =>
      r.params.project === PROJECT ? xml(SCHEMA) : xml('<Error><ErrorDescription>No such project</ErrorDescription></Error>', 404),
    )
    .route('POST', '/api/projects/:project/register', async (r) => {
      const form = await r.formData();
      const meta = new XMLParser({ parseTagValue: false }).parse(await (form.get('document') as File).text()).Document as Record<string, string>;
      const file = form.get('file') as File;
      const info = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
      registered.push({ metadata: meta, width: info.width!, fileName: file.name });
      return xml(
        `<RegisterDocument><Id>27134187754907${registered.length}</Id><DocumentNumber>${meta.DocumentNumber}</DocumentNumber><Revision>${meta.Revision}</Revision></RegisterDocument>`,
        201,
      );
    });
  tp = await buildTestPlatform(fake.env('ACONEX'));
  owner = await tp.person('owner');
  projectExid = (await tp.project(owner, 'Aconex site')).exid;
  cameraExid = (await tp.camera(owner, projectExid, 'Quay cam')).exid;
});

afterAll(async () => {
  await tp?.close();
  await fake?.close();
});

const get = (p: Person, url: string) => tp.app.inject({ method: 'GET', url, headers: p.auth });
const post = (p: Person, url: string, payload: object) => tp.app.inject({ method: 'POST', url, headers: p.auth, payload });

describe('Aconex', () => {
  it('connects through OAuth (PKCE) and the shared callback, and says who we are', async () => {
    const cb = await connectOAuth(tp, owner, 'aconex', fake);
    expect(cb.statusCode, cb.body).toBe(200);
    expect(cb.json()).toMatchObject({ provider: 'aconex', connected: true, account: { user_id: '555', name: 'Ada Doc', organization: 'Builder Ltd' } });
    const status = await get(owner, '/v2/connectors/aconex/status');
    expect(status.json()).toMatchObject({ connected: true, name: 'Oracle Aconex' });
  });

  it('lists projects and the register schema from XML', async () => {
    const projects = await get(owner, '/v2/connectors/aconex/remote-projects');
    expect(projects.statusCode, projects.body).toBe(200);
    expect(projects.json()).toEqual([
      { id: PROJECT, name: 'Harbour & Quay', short_name: 'HQ' },
      { id: '42', name: 'Depot', short_name: null },
    ]);
    const schema = await get(owner, `/v2/connectors/aconex/remote-projects/${PROJECT}/register-schema`);
    expect(schema.statusCode, schema.body).toBe(200);
    expect(schema.json()).toHaveLength(6);
    expect(schema.json()[3]).toEqual({
      identifier: 'DocumentTypeId',
      name: 'Type',
      mandatory: true,
      data_type: 'NUMBER',
      values: [
        { id: '10', value: 'Photo' },
        { id: '11', value: 'Drawing' },
      ],
    });
    expect((await get(owner, '/v2/connectors/aconex/remote-projects/999/register-schema')).statusCode).toBe(404);
  });

  it('registers a snapshot with the schema fields (values by text or id) and lists it', async () => {
    await storeSnapshot(tp, cameraExid, '2026-11-18T07:00:00Z');
    const res = await post(owner, `/v2/connectors/aconex/cameras/${cameraExid}/documents`, {
      project_id: PROJECT,
      fields: { Revision: 'A', DocumentTypeId: 'photo', DocumentStatusId: '1', Title: 'Quay <north> & pier' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ document_id: '271341877549071', revision: 'A', aconex_project_id: PROJECT, taken_at: '2026-11-18T07:00:00.000Z' });
    const sent = registered.at(-1)!;
    expect(sent.metadata).toEqual({
      DocumentNumber: `${cameraExid}-20261118T070000Z`.toUpperCase(),
      Title: 'Quay <north> & pier',
      Revision: 'A',
      DocumentTypeId: '10',
      DocumentStatusId: '1',
    });
    expect(sent.width).toBe(320);
    expect(sent.fileName).toBe(`${cameraExid}-20261118T070000Z.jpg`);

    const list = await get(owner, `/v2/connectors/aconex/projects/${projectExid}/documents`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().items[0]).toMatchObject({
      provider: 'aconex',
      remote_id: '271341877549071',
      name: 'Quay <north> & pier',
      camera_exid: cameraExid,
      details: { revision: 'A' },
    });
    expect((await get(owner, `/v2/connectors/aconex/projects/${projectExid}/documents?aconex_project_id=42`)).json().total).toBe(0);
  });

  it('refuses documents that do not fit the register, before sending anything', async () => {
    const before = registered.length;
    const url = `/v2/connectors/aconex/cameras/${cameraExid}/documents`;
    const missing = await post(owner, url, { project_id: PROJECT, fields: { DocumentTypeId: '10' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details).toEqual([{ field: 'fields.Revision', message: 'is mandatory (Revision)' }]);
    const wrong = await post(owner, url, { project_id: PROJECT, fields: { Revision: 'A', DocumentTypeId: 'Poem', Colour: 'red', DateModified: 'soon' } });
    expect(wrong.statusCode).toBe(400);
    expect(
      wrong
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['fields.Colour', 'fields.DateModified', 'fields.DocumentTypeId']);
    expect((await post(owner, url, { project_id: PROJECT, fields: { 'bad key': 'x' } })).statusCode).toBe(400);
    expect((await post(owner, url, { fields: {} })).statusCode).toBe(400);
    expect((await post(owner, url, { project_id: '999', fields: { Revision: 'A', DocumentTypeId: '10' } })).statusCode).toBe(404);
    expect(registered.length).toBe(before);
  });

  it('answers 502 when Aconex sends something that is not XML, and CONNECTOR_NOT_CONNECTED for strangers', async () => {
    garbage = true;
    try {
      const r = await get(owner, '/v2/connectors/aconex/remote-projects');
      expect(r.statusCode).toBe(502);
    } finally {
      garbage = false;
    }
    const stranger = await tp.person('stranger');
    const r = await get(stranger, '/v2/connectors/aconex/remote-projects');
    expect(r.statusCode).toBe(409);
    expect(r.json().code).toBe('CONNECTOR_NOT_CONNECTED');
  });

  it('disconnects with revocation', async () => {
    const c = await servicesOf(tp.app).connectors.store.connection(owner.id, 'aconex');
    const off = await tp.app.inject({ method: 'DELETE', url: '/v2/connectors/aconex/connect', headers: owner.auth });
    expect(off.json()).toEqual({ provider: 'aconex', connected: false, revoked: true });
    expect(fake.revoked).toContain(c!.refreshToken);
  });
});

describe('Aconex access rules', () => {
  const connected = async (t: TestPlatform, w: { owner: Person }) => {
    await connectDirectly(t, w.owner.id, 'aconex', fake);
    return {};
  };
  const base = { scopes: ['project:connectors'] as const, okStatus: 200 };
  const specs: EndpointSpec[] = [
    { ...base, method: 'POST', url: () => '/v2/connectors/aconex/connect', payload: () => ({}) },
    { ...base, method: 'GET', url: () => '/v2/connectors/aconex/status' },
    { ...base, method: 'DELETE', url: () => '/v2/connectors/aconex/connect', setup: connected },
    { ...base, method: 'GET', url: () => '/v2/connectors/aconex/remote-projects', setup: connected },
    { ...base, method: 'GET', url: () => `/v2/connectors/aconex/remote-projects/${PROJECT}/register-schema`, setup: connected },
    {
      ...base,
      method: 'POST',
      url: (w) => `/v2/connectors/aconex/cameras/${w.cameraExid}/documents`,
      otherUrl: (w) => `/v2/connectors/aconex/cameras/${w.otherCameraExid}/documents`,
      payload: () => ({ project_id: PROJECT, fields: { Revision: 'B', DocumentTypeId: '10' } }),
      role: 'editor',
      okStatus: 201,
      setup: async (t, w) => {
        await connectDirectly(t, w.owner.id, 'aconex', fake);
        await storeSnapshot(t, w.cameraExid, '2026-11-21T08:00:00Z');
        await storeSnapshot(t, w.otherCameraExid, '2026-11-21T08:00:00Z');
        return {};
      },
    },
    {
      ...base,
      method: 'GET',
      url: (w) => `/v2/connectors/aconex/projects/${w.projectExid}/documents`,
      otherUrl: (w) => `/v2/connectors/aconex/projects/${w.otherProjectExid}/documents`,
      role: 'viewer',
    },
  ];
  for (const spec of specs) {
    it(`${spec.method} ${spec.url({ projectExid: '{exid}', cameraExid: '{camera_exid}' } as never)}`, async () => {
      await checkEndpointAccess(tp, spec);
    });
  }
});
