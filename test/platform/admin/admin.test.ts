// Platform administration (/v2/admin): admins only, never keys; disabling, sessions, admin rights,
// project transfer, keys across the platform, statistics, and the audit entries each action leaves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { checkEndpointAccess, type EndpointSpec } from '../../helpers/access.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

let tp: TestPlatform;
let admin: Person;
beforeAll(async () => {
  tp = await buildTestPlatform();
  admin = await tp.person('admin', { admin: true });
});
afterAll(() => tp.close());

const inject = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, who: { auth: Record<string, string> } | Record<string, string>, payload?: object) =>
  tp.app.inject({
    method,
    url,
    headers: 'auth' in who ? (who as { auth: Record<string, string> }).auth : (who as Record<string, string>),
    ...(payload ? { payload } : {}),
  });

/** The newest audit events for a filter, read through the admin endpoint. */
async function auditOf(query: string) {
  const res = await inject('GET', `/v2/admin/audit?${query}`, admin);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    action: string;
    outcome: string;
    actor_user_id: string | null;
    subject_user_id: string | null;
    target_id: string | null;
    details: Record<string, unknown>;
    ip: string | null;
  }[];
}

/** Every admin endpoint: 401 without credential, 403 ENDPOINT_CLOSED_TO_KEYS for keys, the admin allowed. */
async function adminAccess(spec: Omit<EndpointSpec, 'scopes'>) {
  // checkEndpointAccess's "allowed person" is the world's owner: make the owners admins for this check.
  const setup = spec.setup;
  await checkEndpointAccess(tp, {
    ...spec,
    scopes: [],
    setup: async (t, w) => {
      await t.t.db.kysely.updateTable('users').set({ is_admin: 1 }).where('id', '=', w.owner.id).execute();
      servicesOf(t.app).caches.forget([{ kind: 'user', id: w.owner.id }]);
      return setup ? setup(t, w) : {};
    },
  });
  // A signed-in person who is not a platform admin: 403 PERMISSION_DENIED.
  const w = {
    owner: admin,
    projectExid: '',
    cameraExid: '',
    otherProjectExid: '',
    otherCameraExid: '',
    extra: setup ? await setup(tp, { owner: admin } as never) : {},
  };
  const plain = await tp.person('plain');
  const res = await tp.app.inject({
    method: spec.method,
    url: spec.url(w as never),
    headers: plain.auth,
    ...(spec.payload ? { payload: spec.payload(w as never) as object } : {}),
  });
  expect(res.statusCode, `${spec.method} by a non-admin`).toBe(403);
  expect(res.json().code).toBe('PERMISSION_DENIED');
}

