// The CRM and CMS proxies against local fake upstreams: allow-list, headers stripped both ways, the
// server-side credential added, timeouts, size limits, 502/504 on upstream failure, closed to keys.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { checkEndpointAccess } from '../../helpers/access.js';
import { checkPath, pathAllowed } from '../../../src/platform/proxy/upstream-proxy.js';

const UPSTREAM_TOKEN = 'crm-upstream-token-value';
let upstream: Server;
const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
let tp: TestPlatform;
let me: Person;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const path = req.url!.split('?')[0];
      if (path === '/contacts/slow') return void setTimeout(() => res.end('late'), 5000).unref();
      if (path === '/contacts/big') return void res.end('x'.repeat(5000));
      if (path === '/contacts/busy') return void res.writeHead(503, { 'cache-control': 'max-age=60', etag: '"busy"' }).end('try later');
      if (path === '/contacts/trickle') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const tick = setInterval(() => res.write('.'), 100);
        const stop = () => {
          clearInterval(tick);
          res.end();
        };
        return void setTimeout(stop, 1000).unref();
      }
      if (path === '/contacts/fail') return void res.writeHead(500).end('boom at upstream internals');
      if (path === '/contacts/moved') return void res.writeHead(302, { location: 'http://elsewhere.example/' }).end();
      if (path === '/contacts/denied') return void res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
      if (path === '/contacts/missing') return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such contact"}');
      res.writeHead(req.method === 'POST' ? 201 : 200, {
        'content-type': 'application/json',
        'set-cookie': 'upstream_session=abc; Path=/',
        'x-upstream-internal': 'secret-host-7',
        etag: '"v1"',
      });
      res.end(JSON.stringify({ path: req.url, method: req.method, received: body }));
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const port = (upstream.address() as AddressInfo).port;
  tp = await buildTestPlatform({
    OVERLOOK_CRM_URL: `http://127.0.0.1:${port}/`,
    OVERLOOK_CRM_TOKEN: UPSTREAM_TOKEN,
    OVERLOOK_CRM_PATHS: '/contacts, /contacts/**',
    // Nothing listens on port 1: every CMS call fails to connect.
    OVERLOOK_CMS_URL: 'http://127.0.0.1:1',
    OVERLOOK_CMS_PATHS: '/pages/*',
    OVERLOOK_PROXY_TIMEOUT_MS: '300',
    OVERLOOK_PROXY_MAX_BYTES: '1000',
  });
  me = await tp.person('proxied');
});
afterAll(async () => {
  await tp.close();
  upstream.closeAllConnections();
  await new Promise((r) => upstream.close(r));
});

