// What an app's OAuth access token reaches at the main API: what the consent page promises and no more.
// Account control (sessions, password and profile, keys, apps, administration) is refused with
// NOT_ALLOWED_WITH_OAUTH_TOKEN, derived from the routes' own declarations; an admin's token reads
// other people's records no more than the admin's API key does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide } from '../../../src/platform/access/decide.js';
import { ACCOUNT_CONTROLS, closedToDelegated, publicRoute } from '../../../src/platform/access/policy.js';
import { policyOf, type RegisteredRoute } from '../../../src/platform/access/registered-route.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import { obtainTokens, startOauthServers, type OauthServers } from '../../helpers/oauth-servers.js';

const policyOfRoute = (r: RegisteredRoute) => policyOf(r) ?? publicRoute();

let s: OauthServers;
beforeAll(async () => {
  s = await startOauthServers();
});
afterAll(() => s.close());

const call = (url: string, token: string, init: { method?: string; body?: unknown } = {}) =>
  fetch(url, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${token}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

describe('an app’s OAuth token and account control', () => {
  it('cannot list or end the person’s sessions, read their sign-in history, or change their password', async () => {
    const person = await s.tp.person('delegated-account');
    const t = await obtainTokens(s, person);
    const sessions = await (await call(`${s.apiUrl}/v2/users/active-sessions`, person.token)).json();
    const mine = (sessions as { id: string; current: boolean }[]).find((x) => x.current)!;

    for (const [method, path, body] of [
      ['GET', '/v2/users/active-sessions', undefined],
      ['GET', '/v2/users/session/activities', undefined],
      ['DELETE', `/v2/users/active-sessions/${mine.id}`, undefined],
      ['PATCH', `/v2/users/${person.id}`, { password: 'an-app-chose-this-1', current_password: person.password }],
      ['PATCH', `/v2/users/${person.id}`, { firstname: 'Renamed by an app' }],
    ] as const) {
      const res = await call(`${s.apiUrl}${path}`, t.access_token, { method, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect((await res.json()).code, `${method} ${path}`).toBe('NOT_ALLOWED_WITH_OAUTH_TOKEN');
    }
    // Nothing happened: the session lives, the password is the old one.
    expect((await call(`${s.apiUrl}/v2/auth/users/me`, person.token)).status).toBe(200);
    const login = await fetch(`${s.apiUrl}/v2/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: person.email, password: person.password }),
    });
    expect(login.status).toBe(200);
    // What the app may do still works.
    expect((await call(`${s.apiUrl}/v2/projects`, t.access_token)).status).toBe(200);
    expect((await call(`${s.apiUrl}/v2/users/${person.id}`, t.access_token)).status).toBe(200);
    // The person's own sign-in still manages sessions.
    expect((await call(`${s.apiUrl}/v2/users/active-sessions`, person.token)).status).toBe(200);
  });

  it('the consent page promises exactly what the declarations enforce', async () => {
    const person = await s.tp.person('delegated-consent');
    const t = await obtainTokens(s, person);
    for (const text of Object.values(ACCOUNT_CONTROLS)) expect(t.consentPage).toContain(text);

    const app = { kind: 'user' as const, userId: 'u', sessionId: 'oauth:g', isAdmin: true, delegated: true };
    const routes = servicesOf(s.tp.app).registeredRoutes.filter((r) => r.url.startsWith('/v2') && r.method !== 'HEAD');
    const used = new Set<string>();
    for (const r of routes) {
      const policy = policyOfRoute(r);
      if (policy.access === 'scoped' || policy.access === 'people') if (policy.account) used.add(policy.account);
      // Every route the declarations close is refused by the decision, whatever the token holds.
      if (closedToDelegated(policy)) expect(decide({ principal: app, policy }), `${r.method} ${r.url}`).toMatchObject({ code: 'NOT_ALLOWED_WITH_OAUTH_TOKEN' });
      // A safety net over the declarations: what plainly manages the account is closed (routes open to
      // anyone, such as reporting a leaked key, need no credential at all).
      const openToAnyone = policy.access === 'public' || (policy.access === 'people' && policy.anonymous);
      if (
        (!openToAnyone && /\/(api-keys|developer|admin|active-sessions|session\/|logout|impersonat)/.test(r.url)) ||
        (r.method === 'PATCH' && r.url === '/v2/users/:id')
      ) {
        expect(closedToDelegated(policy), `${r.method} ${r.url} is open to OAuth tokens`).toBe(true);
      }
    }
    // Each promise the page makes is kept by a declaration or by the people-only default.
    expect([...used].sort()).toEqual(['profile', 'sessions']);
    expect(routes.some((r) => r.url.startsWith('/v2/api-keys') && closedToDelegated(policyOfRoute(r)))).toBe(true);
    expect(routes.some((r) => r.url.startsWith('/v2/developer/apps') && closedToDelegated(policyOfRoute(r)))).toBe(true);
    expect(routes.some((r) => r.url.startsWith('/v2/admin') && closedToDelegated(policyOfRoute(r)))).toBe(true);
  });
});

describe('an admin’s OAuth token', () => {
  it('reads other people’s records no more than the admin’s API key does', async () => {
    const admin = await s.tp.person('delegated-admin', { admin: true });
    const other = await s.tp.person('someone-else');
    // The admin's own sign-in sees anyone's record.
    expect((await call(`${s.apiUrl}/v2/users/${other.id}`, admin.token)).status).toBe(200);
    const t = await obtainTokens(s, admin);
    const res = await call(`${s.apiUrl}/v2/users/${other.id}`, t.access_token);
    expect(res.status).toBe(404);
    const byEmail = await call(`${s.apiUrl}/v2/users/${encodeURIComponent(other.email)}/features`, t.access_token);
    expect(byEmail.status).toBe(404);
    expect((await call(`${s.apiUrl}/v2/users/${admin.id}`, t.access_token)).status).toBe(200);
  });
});
