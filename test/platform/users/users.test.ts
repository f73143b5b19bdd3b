// Users (user:info, profile:write): access rules per endpoint, then behaviour.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';
import { checkEndpointAccess, type EndpointSpec } from '../../helpers/access.js';

let tp: TestPlatform;
beforeAll(async () => {
  tp = await buildTestPlatform();
});
afterAll(() => tp.close());

/** Signs the person in a second time and returns that other session's id. */
async function secondSession(email: string, password: string, auth: { authorization: string }): Promise<string> {
  const login = await tp.app.inject({
    method: 'POST',
    url: '/v2/auth/login',
    payload: { username: email, password },
    headers: { 'user-agent': 'second-device' },
  });
  expect(login.statusCode).toBe(200);
  const list = await tp.app.inject({ method: 'GET', url: '/v2/users/active-sessions', headers: auth });
  const other = list.json().find((s: { current: boolean; user_agent: string | null }) => !s.current && s.user_agent === 'second-device');
  return other.id;
}

const endpoints: EndpointSpec[] = [
  { method: 'GET', url: (w) => `/v2/users/${w.owner.id}`, scopes: ['user:info'], okStatus: 200 },
  { method: 'GET', url: (w) => `/v2/users/${encodeURIComponent(w.owner.email)}/features`, scopes: ['user:info'], okStatus: 200 },
  { method: 'GET', url: () => '/v2/users/permissions', scopes: ['user:info'], okStatus: 200 },
  { method: 'GET', url: () => '/v2/users/roles', scopes: ['user:info'], okStatus: 200 },
  { method: 'GET', url: () => '/v2/users/active-sessions', scopes: ['user:info'], okStatus: 200 },
  { method: 'GET', url: () => '/v2/users/session/activities', scopes: ['user:info'], okStatus: 200 },
  { method: 'PATCH', url: (w) => `/v2/users/${w.owner.id}`, payload: () => ({ firstname: 'Renamed' }), scopes: ['profile:write'], okStatus: 200 },
  {
    method: 'DELETE',
    url: (w) => `/v2/users/active-sessions/${w.extra.session}`,
    scopes: ['profile:write'],
    okStatus: 204,
    setup: async (_tp, w) => ({ session: await secondSession(w.owner.email, w.owner.password, w.owner.auth) }),
  },
];

describe('access rules', () => {
  for (const spec of endpoints) {
    it(`${spec.method} ${spec.url({ owner: { id: '{id}', email: '{email}' }, extra: { session: '{id}' } } as never)}`, () => checkEndpointAccess(tp, spec));
  }
});

