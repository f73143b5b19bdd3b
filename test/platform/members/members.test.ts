// Members and roles (project:settings): access rules per endpoint, the role ladder for
// people and keys alike, and the key cache following membership changes at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { checkEndpointAccess, type AccessWorld, type EndpointSpec } from '../../helpers/access.js';

let tp: TestPlatform;
beforeAll(async () => {
  tp = await buildTestPlatform();
});
afterAll(() => tp.close());

const members = (p: string) => `/v2/projects/${p}/members`;

/** A viewer on both of the world's projects, so the same member id works on either URL. */
const memberOfBoth = async (_tp: TestPlatform, w: AccessWorld) => {
  const m = await tp.person('member');
  await tp.addMember(w.owner, w.projectExid, m, 'viewer');
  await tp.addMember(w.owner, w.otherProjectExid, m, 'viewer');
  return { member: m.id };
};

const endpoints: EndpointSpec[] = [
  {
    method: 'GET',
    url: (w) => members(w.projectExid),
    otherUrl: (w) => members(w.otherProjectExid),
    scopes: ['project:settings'],
    role: 'viewer',
    okStatus: 200,
  },
  {
    method: 'POST',
    url: (w) => members(w.projectExid),
    otherUrl: (w) => members(w.otherProjectExid),
    payload: (w) => ({ email: w.extra.email, role: 'viewer' }),
    scopes: ['project:settings'],
    role: 'admin',
    okStatus: 201,
    setup: async () => ({ email: (await tp.person('invitee')).email }),
  },
  {
    method: 'PATCH',
    url: (w) => `${members(w.projectExid)}/${w.extra.member}`,
    otherUrl: (w) => `${members(w.otherProjectExid)}/${w.extra.member}`,
    payload: () => ({ role: 'editor' }),
    scopes: ['project:settings'],
    role: 'admin',
    okStatus: 200,
    setup: memberOfBoth,
  },
  {
    method: 'DELETE',
    url: (w) => `${members(w.projectExid)}/${w.extra.member}`,
    otherUrl: (w) => `${members(w.otherProjectExid)}/${w.extra.member}`,
    scopes: ['project:settings'],
    role: 'admin',
    okStatus: 204,
    setup: memberOfBoth,
  },
];

describe('access rules', () => {
  for (const spec of endpoints)
    it(`${spec.method} ${spec.url({ projectExid: '{exid}', extra: { member: '{user_id}' } } as never)}`, () => checkEndpointAccess(tp, spec));
});

async function team(): Promise<{ owner: Person; admin: Person; editor: Person; viewer: Person; exid: string }> {
  const owner = await tp.person('owner');
  const exid = (await tp.project(owner)).exid;
  const admin = await tp.person('admin');
  const editor = await tp.person('editor');
  const viewer = await tp.person('viewer');
  await tp.addMember(owner, exid, admin, 'admin');
  await tp.addMember(owner, exid, editor, 'editor');
  await tp.addMember(owner, exid, viewer, 'viewer');
  return { owner, admin, editor, viewer, exid };
}

