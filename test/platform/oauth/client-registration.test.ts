// Open client registration, bounded: metadata size limits and no plain-http redirect except to
// loopback (RFC 7591 errors), a per-address limit (429), unused clients deleted after the configured
// days; and the authorization endpoint never redirects to a client before the person has seen a page
// naming the client and where it sends them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import { pkcePair, signInAndConsent } from '../../helpers/oauth-flow.js';
import { authorizationUrl, obtainTokens, registerClient, startOauthServers, type OauthServers } from '../../helpers/oauth-servers.js';

let s: OauthServers;
beforeAll(async () => {
  s = await startOauthServers({ OVERLOOK_OAUTH_REGISTRATIONS_PER_HOUR: '1000', OVERLOOK_OAUTH_UNUSED_CLIENT_DAYS: '30' });
});
afterAll(() => s.close());

const register = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${s.apiUrl}/oauth/reg`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const base = { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };

describe('registration limits', () => {
  it('refuses oversized metadata and plain-http redirects off loopback with RFC 7591 errors', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['a 101-character name', { client_name: 'n'.repeat(101), redirect_uris: ['https://app.example/cb'] }, 'invalid_client_metadata'],
      ['11 redirect URIs', { redirect_uris: Array.from({ length: 11 }, (_, i) => `https://app.example/cb${i}`) }, 'invalid_redirect_uri'],
      ['a redirect URI over 2 kB', { redirect_uris: [`https://app.example/${'x'.repeat(2100)}`] }, 'invalid_redirect_uri'],
      [
        'a client_uri over 2 kB',
        { redirect_uris: ['https://app.example/cb'], client_uri: `https://app.example/${'x'.repeat(2100)}` },
        'invalid_client_metadata',
      ],
      ['a body over 16 kB', { redirect_uris: ['https://app.example/cb'], padding: 'x'.repeat(17 * 1024) }, 'invalid_client_metadata'],
      ['a plain http redirect to another host', { redirect_uris: ['http://evil.example/cb'] }, 'invalid_redirect_uri'],
      ['a plain http redirect to a LAN address', { redirect_uris: ['http://192.168.1.20:8080/cb'] }, 'invalid_redirect_uri'],
    ];
    for (const [what, body, error] of cases) {
      const res = await register({ ...base, ...body });
      expect(res.status, what).toBe(400);
      expect((await res.json()).error, what).toBe(error);
    }
    // Loopback on any port, and https anywhere, stay allowed; a 100-character name too.
    for (const uri of [
      'http://127.0.0.1/cb',
      'http://127.0.0.1:49152/cb',
      'http://[::1]:8123/cb',
      'http://localhost:33418/callback',
      'https://evil.example/cb',
    ]) {
      const res = await register({ ...base, client_name: 'n'.repeat(100), redirect_uris: [uri] });
      expect(res.status, uri).toBe(201);
    }
  });

  it('developer apps follow the same redirect rule', async () => {
    const dev = await s.tp.person('developer');
    const res = await s.tp.app.inject({
      method: 'POST',
      url: '/v2/developer/apps',
      headers: dev.auth,
      payload: { name: 'Plain http', redirect_uris: ['http://evil.example/cb'] },
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('registration throttle', () => {
  it('answers 429 with Retry-After beyond the per-address limit', async () => {
    const t = await startOauthServers({ OVERLOOK_OAUTH_REGISTRATIONS_PER_HOUR: '3' });
    try {
      for (let i = 0; i < 3; i++) await registerClient(t.apiUrl);
      const res = await fetch(`${t.apiUrl}/oauth/reg`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...base, redirect_uris: ['http://127.0.0.1:5555/callback'] }),
      });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await res.json()).error).toBe('too_many_requests');
    } finally {
      await t.close();
    }
  });
});

describe('unused clients', () => {
  it('deletes clients nobody authorized once older than the configured days; authorized ones stay', async () => {
    const person = await s.tp.person('client-age');
    const unused = await registerClient(s.apiUrl, { client_name: 'Never used' });
    const fresh = await registerClient(s.apiUrl, { client_name: 'Registered just now' });
    const used = await obtainTokens(s, person);
    const db = s.tp.t.db.kysely;
    const old = new Date(Date.now() - 31 * 24 * 3600 * 1000).toISOString();
    await db
      .updateTable('oauth_records')
      .set({ created_at: old })
      .where('model', '=', 'Client')
      .where('id', 'in', [unused.client_id, used.client_id])
      .execute();

    await servicesOf(s.tp.app).oauth.registrations.sweep();
    const ids = (await db.selectFrom('oauth_records').select('id').where('model', '=', 'Client').execute()).map((r) => r.id);
    expect(ids).not.toContain(unused.client_id);
    expect(ids).toContain(fresh.client_id);
    expect(ids).toContain(used.client_id);
    // The deleted client is unknown to the authorization endpoint: a page, no redirect.
    const res = await fetch(authorizationUrl(s.apiUrl, { client_id: unused.client_id, code_challenge: pkcePair().challenge, code_challenge_method: 'S256' }), {
      redirect: 'manual',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });
});

describe('no redirect before the person has seen a page', () => {
  const EVIL = 'https://evil.example/landing';

  it('shows authorization errors on a page instead of redirecting to the client', async () => {
    const { client_id } = await registerClient(s.apiUrl, { redirect_uris: [EVIL] });
    const { challenge } = pkcePair();
    // An unknown scope is dropped, not an error: the person is taken to the sign-in page, here.
    const dropped = await fetch(
      authorizationUrl(s.apiUrl, { client_id, redirect_uri: EVIL, code_challenge: challenge, code_challenge_method: 'S256', scope: 'mcp nonsense' }),
      {
        redirect: 'manual',
      },
    );
    expect(new URL(dropped.headers.get('location')!, s.apiUrl).origin).toBe(s.apiUrl);
    for (const params of <Record<string, string>[]>[
      { code_challenge_method: 'plain' },
      { prompt: 'none' },
      { response_type: 'token' },
      { resource: 'http://127.0.0.1:1/elsewhere' },
    ]) {
      const url = authorizationUrl(s.apiUrl, { client_id, redirect_uri: EVIL, code_challenge: challenge, code_challenge_method: 'S256', ...params });
      const res = await fetch(url, { redirect: 'manual' });
      const what = JSON.stringify(params);
      expect(res.headers.get('location'), what).toBeNull();
      expect(res.status, what).toBe(400);
      expect(res.headers.get('content-type'), what).toContain('text/html');
      expect(await res.text(), what).not.toContain('evil.example');
    }
  });

  it('names the client and its redirect host on the sign-in and consent pages before sending the person there', async () => {
    const person = await s.tp.person('redirect-host');
    const { client_id } = await registerClient(s.apiUrl, { client_name: 'Far away app', redirect_uris: [EVIL] });
    const { challenge } = pkcePair();
    const start = authorizationUrl(s.apiUrl, { client_id, redirect_uri: EVIL, code_challenge: challenge, code_challenge_method: 'S256', resource: s.mcpUrl });
    const first = await fetch(start, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(new URL(first.headers.get('location')!, s.apiUrl).origin).toBe(s.apiUrl);
    const flow = await signInAndConsent(start, person);
    for (const page of [flow.loginPage, flow.consentPage]) {
      expect(page).toContain('Far away app');
      expect(page).toContain('<strong>evil.example</strong>');
    }
    expect(flow.redirect.origin + flow.redirect.pathname).toBe(EVIL);
    expect(flow.redirect.searchParams.get('code')).toBeTruthy();
  });
});