describe('user records', () => {
  it('your own record; someone else’s is 404 unless you are a platform admin', async () => {
    const alice = await tp.person('alice');
    const bob = await tp.person('bob');
    const admin = await tp.person('admin', { admin: true });
    const own = await tp.app.inject({ method: 'GET', url: `/v2/users/${alice.id}`, headers: alice.auth });
    expect(own.json()).toMatchObject({ id: alice.id, email: alice.email, is_admin: false });
    expect(own.json().password_hash).toBeUndefined();
    expect((await tp.app.inject({ method: 'GET', url: `/v2/users/${alice.id}`, headers: bob.auth })).statusCode).toBe(404);
    expect((await tp.app.inject({ method: 'GET', url: `/v2/users/${alice.id}`, headers: admin.auth })).statusCode).toBe(200);
    // An admin's key does not carry platform-admin reach.
    const p = await tp.project(admin);
    const key = await tp.key(admin, { projects: [p.exid], scopes: ['user:info'] });
    expect((await tp.app.inject({ method: 'GET', url: `/v2/users/${alice.id}`, headers: key.headers })).statusCode).toBe(404);
  });

  it('features by e-mail, case-insensitive', async () => {
    const carol = await tp.person('carol');
    const res = await tp.app.inject({ method: 'GET', url: `/v2/users/${encodeURIComponent(carol.email.toUpperCase())}/features`, headers: carol.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ email: carol.email, features: expect.any(Array) });
  });

  it('roles and permissions follow memberships; a key sees only its projects', async () => {
    const owner = await tp.person('owner');
    const dave = await tp.person('dave');
    const p1 = await tp.project(owner, 'Alpha');
    const p2 = await tp.project(owner, 'Beta');
    await tp.addMember(owner, p1.exid, dave, 'viewer');
    await tp.addMember(owner, p2.exid, dave, 'admin');
    const roles = (await tp.app.inject({ method: 'GET', url: '/v2/users/roles', headers: dave.auth })).json();
    expect(roles.platform_role).toBe('user');
    expect(roles.projects).toEqual([
      { project_exid: p1.exid, project_name: 'Alpha', role: 'viewer' },
      { project_exid: p2.exid, project_name: 'Beta', role: 'admin' },
    ]);
    const perms = (await tp.app.inject({ method: 'GET', url: '/v2/users/permissions', headers: dave.auth })).json();
    expect(perms.via).toBe('session');
    const alpha = perms.projects.find((p: { project_exid: string }) => p.project_exid === p1.exid);
    const beta = perms.projects.find((p: { project_exid: string }) => p.project_exid === p2.exid);
    expect(alpha.actions).toContain('live_view');
    expect(alpha.actions).not.toContain('ptz_control');
    expect(beta.actions).toEqual(expect.arrayContaining(['ptz_control', 'manage_members']));
    expect(beta.actions).not.toContain('delete_project');

    const key = await tp.key(dave, { projects: [p1.exid], scopes: ['user:info'] });
    const byKey = (await tp.app.inject({ method: 'GET', url: '/v2/users/permissions', headers: key.headers })).json();
    expect(byKey.via).toBe('api_key');
    expect(byKey.projects.map((p: { project_exid: string }) => p.project_exid)).toEqual([p1.exid]);
  });

  it('PATCH: names are updated; unknown fields and someone else’s record are refused', async () => {
    const erin = await tp.person('erin');
    const frank = await tp.person('frank');
    const ok = await tp.app.inject({ method: 'PATCH', url: `/v2/users/${erin.id}`, headers: erin.auth, payload: { firstname: ' Erin ', lastname: 'Builder' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ firstname: 'Erin', lastname: 'Builder' });
    const extra = await tp.app.inject({ method: 'PATCH', url: `/v2/users/${erin.id}`, headers: erin.auth, payload: { is_admin: true } });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().code).toBe('VALIDATION_ERROR');
    const typed = await tp.app.inject({ method: 'PATCH', url: `/v2/users/${erin.id}`, headers: erin.auth, payload: { firstname: 42 } });
    expect(typed.statusCode).toBe(400);
    const other = await tp.app.inject({ method: 'PATCH', url: `/v2/users/${frank.id}`, headers: erin.auth, payload: { firstname: 'x' } });
    expect(other.statusCode).toBe(404);
    const still = await tp.app.inject({ method: 'GET', url: `/v2/users/${frank.id}`, headers: frank.auth });
    expect(still.json().firstname).toBe('frank');
  });

  it('password change: needs the current password, never through a key, and ends the other sessions', async () => {
    const gina = await tp.person('gina');
    const other = await secondSession(gina.email, gina.password, gina.auth);
    const p = await tp.project(gina);
    const key = await tp.key(gina, { projects: [p.exid], scopes: ['profile:write'] });
    const byKey = await tp.app.inject({
      method: 'PATCH',
      url: `/v2/users/${gina.id}`,
      headers: key.headers,
      payload: { password: 'new-password-123', current_password: gina.password },
    });
    expect(byKey.statusCode).toBe(403);
    const wrong = await tp.app.inject({
      method: 'PATCH',
      url: `/v2/users/${gina.id}`,
      headers: gina.auth,
      payload: { password: 'new-password-123', current_password: 'nope-nope' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toContain('current_password');
    const ok = await tp.app.inject({
      method: 'PATCH',
      url: `/v2/users/${gina.id}`,
      headers: gina.auth,
      payload: { password: 'new-password-123', current_password: gina.password },
    });
    expect(ok.statusCode).toBe(200);
    const sessions = (await tp.app.inject({ method: 'GET', url: '/v2/users/active-sessions', headers: gina.auth })).json();
    expect(sessions.map((s: { id: string }) => s.id)).not.toContain(other);
    const oldLogin = await tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: gina.email, password: gina.password } });
    expect(oldLogin.statusCode).toBe(401);
    const newLogin = await tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: gina.email, password: 'new-password-123' } });
    expect(newLogin.statusCode).toBe(200);
  });
});