describe('the role ladder', () => {
  it('lists members with their roles', async () => {
    const t = await team();
    const res = await tp.app.inject({ method: 'GET', url: members(t.exid), headers: t.viewer.auth });
    expect(res.statusCode).toBe(200);
    const roles = Object.fromEntries(res.json().map((m: { email: string; role: string }) => [m.email, m.role]));
    expect(roles).toEqual({ [t.owner.email]: 'owner', [t.admin.email]: 'admin', [t.editor.email]: 'editor', [t.viewer.email]: 'viewer' });
  });

  it('nobody grants owner; an admin cannot grant above admin nor touch the owner', async () => {
    const t = await team();
    const newcomer = await tp.person('newcomer');
    const owner = await tp.app.inject({ method: 'POST', url: members(t.exid), headers: t.owner.auth, payload: { email: newcomer.email, role: 'owner' } });
    expect(owner.statusCode).toBe(400);
    const bogus = await tp.app.inject({ method: 'POST', url: members(t.exid), headers: t.owner.auth, payload: { email: newcomer.email, role: 'superuser' } });
    expect(bogus.statusCode).toBe(400);
    const ok = await tp.app.inject({ method: 'POST', url: members(t.exid), headers: t.admin.auth, payload: { email: newcomer.email, role: 'admin' } });
    expect(ok.statusCode).toBe(201);
    for (const [method, payload] of [
      ['PATCH', { role: 'viewer' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await tp.app.inject({ method, url: `${members(t.exid)}/${t.owner.id}`, headers: t.admin.auth, ...(payload ? { payload } : {}) });
      expect(res.statusCode, method).toBe(403);
      expect(res.json().code).toBe('PERMISSION_DENIED');
    }
    const again = await tp.app.inject({ method: 'POST', url: members(t.exid), headers: t.owner.auth, payload: { email: newcomer.email, role: 'viewer' } });
    expect(again.statusCode).toBe(409);
    // An e-mail with no account is invited, with the answer an account gets (test/platform/invitations).
    const nobody = await tp.app.inject({
      method: 'POST',
      url: members(t.exid),
      headers: t.owner.auth,
      payload: { email: 'nobody@example.com', role: 'viewer' },
    });
    expect(nobody.statusCode).toBe(201);
  });

  it('an editor cannot manage members, by JWT or by key; the key of an admin can', async () => {
    const t = await team();
    const newcomer = await tp.person('newcomer');
    const byEditor = await tp.app.inject({ method: 'POST', url: members(t.exid), headers: t.editor.auth, payload: { email: newcomer.email, role: 'viewer' } });
    expect(byEditor.statusCode).toBe(403);
    const editorKey = await tp.key(t.editor, { projects: [t.exid], scopes: ['project:settings'] });
    const byEditorKey = await tp.app.inject({
      method: 'POST',
      url: members(t.exid),
      headers: editorKey.headers,
      payload: { email: newcomer.email, role: 'viewer' },
    });
    expect(byEditorKey.statusCode).toBe(403);
    expect(byEditorKey.json().code).toBe('PERMISSION_DENIED');
    const adminKey = await tp.key(t.admin, { projects: [t.exid], scopes: ['project:settings'] });
    const byAdminKey = await tp.app.inject({
      method: 'POST',
      url: members(t.exid),
      headers: adminKey.headers,
      payload: { email: newcomer.email, role: 'editor' },
    });
    expect(byAdminKey.statusCode).toBe(201);
  });

  it('a key follows its owner’s role at once: demoted, it loses the action; removed, it loses the project', async () => {
    const t = await team();
    const key = await tp.key(t.admin, { projects: [t.exid], scopes: ['project:settings', 'projects:read'] });
    const list = () => tp.app.inject({ method: 'GET', url: members(t.exid), headers: key.headers });
    const add = async () =>
      tp.app.inject({ method: 'POST', url: members(t.exid), headers: key.headers, payload: { email: (await tp.person('x')).email, role: 'viewer' } });
    expect((await add()).statusCode).toBe(201);
    expect(
      (await tp.app.inject({ method: 'PATCH', url: `${members(t.exid)}/${t.admin.id}`, headers: t.owner.auth, payload: { role: 'viewer' } })).statusCode,
    ).toBe(200);
    const demoted = await add();
    expect(demoted.statusCode).toBe(403);
    expect(demoted.json().code).toBe('PERMISSION_DENIED');
    expect((await list()).statusCode).toBe(200);
    expect((await tp.app.inject({ method: 'DELETE', url: `${members(t.exid)}/${t.admin.id}`, headers: t.owner.auth })).statusCode).toBe(204);
    const removed = await list();
    expect(removed.statusCode).toBe(403);
    expect(removed.json().code).toBe('PROJECT_NOT_ALLOWED');
    // Re-adding the person does not silently give the old key its project back.
    await tp.addMember(t.owner, t.exid, t.admin, 'admin');
    expect((await list()).statusCode).toBe(403);
    // And the person themselves reaches it again.
    expect((await tp.app.inject({ method: 'GET', url: members(t.exid), headers: t.admin.auth })).statusCode).toBe(200);
  });

  it('unknown member and bad bodies: 404 and 400', async () => {
    const t = await team();
    const stranger = await tp.person('stranger');
    expect(
      (await tp.app.inject({ method: 'PATCH', url: `${members(t.exid)}/${stranger.id}`, headers: t.owner.auth, payload: { role: 'viewer' } })).statusCode,
    ).toBe(404);
    expect((await tp.app.inject({ method: 'DELETE', url: `${members(t.exid)}/${stranger.id}`, headers: t.owner.auth })).statusCode).toBe(404);
    for (const payload of [{}, { role: 3 }, { role: 'viewer', extra: true }]) {
      const res = await tp.app.inject({ method: 'PATCH', url: `${members(t.exid)}/${t.viewer.id}`, headers: t.owner.auth, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    for (const payload of [{ role: 'viewer' }, { email: 'a@b.co' }, { email: 5, role: 'viewer' }]) {
      const res = await tp.app.inject({ method: 'POST', url: members(t.exid), headers: t.owner.auth, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });
});