describe('admin access rules', () => {
  const target = async (t: TestPlatform) => ({ user: (await t.person('target')).id });
  const specs: Omit<EndpointSpec, 'scopes'>[] = [
    { method: 'GET', url: () => '/v2/admin/users?q=target', okStatus: 200 },
    { method: 'GET', url: (w) => `/v2/admin/users/${w.extra.user}`, okStatus: 200, setup: target },
    { method: 'PATCH', url: (w) => `/v2/admin/users/${w.extra.user}`, payload: () => ({ is_admin: false }), okStatus: 200, setup: target },
    { method: 'POST', url: (w) => `/v2/admin/users/${w.extra.user}/disable`, okStatus: 200, setup: target },
    { method: 'POST', url: (w) => `/v2/admin/users/${w.extra.user}/enable`, okStatus: 200, setup: target },
    { method: 'POST', url: (w) => `/v2/admin/users/${w.extra.user}/reset-sessions`, okStatus: 200, setup: target },
    { method: 'POST', url: (w) => `/v2/admin/users/${w.extra.user}/revoke-api-keys`, okStatus: 200, setup: target },
    { method: 'POST', url: (w) => `/v2/admin/users/${w.extra.user}/impersonate`, okStatus: 201, setup: target },
    { method: 'GET', url: () => '/v2/admin/impersonations', okStatus: 200 },
    { method: 'GET', url: () => '/v2/admin/projects', okStatus: 200 },
    { method: 'GET', url: () => '/v2/admin/cameras', okStatus: 200 },
    { method: 'GET', url: () => '/v2/admin/api-keys', okStatus: 200 },
    { method: 'GET', url: () => '/v2/admin/stats', okStatus: 200 },
    { method: 'GET', url: () => '/v2/admin/audit', okStatus: 200 },
  ];
  for (const spec of specs) {
    it(`${spec.method} ${spec.url({ extra: { user: '{id}' } } as never)}`, () => adminAccess(spec));
  }

  it('project and camera detail, transfer, key revoke and impersonation end: closed to keys, refused to non-admins', async () => {
    const owner = await tp.person('owner');
    const project = await tp.project(owner, 'Access project');
    const camera = await tp.camera(owner, project.exid, 'Access camera');
    const key = await tp.key(owner, { projects: [project.exid], scopes: ['cameras:read'] });
    const other = await tp.person('other');
    const imp = (await inject('POST', `/v2/admin/users/${other.id}/impersonate`, admin)).json();
    const adminKey = await tp.key(admin, { projects: [], scopes: ['user:info'] });
    const plain = await tp.person('plain');
    const calls: ['GET' | 'POST' | 'DELETE', string, object?][] = [
      ['GET', `/v2/admin/projects/${project.exid}`],
      ['POST', `/v2/admin/projects/${project.exid}/transfer`, { user_id: other.id }],
      ['GET', `/v2/admin/cameras/${camera.exid}`],
      ['POST', `/v2/admin/api-keys/${key.id}/revoke`],
      ['DELETE', `/v2/admin/impersonations/${imp.session_id}`],
    ];
    for (const [method, url, payload] of calls) {
      const byKey = await inject(method, url, adminKey.headers, payload);
      expect(byKey.statusCode, `${method} ${url} by key`).toBe(403);
      expect(byKey.json().code).toBe('ENDPOINT_CLOSED_TO_KEYS');
      const byPlain = await inject(method, url, plain, payload);
      expect(byPlain.statusCode, `${method} ${url} by non-admin`).toBe(403);
      expect(byPlain.json().code).toBe('PERMISSION_DENIED');
      expect((await inject(method, url, {}, payload)).statusCode).toBe(401);
    }
  });
});

