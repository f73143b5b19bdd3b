// Adding a member by e-mail tells nothing about who has an account (docs/settings.md, Members): the same
// answer either way; a person with an account joins at once, an e-mail without one is invited, and the
// invitation is accepted (or declined) by whoever later has an account with that e-mail. Project admins
// see and cancel pending invitations; expired, declined and cancelled ones do nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../src/platform/users/create-user.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';

let tp: TestPlatform;
let owner: Person;
beforeAll(async () => {
  tp = await buildTestPlatform();
  owner = await tp.person('owner');
});
afterAll(() => tp.close());

let n = 0;
const freshEmail = () => `invitee-${++n}-${process.pid}@example.com`;

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) =>
  tp.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
const add = (exid: string, email: string, role: string, by: Person = owner) => call('POST', `/v2/projects/${exid}/members`, by.auth, { email, role });

/** An account made the way `overlook users create` makes one, signed in. */
async function signUp(email: string): Promise<Person> {
  const password = `pw-${email}-secret`;
  const user = await createUser(tp.t.db, { email, password, firstname: 'New', lastname: 'Person' });
  const res = await tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: email, password } });
  expect(res.statusCode).toBe(200);
  return { id: user.id, email, password, token: res.json().token, auth: { authorization: `Bearer ${res.json().token}` } };
}

const mine = async (p: Person) => {
  const res = await call('GET', '/v2/users/me/invitations', p.auth);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: string; project_exid: string; project_name: string; role: string }[];
};
const roleIn = async (p: Person, exid: string) => {
  const res = await call('GET', `/v2/projects/${exid}`, p.auth);
  return res.statusCode === 200 ? (res.json().role as string) : res.statusCode;
};

describe('adding by e-mail', () => {
  it('answers the same for an e-mail with an account and one without: no names, no ids', async () => {
    const exid = (await tp.project(owner, 'Same answer')).exid;
    const existing = await tp.person('existing');
    const withAccount = await add(exid, existing.email, 'editor');
    const without = await add(exid, freshEmail(), 'editor');
    expect(withAccount.statusCode).toBe(201);
    expect(without.statusCode).toBe(201);
    expect(Object.keys(withAccount.json()).sort()).toEqual(['email', 'role']);
    expect(Object.keys(without.json()).sort()).toEqual(['email', 'role']);
    expect(withAccount.json()).toEqual({ email: existing.email, role: 'editor' });
    expect(withAccount.headers['content-type']).toBe(without.headers['content-type']);
    // The person with an account acts at once.
    expect(await roleIn(existing, exid)).toBe('editor');
  });

  it('refuses what is not an e-mail address (400)', async () => {
    const exid = (await tp.project(owner)).exid;
    const res = await add(exid, 'not an address', 'viewer');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
  });
});

