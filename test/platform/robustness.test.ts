// No input gets a 5xx (docs/access-model.md, wire conventions): malformed JSON, oversized bodies, hostile headers, path tricks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../helpers/platform.js';

let tp: TestPlatform;
let owner: Person;
let key: { 'x-access-key': string };
let exid: string;
beforeAll(async () => {
  tp = await buildTestPlatform({ OVERLOOK_BODY_LIMIT: '65536' });
  owner = await tp.person('robust');
  exid = (await tp.project(owner, 'Robust site')).exid;
  key = (await tp.key(owner, { projects: [exid], scopes: ['projects:read', 'cameras:read', 'user:info', 'profile:write', 'project:settings'] })).headers;
});
afterAll(() => tp.close());

function expectClientError(res: { statusCode: number; headers: Record<string, unknown>; body: string }, label: string) {
  expect(res.statusCode, `${label}: ${res.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, `${label}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
  const body = JSON.parse(res.body);
  expect(typeof body.code, label).toBe('string');
  expect(typeof body.message, label).toBe('string');
}

describe('bodies', () => {
  it('malformed JSON: 400 VALIDATION_ERROR', async () => {
    for (const payload of ['{', '{"name": }', 'null', '[1,2', '"just a string"', '{"name": "x"} trailing']) {
      const res = await tp.app.inject({ method: 'POST', url: '/v2/projects', headers: { ...owner.auth, 'content-type': 'application/json' }, payload });
      expectClientError(res, payload);
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
  });

  it('an oversized body: 413, before and after authentication', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(70_000) });
    for (const headers of [{}, owner.auth, key]) {
      const res = await tp.app.inject({ method: 'POST', url: '/v2/projects', headers: { ...headers, 'content-type': 'application/json' }, payload: big });
      expectClientError(res, 'oversized');
      // Without a credential the request is refused (401) before the body is read.
      if (Object.keys(headers).length) {
        expect(res.statusCode).toBe(413);
        expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');
      }
    }
  });

  it('wrong content types and wrong JSON types', async () => {
    const cases: { ct: string; payload: string }[] = [
      { ct: 'text/plain', payload: 'name=x' },
      { ct: 'application/x-www-form-urlencoded', payload: 'name=x' },
      { ct: 'application/json', payload: '{"name": 42}' },
      { ct: 'application/json', payload: '{"name": ["a"]}' },
      { ct: 'application/json', payload: '{"name": {"$gt": ""}}' },
      { ct: 'application/json', payload: '{"__proto__": {"admin": true}, "name": "x"}' },
      { ct: 'application/json', payload: '{"constructor": {"prototype": {"admin": true}}}' },
    ];
    for (const { ct, payload } of cases) {
      const res = await tp.app.inject({ method: 'POST', url: '/v2/projects', headers: { ...owner.auth, 'content-type': ct }, payload });
      expectClientError(res, `${ct} ${payload}`);
    }
  });

  it('a request refused by the access layer is refused before its body is looked at', async () => {
    // Closed endpoint + malformed JSON: the key learns it is closed, not that the JSON was bad.
    const res = await tp.app.inject({ method: 'POST', url: '/v2/api-keys', headers: { ...key, 'content-type': 'application/json' }, payload: '{bad' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('ENDPOINT_CLOSED_TO_KEYS');
    const anon = await tp.app.inject({ method: 'POST', url: '/v2/projects', headers: { 'content-type': 'application/json' }, payload: '{bad' });
    expect(anon.statusCode).toBe(401);
  });
});

describe('headers', () => {
  it('hostile credential headers: 401, never 5xx', async () => {
    const values = [
      '',
      ' ',
      'Bearer',
      'Bearer ',
      'Bearer a b c',
      'Basic dXNlcjpwYXNz',
      `Bearer ${'a'.repeat(10_000)}`,
      'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4Iiwic2lkIjoieSJ9.',
      'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4Iiwic2lkIjoieSJ9.AAAA',
      'bearer olk_xxxxxxxx',
      'Bearer \u00ff\u00fe',
    ];
    for (const v of values) {
      const res = await tp.app.inject({ method: 'GET', url: '/v2/projects', headers: { authorization: v } });
      expectClientError(res, `authorization: ${v.slice(0, 30)}`);
      expect(res.statusCode).toBe(401);
    }
    for (const v of ['', 'olk_', `olk_${'A'.repeat(49)}`, `olk_${'A'.repeat(10_000)}`, "' OR 1=1 --", '\u00ff\u00fe', 'null']) {
      const res = await tp.app.inject({ method: 'GET', url: '/v2/projects', headers: { 'x-access-key': v } });
      expectClientError(res, `x-access-key: ${v.slice(0, 30)}`);
      expect(res.statusCode).toBe(401);
    }
  });

  it('two credentials of one kind: 401, two Authorization headers as two x-access-key (Node would keep only the first)', async () => {
    const twice = (name: string, value: string) =>
      tp.app.inject({ method: 'GET', url: '/v2/projects', headers: { [name]: [value, value] as unknown as string } });
    for (const [name, value] of [
      ['authorization', owner.auth.authorization],
      ['x-access-key', key['x-access-key']],
    ] as const) {
      const res = await twice(name, value);
      expectClientError(res, `two ${name}`);
      expect(res.statusCode, `two ${name}`).toBe(401);
    }
    expect((await tp.app.inject({ method: 'GET', url: '/v2/projects', headers: owner.auth })).statusCode).toBe(200);
  });
});

describe('paths and queries', () => {
  it('path tricks and bad encodings: 4xx with the error body', async () => {
    const paths = [
      '/v2/projects/..%2F..%2Fetc%2Fpasswd',
      '/v2/projects/%2e%2e',
      '/v2/cameras/%00',
      '/v2/cameras/%E0%A4%A',
      '/v2/cameras/%',
      `/v2/cameras/${'a'.repeat(5000)}`,
      `/v2/projects/${exid}/members/%ZZ`,
      '/v2//projects',
      '/v2/projects/../api-keys',
      '/v2/api-keys/../../etc/passwd',
      `/v2/projects/${exid}%00`,
      '/v2/users/%F0%9F%92%A9/features',
      '/v2/nothing-here',
    ];
    for (const url of paths) {
      for (const headers of [{}, owner.auth, key]) {
        const res = await tp.app.inject({ method: 'GET', url, headers });
        // `..` segments are resolved like any HTTP client would, so `/v2/projects/../api-keys` is the
        // key list: fine for its owner, still closed to a key.
        if (url.includes('/../') && headers === owner.auth && res.statusCode === 200) continue;
        expectClientError(res, url.slice(0, 60));
        if (headers === key) expect(res.json().code, url).not.toBe('INTERNAL_ERROR');
      }
    }
  });

  it('bad query strings: 4xx', async () => {
    for (const q of ['page=-1', 'page=abc', 'page_size=100000', 'page=1&page=2&page=x', 'page=1e309', '%%%=%%%']) {
      const res = await tp.app.inject({ method: 'GET', url: `/v2/notifications?${q}`, headers: owner.auth });
      expect(res.statusCode, q).toBeLessThan(500);
    }
  });

  it('unsupported methods: 404 with the error body', async () => {
    const res = await tp.app.inject({ method: 'PUT', url: '/v2/projects', headers: owner.auth });
    expectClientError(res, 'PUT /v2/projects');
  });
});