describe('people', () => {
  it('search by e-mail or name, filter by status and admin flag, paginated', async () => {
    const a = await tp.person('zebrafinder');
    await tp.person('zebrafinder');
    const res = await inject('GET', '/v2/admin/users?q=ZEBRAFINDER&page_size=1', admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().meta).toMatchObject({ total_count: 2, page_size: 1, total_pages: 2 });
    const byId = (await inject('GET', `/v2/admin/users?q=${a.id}`, admin)).json();
    expect(byId.data.map((u: { id: string }) => u.id)).toEqual([a.id]);
    const admins = (await inject('GET', '/v2/admin/users?admin=true&page_size=500', admin)).json();
    expect(admins.data.every((u: { is_admin: boolean }) => u.is_admin)).toBe(true);
    // Wildcards in the search are plain characters.
    expect((await inject('GET', '/v2/admin/users?q=%25', admin)).json().meta.total_count).toBe(0);
    for (const bad of ['page=0', 'page_size=9999', 'status=gone', 'admin=maybe', 'extra=1']) {
      const r = await inject('GET', `/v2/admin/users?${bad}`, admin);
      expect(r.statusCode, bad).toBe(400);
      expect(r.json().code).toBe('VALIDATION_ERROR');
    }
    expect((await inject('GET', '/v2/admin/users/nope', admin)).statusCode).toBe(404);
  });

  it('disabling ends sessions and stops keys at once (despite the caches); a disabled person cannot sign in; enabling brings keys back', async () => {
    const victim = await tp.person('victim');
    const project = await tp.project(victim, 'Victim project');
    const key = await tp.key(victim, { projects: [project.exid], scopes: ['user:info'] });
    // Warm both caches.
    expect((await inject('GET', '/v2/auth/users/me', victim)).statusCode).toBe(200);
    expect((await inject('GET', '/v2/users/roles', key.headers)).statusCode).toBe(200);

    const res = await inject('POST', `/v2/admin/users/${victim.id}/disable`, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: victim.id, disabled: true, active_sessions: 0 });

    expect((await inject('GET', '/v2/auth/users/me', victim)).statusCode).toBe(401);
    const byKey = await inject('GET', '/v2/users/roles', key.headers);
    expect(byKey.statusCode).toBe(401);
    expect(byKey.json().message).toContain('disabled');
    const login = await tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: victim.email, password: victim.password } });
    expect(login.statusCode).toBe(403);
    expect(login.json().code).toBe('ACCOUNT_DISABLED');
    // A wrong password says nothing about the account's state.
    const wrong = await tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: victim.email, password: 'not-the-password' } });
    expect(wrong.json().code).toBe('INVALID_CREDENTIALS');

    const events = await auditOf(`subject_id=${victim.id}&action=admin.user_disabled`);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor_user_id: admin.id, outcome: 'success', details: { sessions_ended: 1 } });
    const failed = await auditOf(`subject_id=${victim.id}&action=auth.login&outcome=failure`);
    expect(failed.map((e) => e.details.reason ?? null)).toContain('account disabled');

    expect((await inject('POST', `/v2/admin/users/${victim.id}/enable`, admin)).json().disabled).toBe(false);
    expect((await inject('GET', '/v2/users/roles', key.headers)).statusCode).toBe(200);
    // The old session stays ended.
    expect((await inject('GET', '/v2/auth/users/me', victim)).statusCode).toBe(401);
    expect((await tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: victim.email, password: victim.password } })).statusCode).toBe(
      200,
    );
    expect(await auditOf(`subject_id=${victim.id}&action=admin.user_enabled`)).toHaveLength(1);
  });

  it('an admin cannot disable themselves or drop their own admin rights', async () => {
    expect((await inject('POST', `/v2/admin/users/${admin.id}/disable`, admin)).json().code).toBe('CONFLICT');
    expect((await inject('PATCH', `/v2/admin/users/${admin.id}`, admin, { is_admin: false })).json().code).toBe('CONFLICT');
    expect((await inject('PATCH', `/v2/admin/users/${admin.id}`, admin, { is_admin: 'yes' })).statusCode).toBe(400);
  });

  it('reset sessions ends every session; make admin takes effect on the next request', async () => {
    const p = await tp.person('resettable');
    const again = (await tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: p.email, password: p.password } })).json().token;
    const res = await inject('POST', `/v2/admin/users/${p.id}/reset-sessions`, admin);
    expect(res.json()).toEqual({ sessions_ended: 2 });
    expect((await inject('GET', '/v2/auth/users/me', p)).statusCode).toBe(401);
    expect((await inject('GET', '/v2/auth/users/me', { authorization: `Bearer ${again}` })).statusCode).toBe(401);
    expect((await auditOf(`subject_id=${p.id}&action=admin.sessions_reset`))[0]!.details).toMatchObject({ sessions_ended: 2 });

    const q = await tp.person('promoted');
    expect((await inject('GET', '/v2/admin/stats', q)).statusCode).toBe(403);
    const made = await inject('PATCH', `/v2/admin/users/${q.id}`, admin, { is_admin: true });
    expect(made.json().is_admin).toBe(true);
    expect((await inject('GET', '/v2/admin/stats', q)).statusCode).toBe(200);
    await inject('PATCH', `/v2/admin/users/${q.id}`, admin, { is_admin: false });
    // Taking the flag ends what was signed in with it (test/platform/admin/revocation.test.ts); signed in again, no admin.
    expect((await inject('GET', '/v2/admin/stats', q)).statusCode).toBe(401);
    const relogged = (await tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: q.email, password: q.password } })).json().token;
    expect((await inject('GET', '/v2/admin/stats', { authorization: `Bearer ${relogged}` })).statusCode).toBe(403);
    expect((await auditOf(`subject_id=${q.id}&action=admin.*`)).map((e) => e.action)).toEqual(['admin.admin_revoked', 'admin.admin_granted']);
  });
});

