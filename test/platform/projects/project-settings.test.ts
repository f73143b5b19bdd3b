// Project update, transfer, the role ladder, one member and the settings history: their real effects,
// audit entries, and bad inputs (4xx, never 5xx).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';

let tp: TestPlatform;
beforeAll(async () => {
  tp = await buildTestPlatform();
});
afterAll(async () => tp.close());

const roleOf = async (projectExid: string, who: { auth: { authorization: string } }) =>
  (await tp.app.inject({ method: 'GET', url: `/v2/projects/${projectExid}`, headers: who.auth })).json().role;

describe('project update', () => {
  it('changes name, status and time zone, records what changed, and refuses bad values', async () => {
    const owner = await tp.person('owner');
    const p = await tp.project(owner, 'Harbour');
    const admin = await tp.person('admin');
    await tp.addMember(owner, p.exid, admin, 'admin');
    const res = await tp.app.inject({
      method: 'PATCH',
      url: `/v2/projects/${p.exid}`,
      headers: admin.auth,
      payload: { name: '  Harbour Tower ', status: 'Completed', timezone: 'Europe/Dublin' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ exid: p.exid, name: 'Harbour Tower', status: 'Completed', timezone: 'Europe/Dublin', role: 'admin' });
    const again = await tp.app.inject({ method: 'GET', url: `/v2/projects/${p.exid}`, headers: owner.auth });
    expect(again.json()).toMatchObject({ name: 'Harbour Tower', status: 'Completed', timezone: 'Europe/Dublin' });

    for (const [payload, field] of [
      [{ timezone: 'Mars/Olympus' }, 'timezone'],
      [{ status: 'Demolished' }, 'status'],
      [{ name: '   ' }, 'name'],
      [{}, null],
      [{ owner: 'x' }, null],
    ] as const) {
      const bad = await tp.app.inject({ method: 'PATCH', url: `/v2/projects/${p.exid}`, headers: owner.auth, payload });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(bad.json().code).toBe('VALIDATION_ERROR');
      if (field) expect(JSON.stringify(bad.json())).toContain(field);
    }

    const history = await tp.app.inject({ method: 'GET', url: `/v2/projects/${p.exid}/settings/history`, headers: owner.auth });
    expect(history.statusCode).toBe(200);
    const updated = history.json().data.find((e: { action: string }) => e.action === 'project.updated');
    expect(updated.actor_user_id).toBe(admin.id);
    expect(updated.details.changes).toEqual({
      name: { from: 'Harbour', to: 'Harbour Tower' },
      status: { from: 'In Progress', to: 'Completed' },
      timezone: { from: 'UTC', to: 'Europe/Dublin' },
    });
    // Member changes (members-service) show in the same history.
    expect(history.json().data.some((e: { action: string }) => e.action === 'member.added')).toBe(true);
  });
});

describe('transfer', () => {
  it('makes a member the owner and the old owner an admin; the new owner’s rights follow at once', async () => {
    const owner = await tp.person('owner');
    const p = await tp.project(owner, 'Depot');
    const heir = await tp.person('heir');
    await tp.addMember(owner, p.exid, heir, 'viewer');
    // Caches warm before the change, so a stale cache would show.
    expect(await roleOf(p.exid, heir)).toBe('viewer');
    const heirKey = await tp.key(heir, { projects: [p.exid], scopes: ['project:settings', 'projects:read'] });
    expect((await tp.app.inject({ method: 'DELETE', url: `/v2/projects/${p.exid}/thumbnail`, headers: heirKey.headers })).statusCode).toBe(403);

    const res = await tp.app.inject({
      method: 'POST',
      url: `/v2/projects/${p.exid}/transfer`,
      headers: owner.auth,
      payload: { email: heir.email.toUpperCase() },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().owner).toEqual({ id: heir.id, email: heir.email });
    expect(await roleOf(p.exid, heir)).toBe('owner');
    expect(await roleOf(p.exid, owner)).toBe('admin');
    // The heir's key now reaches owner-level settings; the old owner can no longer transfer or delete.
    expect((await tp.app.inject({ method: 'PATCH', url: `/v2/projects/${p.exid}`, headers: heirKey.headers, payload: { name: 'Depot 2' } })).statusCode).toBe(
      200,
    );
    const refused = await tp.app.inject({ method: 'DELETE', url: `/v2/projects/${p.exid}`, headers: owner.auth });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('PERMISSION_DENIED');
    const back = await tp.app.inject({ method: 'POST', url: `/v2/projects/${p.exid}/transfer`, headers: owner.auth, payload: { user_id: owner.id } });
    expect(back.statusCode).toBe(403);

    const members = (await tp.app.inject({ method: 'GET', url: `/v2/projects/${p.exid}/members`, headers: heir.auth })).json();
    expect(members.filter((m: { role: string }) => m.role === 'owner').map((m: { user_id: string }) => m.user_id)).toEqual([heir.id]);

    // Both people find it in their own audit log; the heir is notified.
    for (const who of [owner, heir]) {
      const log = await tp.app.inject({ method: 'GET', url: '/v2/users/audit?action=project.transferred', headers: who.auth });
      expect(log.json().data[0]?.details).toMatchObject({ project_exid: p.exid, from_user_id: owner.id, to_user_id: heir.id });
    }
    const notes = await tp.app.inject({ method: 'GET', url: '/v2/notifications', headers: heir.auth });
    expect(JSON.stringify(notes.json())).toContain('You are now the owner');
  });

  it('refuses people who are not members, the owner, both or neither fields, unknown fields', async () => {
    const owner = await tp.person('owner');
    const p = await tp.project(owner, 'Quay');
    const outsider = await tp.person('outsider');
    const member = await tp.person('member');
    await tp.addMember(owner, p.exid, member, 'editor');
    const cases: [object, number][] = [
      [{ user_id: outsider.id }, 404],
      [{ email: 'nobody@example.com' }, 404],
      [{ user_id: owner.id }, 409],
      [{ user_id: member.id, email: member.email }, 400],
      [{}, 400],
      [{ user_id: member.id, role: 'owner' }, 400],
      [{ user_id: 123 }, 400],
    ];
    for (const [payload, status] of cases) {
      const res = await tp.app.inject({ method: 'POST', url: `/v2/projects/${p.exid}/transfer`, headers: owner.auth, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
    }
    expect(await roleOf(p.exid, owner)).toBe('owner');
  });
});

describe('roles and one member', () => {
  it('lists the ladder and reads one member; an unknown member is 404', async () => {
    const owner = await tp.person('owner');
    const p = await tp.project(owner, 'Bridge');
    const viewer = await tp.person('viewer');
    await tp.addMember(owner, p.exid, viewer, 'viewer');
    const roles = await tp.app.inject({ method: 'GET', url: `/v2/projects/${p.exid}/roles`, headers: viewer.auth });
    expect(roles.json().map((r: { role: string }) => r.role)).toEqual(['viewer', 'editor', 'admin', 'owner']);
    expect(roles.json()[3].includes).toEqual(['viewer', 'editor', 'admin', 'owner']);
    expect(roles.json()[3].allows.join(' ')).toContain('transfer');
    const one = await tp.app.inject({ method: 'GET', url: `/v2/projects/${p.exid}/members/${viewer.id}`, headers: viewer.auth });
    expect(one.json()).toMatchObject({ user_id: viewer.id, email: viewer.email, role: 'viewer' });
    const none = await tp.app.inject({ method: 'GET', url: `/v2/projects/${p.exid}/members/not-a-member`, headers: viewer.auth });
    expect(none.statusCode).toBe(404);
    const long = await tp.app.inject({ method: 'GET', url: `/v2/projects/${p.exid}/members/${'x'.repeat(80)}`, headers: viewer.auth });
    expect(long.statusCode).toBe(400);
    const page = await tp.app.inject({ method: 'GET', url: `/v2/projects/${p.exid}/settings/history?page=0`, headers: owner.auth });
    expect(page.statusCode).toBe(400);
  });
});
