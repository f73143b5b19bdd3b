// The main API's and the recorder's OpenAPI documents: what the transforms derive from each route's
// access declaration (security, error answers), the error body schema, and the names lint needs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_VERSION } from '../../../src/lib/package-version.js';
import { policyOf } from '../../../src/platform/access/registered-route.js';
import { toOpenApiPath } from '../../../src/platform/access/scope-map.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';
import { buildTestRecorder, type TestRecorder } from '../../helpers/recorder.js';

type Operation = {
  operationId: string;
  summary?: string;
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string }[];
  responses: Record<string, { $ref?: string }>;
};
type Document = {
  info: { version: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, { properties: Record<string, unknown> }>;
    responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }>;
  };
};

const operations = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, path, op })));

let tp: TestPlatform;
let r: TestRecorder;
let platformDoc: Document;
let recorderDoc: Document;

beforeAll(async () => {
  tp = await buildTestPlatform();
  r = await buildTestRecorder();
  platformDoc = (await tp.app.inject({ url: '/v2/openapi.json' })).json();
  recorderDoc = (await r.app.inject({ url: '/api/openapi.json' })).json();
}, 120_000);
afterAll(async () => {
  await tp?.close();
  await r?.close();
});

describe('the main API document', () => {
  it('declares no security exactly where the route needs no credential (public, or open to anonymous callers)', () => {
    const byKey = new Map(operations(platformDoc).map((o) => [o.key, o.op]));
    let checked = 0;
    for (const route of servicesOf(tp.app).registeredRoutes) {
      const op = byKey.get(`${route.method} ${toOpenApiPath(route.url)}`);
      if (!op) continue; // hidden from the document (OAuth endpoints, the document itself)
      const policy = policyOf(route)!;
      const open = policy.access === 'public' || (policy.access === 'people' && !!policy.anonymous);
      expect(op.security, `${route.method} ${route.url}`).toEqual(open ? [] : expect.arrayContaining([expect.any(Object)]));
      checked++;
    }
    expect(checked).toBe(operations(platformDoc).length);
    expect(byKey.get('POST /v2/auth/login')?.security).toEqual([]);
    expect(byKey.get('GET /v2/auth/provider/{provider}/callback')?.security).toEqual([]);
    expect(byKey.get('GET /v2/connectors/{provider}/callback')?.security).toEqual([]);
  });

  it('gives every operation a summary and the error answers its access rule implies, in the error body', () => {
    for (const { key, op } of operations(platformDoc)) {
      expect(op.summary, key).toBeTruthy();
      const needed = op.security?.length ? ['400', '401', '403'] : ['400'];
      for (const status of needed) expect(op.responses[status]?.$ref, `${key} ${status}`).toBe('#/components/responses/Error');
    }
    // Written once and shared by every operation: the error body.
    expect(platformDoc.components.responses.Error!.content['application/json']!.schema.$ref).toBe('#/components/schemas/ErrorResponse');
  });

  it('names the proxies’ trailing wildcard as a path parameter, and has a server', () => {
    const crm = platformDoc.paths['/v2/crm/{path}']!;
    expect(Object.keys(crm).sort()).toEqual(['delete', 'get', 'patch', 'post', 'put']);
    expect(crm.get!.operationId).toBe('crmProxyGet');
    expect(crm.get!.parameters).toEqual([expect.objectContaining({ in: 'path', name: 'path' })]);
    expect(platformDoc.paths['/v2/cms/{path}']).toBeDefined();
    expect(platformDoc.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('documents every field of the error body, request_id included', () => {
    expect(Object.keys(platformDoc.components.schemas.ErrorResponse!.properties)).toEqual(['code', 'message', 'details', 'request_id']);
  });
});

describe('the recorder document', () => {
  it('keeps its twenty paths, each operation with a summary, security from its auth and error answers', () => {
    expect(Object.keys(recorderDoc.paths)).toHaveLength(20);
    for (const { key, op } of operations(recorderDoc)) {
      expect(op.summary, key).toBeTruthy();
      expect(op.responses['400']?.$ref, key).toBe('#/components/responses/Error');
      if (op.security?.length) expect(op.responses['401']?.$ref, key).toBe('#/components/responses/Error');
    }
    expect(recorderDoc.paths['/api/users/login']!.post!.security).toEqual([]);
    expect(recorderDoc.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(recorderDoc.info.version).toBe(PACKAGE_VERSION);
    expect(Object.keys(recorderDoc.components.schemas.ErrorResponse!.properties)).toEqual(['code', 'message', 'details', 'request_id']);
  });
});