describe('projects and cameras', () => {
  it('search and view across the platform; transfer makes another person owner', async () => {
    const owner = await tp.person('owner');
    const heir = await tp.person('heir');
    const project = await tp.project(owner, 'Quayside Transfer');
    const camera = await tp.camera(owner, project.exid, 'Quay gate');
    const list = (await inject('GET', '/v2/admin/projects?q=quayside', admin)).json();
    expect(list.data).toEqual([expect.objectContaining({ exid: project.exid, owner: { id: owner.id, email: owner.email }, camera_count: 1, member_count: 1 })]);
    expect((await inject('GET', `/v2/admin/projects?owner_id=${owner.id}`, admin)).json().meta.total_count).toBe(1);
    const cams = (await inject('GET', `/v2/admin/cameras?project_exid=${project.exid}`, admin)).json();
    expect(cams.data).toEqual([expect.objectContaining({ exid: camera.exid, project_exid: project.exid })]);
    const cam = (await inject('GET', `/v2/admin/cameras/${camera.exid}`, admin)).json();
    expect(cam).toMatchObject({ exid: camera.exid, name: 'Quay gate' });
    expect(JSON.stringify(cam)).not.toContain('connection');
    expect((await inject('GET', '/v2/admin/cameras/nope-nope', admin)).statusCode).toBe(404);
    expect((await inject('GET', '/v2/admin/projects/nope-nope', admin)).statusCode).toBe(404);

    const bad = await inject('POST', `/v2/admin/projects/${project.exid}/transfer`, admin, {});
    expect(bad.statusCode).toBe(400);
    expect((await inject('POST', `/v2/admin/projects/${project.exid}/transfer`, admin, { email: 'nobody@example.com' })).statusCode).toBe(404);

    // As for the owner's own transfer (docs/settings.md), the new owner must already be a member.
    for (const to of [{ email: heir.email }, { user_id: heir.id }]) {
      const refused = await inject('POST', `/v2/admin/projects/${project.exid}/transfer`, admin, to);
      expect(refused.statusCode, refused.body).toBe(404);
      expect(refused.json().message).toContain('not a member');
    }
    expect((await inject('GET', `/v2/projects/${project.exid}`, heir)).statusCode).toBe(404);
    expect((await inject('GET', `/v2/projects/${project.exid}`, owner)).json().role).toBe('owner');
    expect(await auditOf(`action=project.transferred&target_id=${project.exid}`)).toEqual([]);

    await tp.addMember(owner, project.exid, heir, 'viewer');
    // Caches warm before the change (the heir's role and key), so a stale cache would show.
    const heirKey = await tp.key(heir, { projects: [project.exid], scopes: ['project:settings', 'projects:read'] });
    expect((await inject('PATCH', `/v2/projects/${project.exid}`, heirKey.headers, { name: 'Quayside Transfer' })).statusCode).toBe(403);
    const res = await inject('POST', `/v2/admin/projects/${project.exid}/transfer`, admin, { email: heir.email });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().owner).toEqual({ id: heir.id, email: heir.email });
    expect(res.json().members).toEqual(expect.arrayContaining([{ user_id: owner.id, email: owner.email, role: 'admin' }]));
    expect((await inject('GET', `/v2/projects/${project.exid}`, heir)).json().role).toBe('owner');
    expect((await inject('GET', `/v2/projects/${project.exid}`, owner)).json().role).toBe('admin');
    expect((await inject('PATCH', `/v2/projects/${project.exid}`, heirKey.headers, { name: 'Quayside Transfer' })).statusCode).toBe(200);
    expect((await inject('POST', `/v2/admin/projects/${project.exid}/transfer`, admin, { user_id: heir.id })).json().code).toBe('CONFLICT');

    // Both people are told, as by the owner's own transfer.
    const told = async (who: Person) => (await inject('GET', '/v2/notifications', who)).json().data.filter((n: { type: string }) => n.type === 'role_changed');
    expect(await told(heir)).toEqual([
      expect.objectContaining({ message: `You are now the owner of project ${project.exid}`, context: { project_exid: project.exid, role: 'owner' } }),
    ]);
    expect(await told(owner)).toEqual([
      expect.objectContaining({
        message: `Project ${project.exid} was transferred; you are now an admin`,
        context: { project_exid: project.exid, role: 'admin' },
      }),
    ]);

    // Both people find the transfer in their own log.
    for (const who of [owner, heir]) {
      const mine = (await inject('GET', '/v2/users/audit?action=project.transferred', who)).json().data;
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        actor_user_id: admin.id,
        target_id: project.exid,
        details: { from_user_id: owner.id, to_user_id: heir.id, to_previous_role: 'viewer' },
      });
    }
  });
});