describe('an invitation', () => {
  it('is seen and accepted once the account exists, joining with the invited role', async () => {
    const project = await tp.project(owner, 'Invited site');
    const email = freshEmail();
    expect((await add(project.exid, ` ${email.toUpperCase()} `, 'editor')).statusCode).toBe(201);
    const person = await signUp(email);
    expect(await roleIn(person, project.exid)).toBe(404);
    const [inv, ...rest] = await mine(person);
    expect(rest).toEqual([]);
    expect(inv).toMatchObject({ project_exid: project.exid, project_name: 'Invited site', role: 'editor' });

    const accepted = await call('POST', `/v2/invitations/${inv!.id}/accept`, person.auth);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({ project_exid: project.exid, role: 'editor' });
    expect(await roleIn(person, project.exid)).toBe('editor');
    expect(await mine(person)).toEqual([]);
    // Taken once.
    expect((await call('POST', `/v2/invitations/${inv!.id}/accept`, person.auth)).statusCode).toBe(404);
  });

  it('cannot be accepted or declined by anyone else', async () => {
    const project = await tp.project(owner);
    const email = freshEmail();
    await add(project.exid, email, 'admin');
    const invitee = await signUp(email);
    const [inv] = await mine(invitee);
    const other = await tp.person('other');
    expect(await mine(other)).toEqual([]);
    for (const [method, url] of [
      ['POST', `/v2/invitations/${inv!.id}/accept`],
      ['DELETE', `/v2/invitations/${inv!.id}`],
    ] as const) {
      const res = await call(method, url, other.auth);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    expect(await roleIn(other, project.exid)).toBe(404);
    // The project's owner cannot take it either.
    expect((await call('POST', `/v2/invitations/${inv!.id}/accept`, owner.auth)).statusCode).toBe(404);
    expect(await mine(invitee)).toHaveLength(1);
  });

  it('declined, it does nothing', async () => {
    const project = await tp.project(owner);
    const email = freshEmail();
    await add(project.exid, email, 'viewer');
    const person = await signUp(email);
    const [inv] = await mine(person);
    expect((await call('DELETE', `/v2/invitations/${inv!.id}`, person.auth)).statusCode).toBe(204);
    expect(await mine(person)).toEqual([]);
    expect((await call('POST', `/v2/invitations/${inv!.id}/accept`, person.auth)).statusCode).toBe(404);
    expect(await roleIn(person, project.exid)).toBe(404);
  });

  it('cancelled by a project admin, it does nothing; admins see what is pending, others do not', async () => {
    const project = await tp.project(owner);
    const email = freshEmail();
    await add(project.exid, email, 'viewer');
    const viewer = await tp.person('viewer');
    await tp.addMember(owner, project.exid, viewer, 'viewer');
    const list = await call('GET', `/v2/projects/${project.exid}/invitations`, owner.auth);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([expect.objectContaining({ email, role: 'viewer', invited_by: owner.id })]);
    expect((await call('GET', `/v2/projects/${project.exid}/invitations`, viewer.auth)).statusCode).toBe(403);
    expect((await call('GET', `/v2/projects/${project.exid}/invitations`, (await tp.person('stranger')).auth)).statusCode).toBe(404);
    const key = await tp.key(owner, { projects: [project.exid], scopes: ['project:settings'] });
    const byKey = await call('GET', `/v2/projects/${project.exid}/invitations`, key.headers);
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().code).toBe('ENDPOINT_CLOSED_TO_KEYS');

    const id = list.json()[0].id;
    // Another project's admin cannot cancel it through their own project.
    const elsewhere = await tp.project(owner);
    expect((await call('DELETE', `/v2/projects/${elsewhere.exid}/invitations/${id}`, owner.auth)).statusCode).toBe(404);
    expect((await call('DELETE', `/v2/projects/${project.exid}/invitations/${id}`, owner.auth)).statusCode).toBe(204);
    expect((await call('GET', `/v2/projects/${project.exid}/invitations`, owner.auth)).json()).toEqual([]);
    const person = await signUp(email);
    expect(await mine(person)).toEqual([]);
    expect((await call('POST', `/v2/invitations/${id}/accept`, person.auth)).statusCode).toBe(404);
    expect(await roleIn(person, project.exid)).toBe(404);
  });

  it('expired, it does nothing', async () => {
    const project = await tp.project(owner);
    const email = freshEmail();
    await add(project.exid, email, 'viewer');
    const person = await signUp(email);
    const [inv] = await mine(person);
    await tp.t.db.kysely
      .updateTable('project_invitations')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', inv!.id)
      .execute();
    expect(await mine(person)).toEqual([]);
    expect((await call('GET', `/v2/projects/${project.exid}/invitations`, owner.auth)).json()).toEqual([]);
    expect((await call('POST', `/v2/invitations/${inv!.id}/accept`, person.auth)).statusCode).toBe(404);
    expect(await roleIn(person, project.exid)).toBe(404);
    // Adding the e-mail again, now that it has an account, makes them a member at once.
    expect((await add(project.exid, email, 'editor')).statusCode).toBe(201);
    expect(await roleIn(person, project.exid)).toBe('editor');
  });

  it('is one per project and e-mail: adding again refreshes it', async () => {
    const project = await tp.project(owner);
    const email = freshEmail();
    await add(project.exid, email, 'viewer');
    const first = (await call('GET', `/v2/projects/${project.exid}/invitations`, owner.auth)).json();
    await tp.t.db.kysely
      .updateTable('project_invitations')
      .set({ expires_at: new Date(Date.now() + 1000).toISOString() })
      .where('id', '=', first[0].id)
      .execute();
    await add(project.exid, email, 'admin');
    const pending = (await call('GET', `/v2/projects/${project.exid}/invitations`, owner.auth)).json();
    expect(pending).toEqual([expect.objectContaining({ email, role: 'admin' })]);
    // Refreshed: a new expiry, days away.
    expect(Date.parse(pending[0].expires_at)).toBeGreaterThan(Date.now() + 86_400_000);
  });

  it('is settled when the person, once they have an account, is added directly', async () => {
    const project = await tp.project(owner);
    const email = freshEmail();
    await add(project.exid, email, 'viewer');
    const person = await signUp(email);
    expect((await add(project.exid, email, 'editor')).statusCode).toBe(201);
    expect(await roleIn(person, project.exid)).toBe('editor');
    expect(await mine(person)).toEqual([]);
  });

  it('is the person’s own business: closed to API keys and to impersonated sessions', async () => {
    const project = await tp.project(owner);
    const email = freshEmail();
    await add(project.exid, email, 'viewer');
    const person = await signUp(email);
    const [inv] = await mine(person);
    const own = await tp.project(person);
    const key = await tp.key(person, { projects: [own.exid], scopes: ['user:info', 'profile:write', 'project:settings'] });
    for (const [method, url] of [
      ['GET', '/v2/users/me/invitations'],
      ['POST', `/v2/invitations/${inv!.id}/accept`],
      ['DELETE', `/v2/invitations/${inv!.id}`],
    ] as const) {
      const res = await call(method, url, key.headers);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().code).toBe('ENDPOINT_CLOSED_TO_KEYS');
    }
    const admin = await tp.person('admin', { admin: true });
    const imp = (await call('POST', `/v2/admin/users/${person.id}/impersonate`, admin.auth)).json();
    const res = await call('POST', `/v2/invitations/${inv!.id}/accept`, { authorization: `Bearer ${imp.token}` });
    expect(res.statusCode).toBe(403);
    expect(await roleIn(person, project.exid)).toBe(404);
  });
});
