// Repeated requests (docs/access-model.md, How a request is decided): once a credential, a project and a
// role are in the caches, later requests must get exactly what the first got. These cases repeat requests
// and change what the check reads in between: a change must reach it at once, and a refusal must keep its
// answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';

let tp: TestPlatform;
let owner: Person;
let exid: string;
let camera: string;
beforeAll(async () => {
  tp = await buildTestPlatform();
  owner = await tp.person('owner');
  exid = (await tp.project(owner, 'Memory site')).exid;
  camera = (await tp.camera(owner, exid)).exid;
});
afterAll(() => tp.close());

const read = (headers: Record<string, string>) => tp.app.inject({ method: 'GET', url: `/v2/cameras/${camera}`, headers });
/** The parts of an answer a caller sees: status, code, challenge. */
const answer = async (headers: Record<string, string>) => {
  const res = await read(headers);
  return { status: res.statusCode, code: res.statusCode === 200 ? null : res.json().code, challenge: res.headers['www-authenticate'] ?? null };
};

describe('the access check on repeated requests', () => {
  it('answers repeated requests as it answered the first, allowed or refused', async () => {
    const good = await tp.key(owner, { projects: [exid], scopes: ['cameras:read'] });
    const noScope = await tp.key(owner, { projects: [exid], scopes: ['projects:read'] });
    const otherProject = await tp.key(owner, { projects: [(await tp.project(owner, 'Elsewhere')).exid], scopes: ['cameras:read'] });
    for (const headers of [good.headers, noScope.headers, otherProject.headers, owner.auth, {}]) {
      const first = await answer(headers);
      for (let i = 0; i < 3; i++) expect(await answer(headers)).toEqual(first);
    }
    expect((await answer(good.headers)).status).toBe(200);
    expect(await answer(noScope.headers)).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE' });
    expect(await answer(otherProject.headers)).toMatchObject({ status: 403, code: 'PROJECT_NOT_ALLOWED' });
    expect(await answer({})).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('holds a key to its owner’s role on every request', async () => {
    const viewer = await tp.person('viewer');
    await tp.addMember(owner, exid, viewer, 'viewer');
    const key = await tp.key(viewer, { projects: [exid], scopes: ['camera:recordings'] });
    // Taking a snapshot needs an editor: refused every time.
    const codes = [];
    for (let i = 0; i < 3; i++) {
      const res = await tp.app.inject({ method: 'POST', url: `/v2/cameras/${camera}/snapshots`, headers: key.headers, payload: {} });
      codes.push(`${res.statusCode} ${res.json().code}`);
    }
    expect(codes).toEqual(Array(3).fill('403 PERMISSION_DENIED'));
  });

  it('hears a revoked key, an ended session and a removed member on the very next request', async () => {
    const member = await tp.person('member');
    await tp.addMember(owner, exid, member, 'viewer');
    const key = await tp.key(member, { projects: [exid], scopes: ['cameras:read'] });
    const other = await tp.key(member, { projects: [exid], scopes: ['cameras:read'] });
    expect((await answer(key.headers)).status).toBe(200);
    expect((await answer(key.headers)).status).toBe(200);
    await tp.app.inject({ method: 'POST', url: `/v2/api-keys/${key.id}/revoke`, headers: member.auth });
    expect(await answer(key.headers)).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });

    expect((await answer(other.headers)).status).toBe(200);
    const removed = await tp.app.inject({ method: 'DELETE', url: `/v2/projects/${exid}/members/${member.id}`, headers: owner.auth });
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    expect((await answer(other.headers)).status).toBe(403);

    const person = await tp.person('signed-in');
    await tp.addMember(owner, exid, person, 'viewer');
    expect((await answer(person.auth)).status).toBe(200);
    expect((await answer(person.auth)).status).toBe(200);
    await tp.app.inject({ method: 'DELETE', url: '/v2/auth/logout', headers: person.auth });
    expect(await answer(person.auth)).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('counts each request of a key with a rate limit once', async () => {
    const res = await tp.app.inject({
      method: 'POST',
      url: '/v2/api-keys',
      headers: owner.auth,
      payload: {
        name: 'limited',
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
        projects: [exid],
        scopes: ['cameras:read'],
        rate_limit: { requests: 3, window_seconds: 60 },
      },
    });
    const headers = { 'x-access-key': res.json().key as string };
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await read(headers)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  it('reads a Bearer header of any accepted form, and refuses a token with more after it', async () => {
    const token = owner.auth.authorization.slice('Bearer '.length);
    // The session is cached by now: every accepted form is let in.
    for (const authorization of [`Bearer ${token}`, `bearer ${token}`, `Bearer \t${token}`, `Bearer ${token}  `]) {
      for (let i = 0; i < 2; i++) expect((await read({ authorization })).statusCode, authorization.slice(0, 10)).toBe(200);
    }
    for (const authorization of [`Bearer ${token} more`, `Bearer ${token}\u00a0`, `Bearer  ${token}x`, `Bearer${token}`]) {
      for (let i = 0; i < 2; i++) expect(await answer({ authorization }), authorization.slice(-8)).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    }
  });
});