describe('CRM and CMS proxies', () => {
  it('access rules: people only; keys refused', async () => {
    await checkEndpointAccess(tp, { method: 'GET', url: () => '/v2/crm/contacts', scopes: [], okStatus: 200 });
    await checkEndpointAccess(tp, { method: 'POST', url: () => '/v2/crm/contacts', payload: () => ({ name: 'A' }), scopes: [], okStatus: 201 });
    await checkEndpointAccess(tp, { method: 'GET', url: () => '/v2/cms/pages/home', scopes: [], okStatus: 502 });
  });

  it('passes through with the server-side credential; our credentials and cookies never go up, upstream cookies never come back', async () => {
    seen.length = 0;
    const res = await tp.app.inject({
      method: 'GET',
      url: '/v2/crm/contacts/42?fields=name&x=1',
      headers: { ...me.auth, cookie: 'overlook_oidc_state=ours', accept: 'application/json', 'x-forwarded-host': 'evil', 'x-custom': 'no' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ path: '/contacts/42?fields=name&x=1', method: 'GET' });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['x-upstream-internal']).toBeUndefined();
    expect(res.headers.etag).toBe('"v1"');
    const up = seen[0]!;
    expect(up.headers.authorization).toBe(`Bearer ${UPSTREAM_TOKEN}`);
    expect(up.headers.cookie).toBeUndefined();
    expect(up.headers['x-forwarded-host']).toBeUndefined();
    expect(up.headers['x-custom']).toBeUndefined();
    expect(up.headers['x-access-key']).toBeUndefined();
    expect(up.headers['x-overlook-user-id']).toBe(me.id);
    expect(up.headers['x-overlook-user-email']).toBe(me.email);
    expect(JSON.stringify(up.headers)).not.toContain(me.token);
    expect(res.body).not.toContain(UPSTREAM_TOKEN);

    const posted = await tp.app.inject({ method: 'POST', url: '/v2/crm/contacts', headers: { ...me.auth, 'content-type': 'text/csv' }, payload: 'a,b\n1,2' });
    expect(posted.statusCode).toBe(201);
    expect(posted.json().received).toBe('a,b\n1,2');
    expect(seen.at(-1)!.headers['content-type']).toBe('text/csv');
    // Upstream 4xx answers pass through.
    const missing = await tp.app.inject({ method: 'GET', url: '/v2/crm/contacts/missing', headers: me.auth });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'no such contact' });
  });

  it('only allow-listed paths reach the upstream; tricks are refused before it', async () => {
    seen.length = 0;
    for (const [url, status] of [
      ['/v2/crm/admin/users', 403],
      ['/v2/crm/contactsx', 403],
      // (the test client may resolve `..` itself: then it is simply off the allow-list)
      ['/v2/crm/contacts/../admin', [400, 403]],
      ['/v2/crm/contacts/%2e%2e/admin', [400, 403]],
      ['/v2/crm/contacts/a%2fb', 400],
      ['/v2/crm/contacts//x', 400],
    ] as const) {
      const res = await tp.app.inject({ method: 'GET', url, headers: me.auth });
      expect([status].flat(), url).toContain(res.statusCode);
    }
    expect(seen).toHaveLength(0);
    for (const raw of ['/contacts/../admin', '/contacts/%2E%2E/admin', '/contacts/a%2Fb', '/contacts/a\\b', '/contacts//x', 'contacts']) {
      expect(() => checkPath(raw), raw).toThrow(/path/);
    }
    expect(() => checkPath('/contacts/42')).not.toThrow();
    expect(pathAllowed(['/contacts', '/contacts/**'], '/contacts')).toBe(true);
    expect(pathAllowed(['/pages/*'], '/pages/a/b')).toBe(false);
    expect(pathAllowed(['/pages/*'], '/pages/a')).toBe(true);
  });

  it('upstream failures are clear: 504 on timeout, 502 on failure, redirect, refused credential, oversize or no connection', async () => {
    const cases = [
      ['/v2/crm/contacts/slow', 504, 'GATEWAY_TIMEOUT'],
      ['/v2/crm/contacts/fail', 502, 'BAD_GATEWAY'],
      ['/v2/crm/contacts/moved', 502, 'BAD_GATEWAY'],
      ['/v2/crm/contacts/denied', 502, 'BAD_GATEWAY'],
      ['/v2/crm/contacts/big', 502, 'BAD_GATEWAY'],
      ['/v2/cms/pages/home', 502, 'BAD_GATEWAY'],
    ] as const;
    for (const [url, status, code] of cases) {
      const res = await tp.app.inject({ method: 'GET', url, headers: me.auth });
      expect(res.statusCode, url).toBe(status);
      expect(res.json().code).toBe(code);
      expect(res.body).not.toContain('upstream internals');
    }
  });

  it('asks the upstream once, passes the body byte for byte, and keeps the deadline for the whole answer', async () => {
    seen.length = 0;
    const busy = await tp.app.inject({ method: 'GET', url: '/v2/crm/contacts/busy', headers: me.auth });
    expect(busy.statusCode).toBe(502);
    expect(busy.headers['content-type']).toMatch(/^application\/json/);
    expect(busy.headers.etag).toBeUndefined();
    expect(busy.headers['cache-control']).toBeUndefined();
    expect(seen).toHaveLength(1);

    const raw = '{"name":  "A",\n "n": 1}';
    const posted = await tp.app.inject({ method: 'POST', url: '/v2/crm/contacts', headers: { ...me.auth, 'content-type': 'application/json' }, payload: raw });
    expect(posted.statusCode).toBe(201);
    expect(posted.json().received).toBe(raw);

    const trickle = await tp.app.inject({ method: 'GET', url: '/v2/crm/contacts/trickle', headers: me.auth });
    expect(trickle.statusCode).toBe(504);
    expect(trickle.json().code).toBe('GATEWAY_TIMEOUT');
  });
});
