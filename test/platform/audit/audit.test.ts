// The audit log: who, what, when, from where for sign-ins, sessions, keys, members and key refusals
// (sampled); a person reads their own events, admins all; filters, pagination; never a secret.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { checkEndpointAccess } from '../../helpers/access.js';
import { RefusalSampler, scrub } from '../../../src/platform/audit/audit-log.js';

let tp: TestPlatform;
let admin: Person;
beforeAll(async () => {
  tp = await buildTestPlatform();
  admin = await tp.person('admin', { admin: true });
});
afterAll(() => tp.close());

type Ev = {
  action: string;
  outcome: string;
  actor_user_id: string | null;
  actor_key_id: string | null;
  subject_user_id: string | null;
  target_type: string | null;
  target_id: string | null;
  ip: string | null;
  user_agent: string | null;
  details: Record<string, unknown>;
  created_at: string;
};
const mine = async (who: Person, q = '') => {
  const res = await tp.app.inject({ method: 'GET', url: `/v2/users/audit?page_size=500${q}`, headers: who.auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Ev[];
};
const all = async (q: string) => (await tp.app.inject({ method: 'GET', url: `/v2/admin/audit?page_size=500&${q}`, headers: admin.auth })).json().data as Ev[];

describe('GET /v2/users/audit', () => {
  it('access rules: people only, closed to keys', () => checkEndpointAccess(tp, { method: 'GET', url: () => '/v2/users/audit', scopes: [], okStatus: 200 }));

  it('bad filters are 400', async () => {
    const me = await tp.person('me');
    for (const q of [
      'from=yesterday',
      'to=2026-13-40T00:00:00Z',
      // Loose readers take these as 2001, a US date and 2 March (docs/security.md, "Times").
      'from=1',
      'from=12%2F25%2F2026',
      'from=2026-02-30T00:00:00Z',
      'to=2026-01-01T00:00:00',
      'action=DROP%20TABLE',
      'outcome=maybe',
      'page=0',
      'page_size=501',
      'unknown=1',
      'from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z',
    ]) {
      const res = await tp.app.inject({ method: 'GET', url: `/v2/users/audit?${q}`, headers: me.auth });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('what is recorded', () => {
  it('sign-ins (success and failure), logouts and session revocations, with who and from where', async () => {
    const me = await tp.person('signer');
    const wrong = await tp.app.inject({
      method: 'POST',
      url: '/v2/auth/login',
      headers: { 'user-agent': 'audit-test/1.0' },
      payload: { username: me.email, password: 'wrong-password-1' },
    });
    expect(wrong.statusCode).toBe(401);
    const second = (
      await tp.app.inject({
        method: 'POST',
        url: '/v2/auth/login',
        headers: { 'user-agent': 'audit-test/1.0' },
        payload: { username: me.email, password: me.password },
      })
    ).json();
    const secondSession = (await tp.app.inject({ method: 'GET', url: '/v2/auth/credentials', headers: { authorization: `Bearer ${second.token}` } })).json()
      .session_id;
    expect((await tp.app.inject({ method: 'DELETE', url: `/v2/users/active-sessions/${secondSession}`, headers: me.auth })).statusCode).toBe(204);
    expect((await tp.app.inject({ method: 'DELETE', url: '/v2/auth/logout', headers: me.auth })).statusCode).toBe(204);

    const third = await tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: me.email, password: me.password } });
    const auth = { authorization: `Bearer ${third.json().token}` };
    const events = (await tp.app.inject({ method: 'GET', url: '/v2/users/audit?action=auth.*&page_size=500', headers: auth })).json().data as Ev[];
    expect(events.map((e) => `${e.action}:${e.outcome}`)).toEqual([
      'auth.login:success',
      'auth.logout:success',
      'auth.session_revoked:success',
      'auth.login:success',
      'auth.login:failure',
      'auth.login:success',
    ]);
    const failure = events[4]!;
    expect(failure).toMatchObject({
      actor_user_id: me.id,
      subject_user_id: me.id,
      ip: '127.0.0.1',
      user_agent: 'audit-test/1.0',
      details: { method: 'password' },
    });
    expect(events[2]).toMatchObject({ target_type: 'session', target_id: secondSession });
    expect(Date.parse(events[0]!.created_at)).toBeGreaterThan(Date.now() - 60_000);

    // An unknown e-mail is recorded for admins (no person to file it under).
    await tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: 'ghost@example.org', password: 'whatever-123' } });
    const ghost = await all('action=auth.login&outcome=failure');
    expect(ghost.find((e) => e.details.email === 'ghost@example.org')).toMatchObject({ actor_user_id: null, subject_user_id: null });
  });

  it('API keys: created, edited, regenerated, revoked, deleted; never the value', async () => {
    const me = await tp.person('keyer');
    const project = await tp.project(me, 'Keys');
    const key = await tp.key(me, { projects: [project.exid], scopes: ['user:info'], name: 'audited key' });
    await tp.app.inject({
      method: 'PATCH',
      url: `/v2/api-keys/${key.id}`,
      headers: me.auth,
      payload: { name: 'renamed key', scopes: ['user:info', 'projects:read'] },
    });
    const regen = (await tp.app.inject({ method: 'POST', url: `/v2/api-keys/${key.id}/regenerate`, headers: me.auth })).json();
    await tp.app.inject({ method: 'POST', url: `/v2/api-keys/${key.id}/revoke`, headers: me.auth });
    await tp.app.inject({ method: 'DELETE', url: `/v2/api-keys/${key.id}`, headers: me.auth });
    const events = await mine(me, `&target_id=${key.id}`);
    expect(events.map((e) => e.action)).toEqual(['api_key.deleted', 'api_key.revoked', 'api_key.regenerated', 'api_key.edited', 'api_key.created']);
    expect(events.at(-1)).toMatchObject({
      actor_user_id: me.id,
      target_type: 'api_key',
      details: { name: 'audited key', scopes: ['user:info'], projects: [project.exid] },
    });
    expect(events[3]!.details).toMatchObject({ name: 'renamed key', changed: ['name', 'scopes'] });
    const text = JSON.stringify(events);
    expect(text).not.toContain(key.key);
    expect(text).not.toContain(regen.key);
  });

  it('key refusals are recorded, sampled: a flood writes one event per key and reason per window', async () => {
    const me = await tp.person('flooder');
    const project = await tp.project(me, 'Flood');
    const key = await tp.key(me, { projects: [project.exid], scopes: ['user:info'] });
    for (let i = 0; i < 25; i++) {
      const res = await tp.app.inject({ method: 'GET', url: '/v2/api-keys', headers: key.headers });
      expect(res.statusCode).toBe(403);
    }
    const scope = await tp.app.inject({ method: 'GET', url: `/v2/projects/${project.exid}`, headers: key.headers });
    expect(scope.json().code).toBe('INSUFFICIENT_SCOPE');
    const events = await mine(me, '&action=api_key.refused');
    expect(events.map((e) => e.details.reason).sort()).toEqual(['ENDPOINT_CLOSED_TO_KEYS', 'INSUFFICIENT_SCOPE']);
    expect(events.find((e) => e.details.reason === 'ENDPOINT_CLOSED_TO_KEYS')).toMatchObject({
      outcome: 'refused',
      actor_key_id: key.id,
      subject_user_id: me.id,
      details: { method: 'GET', route: '/v2/api-keys' },
    });

    const sampler = new RefusalSampler(1000);
    expect(sampler.take('k|X', 0)).toEqual({ write: true, suppressed: 0 });
    for (let t = 1; t < 10; t++) expect(sampler.take('k|X', t).write).toBe(false);
    expect(sampler.take('k|Y', 5).write).toBe(true);
    expect(sampler.take('k|X', 1500)).toEqual({ write: true, suppressed: 9 });
  });

  it('members and roles: added, role changed, removed; each person sees what concerns them', async () => {
    const owner = await tp.person('owner');
    const member = await tp.person('member');
    const project = await tp.project(owner, 'Team');
    await tp.addMember(owner, project.exid, member, 'viewer');
    await tp.app.inject({ method: 'PATCH', url: `/v2/projects/${project.exid}/members/${member.id}`, headers: owner.auth, payload: { role: 'editor' } });
    await tp.app.inject({ method: 'DELETE', url: `/v2/projects/${project.exid}/members/${member.id}`, headers: owner.auth });
    const theirs = await mine(member, '&action=member.*');
    expect(theirs.map((e) => e.action)).toEqual(['member.removed', 'member.role_changed', 'member.added']);
    expect(theirs[1]).toMatchObject({
      actor_user_id: owner.id,
      subject_user_id: member.id,
      target_id: project.exid,
      details: { from: 'viewer', to: 'editor' },
    });
    // Where the owner acted from is not the member's to see; the admin log keeps it.
    expect(theirs[1]).toMatchObject({ ip: null, user_agent: null });
    expect((await all(`subject_id=${member.id}&action=member.role_changed`))[0]!.ip).toBe('127.0.0.1');
    expect((await mine(owner, '&action=member.*')).length).toBe(3);
    // Someone else sees none of it.
    const stranger = await tp.person('stranger');
    expect(await mine(stranger, '&action=member.*')).toEqual([]);
  });

  it('admins read everything, filter by person, action family, outcome and time, and paginate', async () => {
    const me = await tp.person('filtered');
    await tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: me.email, password: 'wrong-password-2' } });
    const byUser = await all(`user_id=${me.id}`);
    expect(byUser.map((e) => e.action)).toEqual(['auth.login', 'auth.login']);
    expect(await all(`user_id=${me.id}&outcome=failure`)).toHaveLength(1);
    expect(await all(`actor_id=${me.id}&from=2000-01-01T00:00:00Z&to=2001-01-01T00:00:00Z`)).toEqual([]);
    const page = (await tp.app.inject({ method: 'GET', url: `/v2/admin/audit?user_id=${me.id}&page=2&page_size=1`, headers: admin.auth })).json();
    expect(page.meta).toMatchObject({ current_page: 2, total_count: 2, total_pages: 2 });
    expect(page.data).toHaveLength(1);
    const plain = await tp.person('plain');
    const refused = await tp.app.inject({ method: 'GET', url: '/v2/admin/audit', headers: plain.auth });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('PERMISSION_DENIED');
  });

  it('details are scrubbed of anything secret by name or by shape', () => {
    const jwt = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    const out = scrub({
      password: 'p',
      client_secret: 's',
      token: 't',
      key: 'k',
      nested: { authorization: 'Bearer x', note: jwt, value: 'olk_abc', fine: 'ok' },
      list: [jwt, 'ok'],
    });
    expect(out).toEqual({
      password: '[redacted]',
      client_secret: '[redacted]',
      token: '[redacted]',
      key: '[redacted]',
      nested: { authorization: '[redacted]', note: '[redacted]', value: '[redacted]', fine: 'ok' },
      list: ['[redacted]', 'ok'],
    });
  });
});