describe('sessions and their log', () => {
  it('active sessions mark the current one; revoking another makes its JWT 401 at once and is logged', async () => {
    const hank = await tp.person('hank');
    const login = await tp.app.inject({
      method: 'POST',
      url: '/v2/auth/login',
      payload: { username: hank.email, password: hank.password },
      headers: { 'user-agent': 'tablet' },
    });
    const tabletAuth = { authorization: `Bearer ${login.json().token}` };
    const list = (await tp.app.inject({ method: 'GET', url: '/v2/users/active-sessions', headers: hank.auth })).json();
    expect(list).toHaveLength(2);
    expect(list.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    const tablet = list.find((s: { user_agent: string | null }) => s.user_agent === 'tablet');
    expect(tablet.current).toBe(false);

    expect((await tp.app.inject({ method: 'GET', url: '/v2/users/roles', headers: tabletAuth })).statusCode).toBe(200);
    const del = await tp.app.inject({ method: 'DELETE', url: `/v2/users/active-sessions/${tablet.id}`, headers: hank.auth });
    expect(del.statusCode).toBe(204);
    expect((await tp.app.inject({ method: 'GET', url: '/v2/users/roles', headers: tabletAuth })).statusCode).toBe(401);
    expect((await tp.app.inject({ method: 'DELETE', url: `/v2/users/active-sessions/${tablet.id}`, headers: hank.auth })).statusCode).toBe(404);

    const log = (await tp.app.inject({ method: 'GET', url: '/v2/users/session/activities', headers: hank.auth })).json();
    expect(log.data.map((a: { action: string }) => a.action)).toEqual(expect.arrayContaining(['login', 'session_revoked']));
    const revoked = (await tp.app.inject({ method: 'GET', url: '/v2/users/session/activities?action=session_revoked', headers: hank.auth })).json();
    expect(revoked.meta.total_count).toBe(1);
    expect(revoked.data[0].session_id).toBe(tablet.id);
  });

  it('someone else’s session cannot be revoked (404), and the log is per person', async () => {
    const ivy = await tp.person('ivy');
    const jack = await tp.person('jack');
    const ivySessions = (await tp.app.inject({ method: 'GET', url: '/v2/users/active-sessions', headers: ivy.auth })).json();
    const res = await tp.app.inject({ method: 'DELETE', url: `/v2/users/active-sessions/${ivySessions[0].id}`, headers: jack.auth });
    expect(res.statusCode).toBe(404);
    expect((await tp.app.inject({ method: 'GET', url: '/v2/users/roles', headers: ivy.auth })).statusCode).toBe(200);
    const log = (await tp.app.inject({ method: 'GET', url: '/v2/users/session/activities', headers: jack.auth })).json();
    expect(log.data.every((a: { session_id: string | null }) => a.session_id !== ivySessions[0].id)).toBe(true);
  });

  it('failed sign-ins appear in the log; paging and filters are validated', async () => {
    const kim = await tp.person('kim');
    await tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: kim.email, password: 'wrong-one' } });
    const failed = (await tp.app.inject({ method: 'GET', url: '/v2/users/session/activities?action=login_failed', headers: kim.auth })).json();
    expect(failed.meta.total_count).toBe(1);
    const page = (await tp.app.inject({ method: 'GET', url: '/v2/users/session/activities?page_size=1&page=2', headers: kim.auth })).json();
    expect(page.meta).toMatchObject({ current_page: 2, page_size: 1, total_count: 2, total_pages: 2 });
    expect(page.data).toHaveLength(1);
    for (const q of ['action=dance', 'page=0', 'page_size=0', 'page_size=501']) {
      const bad = await tp.app.inject({ method: 'GET', url: `/v2/users/session/activities?${q}`, headers: kim.auth });
      expect(bad.statusCode, q).toBe(400);
      expect(bad.json().code).toBe('VALIDATION_ERROR');
    }
  });
});