describe('API keys across the platform', () => {
  it('list by owner and status; revoke one; revoke all of a person (a leaked key)', async () => {
    const owner = await tp.person('keyholder');
    const project = await tp.project(owner, 'Keyed');
    const k1 = await tp.key(owner, { projects: [project.exid], scopes: ['user:info'], name: 'first' });
    const k2 = await tp.key(owner, { projects: [project.exid], scopes: ['user:info'], name: 'second' });
    const k3 = await tp.key(owner, { projects: [project.exid], scopes: ['user:info'], name: 'third' });
    const list = await inject('GET', `/v2/admin/api-keys?user_id=${owner.id}`, admin);
    expect(list.json().meta.total_count).toBe(3);
    expect(list.json().data[0]).toMatchObject({ owner: { id: owner.id, email: owner.email }, status: 'valid' });
    for (const k of [k1, k2, k3]) expect(list.body).not.toContain(k.key);
    expect(list.body).not.toContain('key_hash');

    expect((await inject('GET', '/v2/users/roles', k1.headers)).statusCode).toBe(200);
    const one = await inject('POST', `/v2/admin/api-keys/${k1.id}/revoke`, admin);
    expect(one.json()).toMatchObject({ id: k1.id, status: 'revoked' });
    expect((await inject('GET', '/v2/users/roles', k1.headers)).statusCode).toBe(401);
    expect((await inject('GET', `/v2/admin/api-keys?user_id=${owner.id}&status=revoked`, admin)).json().meta.total_count).toBe(1);
    expect((await inject('POST', '/v2/admin/api-keys/nope/revoke', admin)).statusCode).toBe(404);

    expect((await inject('GET', '/v2/users/roles', k2.headers)).statusCode).toBe(200);
    const all = await inject('POST', `/v2/admin/users/${owner.id}/revoke-api-keys`, admin);
    expect(all.json()).toEqual({ revoked: 2 });
    for (const k of [k2, k3]) expect((await inject('GET', '/v2/users/roles', k.headers)).statusCode).toBe(401);
    expect((await inject('GET', `/v2/admin/api-keys?user_id=${owner.id}&status=valid`, admin)).json().meta.total_count).toBe(0);

    const events = await auditOf(`subject_id=${owner.id}&action=admin.*`);
    expect(events.map((e) => e.action)).toEqual(['admin.api_keys_revoked_all', 'admin.api_key_revoked']);
    expect(events[1]).toMatchObject({ target_id: k1.id, details: { name: 'first' } });
    // The owner sees what was done to their keys.
    const mine = (await inject('GET', '/v2/users/audit?action=admin.*', owner)).json().data;
    expect(mine).toHaveLength(2);
  });

  it('statistics count people, projects, cameras, keys and sessions', async () => {
    const before = (await inject('GET', '/v2/admin/stats', admin)).json();
    const p = await tp.person('counted');
    const project = await tp.project(p, 'Counted');
    await tp.camera(p, project.exid);
    await tp.key(p, { projects: [project.exid], scopes: ['user:info'] });
    const after = (await inject('GET', '/v2/admin/stats', admin)).json();
    expect(after.users.total).toBe(before.users.total + 1);
    expect(after.projects.total).toBe(before.projects.total + 1);
    expect(after.cameras.total).toBe(before.cameras.total + 1);
    expect(after.api_keys.valid).toBe(before.api_keys.valid + 1);
    expect(after.sessions.active).toBe(before.sessions.active + 1);
    expect(after.audit_events_last_24h).toBeGreaterThan(before.audit_events_last_24h);
  });
});
