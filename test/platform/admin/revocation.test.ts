// Revocation reaches every credential (docs/security.md, Revocation): disabling a person or taking their
// admin flag ends their sessions, the impersonations they opened, the media tokens issued through any of
// these, and their OAuth grants; a member removed from a project stops watching its live view.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Person, TestPlatform } from '../../helpers/platform.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import { obtainTokens, startOauthServers, tokenRequest, type OauthServers } from '../../helpers/oauth-servers.js';

let s: OauthServers;
let tp: TestPlatform;
let root: Person;
beforeAll(async () => {
  s = await startOauthServers();
  tp = s.tp;
  root = await tp.person('root', { admin: true });
});
afterAll(() => s.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string> = {}, payload?: object) =>
  tp.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const disable = async (p: Person) => expect((await call('POST', `/v2/admin/users/${p.id}/disable`, root.auth)).statusCode).toBe(200);
const enable = async (p: Person) => expect((await call('POST', `/v2/admin/users/${p.id}/enable`, root.auth)).statusCode).toBe(200);
const demote = async (p: Person) => expect((await call('PATCH', `/v2/admin/users/${p.id}`, root.auth, { is_admin: false })).statusCode).toBe(200);

async function impersonate(admin: Person, target: Person): Promise<string> {
  const res = await call('POST', `/v2/admin/users/${target.id}/impersonate`, admin.auth);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().token;
}

/** A media token for the camera, issued to whoever `headers` signs in as. */
async function mediaToken(camera: string, headers: Record<string, string>): Promise<string> {
  const res = await call('GET', `/v2/cameras/${camera}/hls?format=json`, headers);
  expect(res.statusCode, res.body).toBe(200);
  return new URL(res.json().playlist_url).searchParams.get('token')!;
}

/**
 * Whether the token is still accepted, asked on a segment of a stream nobody started: an accepted token
 * reaches the handler (404, not running), a refused one is stopped by the access layer (401). No ffmpeg.
 */
async function mediaAccepted(camera: string, token: string): Promise<boolean> {
  const res = await call('GET', `/v2/cameras/${camera}/hls/seg_000001.ts?token=${encodeURIComponent(token)}`);
  expect([401, 404], res.body).toContain(res.statusCode);
  return res.statusCode === 404;
}

async function siteOf(owner: Person) {
  const project = await tp.project(owner, 'Revocation site');
  const camera = (await tp.camera(owner, project.exid, 'Gate')).exid;
  return { project: project.exid, camera };
}

const me = (headers: Record<string, string>) => call('GET', '/v2/auth/users/me', headers);

describe('disabling a person', () => {
  it('ends the impersonations they opened and the media tokens issued through them', async () => {
    const admin = await tp.person('admin', { admin: true });
    const target = await tp.person('target');
    const { camera } = await siteOf(target);
    const imp = await impersonate(admin, target);
    const token = await mediaToken(camera, bearer(imp));
    expect((await me(bearer(imp))).statusCode).toBe(200);
    expect(await mediaAccepted(camera, token)).toBe(true);

    await disable(admin);
    expect((await me(bearer(imp))).statusCode).toBe(401);
    expect(await mediaAccepted(camera, token)).toBe(false);
    // Enabling the admin again revives nothing.
    await enable(admin);
    expect((await me(bearer(imp))).statusCode).toBe(401);
    // The person's own sign-in is untouched.
    expect((await me(target.auth)).statusCode).toBe(200);
  });

  it('ends the media tokens issued to them, through their session or their API key', async () => {
    const person = await tp.person('watcher');
    const { project, camera } = await siteOf(person);
    const key = await tp.key(person, { projects: [project], scopes: ['camera:live_view'] });
    const bySession = await mediaToken(camera, person.auth);
    const byKey = await mediaToken(camera, key.headers);
    expect(await mediaAccepted(camera, bySession)).toBe(true);
    expect(await mediaAccepted(camera, byKey)).toBe(true);

    await disable(person);
    expect(await mediaAccepted(camera, bySession)).toBe(false);
    expect(await mediaAccepted(camera, byKey)).toBe(false);
  });

  it('ends their OAuth grants: enabling the account again does not revive the tokens', async () => {
    const person = await tp.person('oauth-user');
    const t = await obtainTokens(s, person);
    const api = (token: string) => fetch(`${s.apiUrl}/v2/auth/users/me`, { headers: bearer(token) });
    expect((await api(t.access_token)).status).toBe(200);

    await disable(person);
    await enable(person);
    expect((await api(t.access_token)).status).toBe(401);
    const refresh = await tokenRequest(s.apiUrl, { grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: t.client_id, resource: s.mcpUrl });
    expect(refresh.status).toBeGreaterThanOrEqual(400);
    expect((await refresh.json()).error).toBe('invalid_grant');
  });
});

describe('taking a person’s admin flag', () => {
  it('ends their own sessions, the impersonations they opened and the media tokens issued through either', async () => {
    const admin = await tp.person('admin', { admin: true });
    const target = await tp.person('target');
    const { camera } = await siteOf(target);
    const adminSite = await siteOf(admin);
    const imp = await impersonate(admin, target);
    const impToken = await mediaToken(camera, bearer(imp));
    const ownToken = await mediaToken(adminSite.camera, admin.auth);
    expect(await mediaAccepted(camera, impToken)).toBe(true);
    expect(await mediaAccepted(adminSite.camera, ownToken)).toBe(true);

    await demote(admin);
    expect((await me(bearer(imp))).statusCode).toBe(401);
    expect((await me(admin.auth)).statusCode).toBe(401);
    expect(await mediaAccepted(camera, impToken)).toBe(false);
    expect(await mediaAccepted(adminSite.camera, ownToken)).toBe(false);
    // They sign in again as an ordinary person.
    const login = await tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: admin.email, password: admin.password } });
    expect(login.statusCode).toBe(200);
    expect(login.json().is_admin).toBe(false);
  });

  it('an impersonation ends with its admin’s flag even where the session row was not touched', async () => {
    const admin = await tp.person('admin', { admin: true });
    const target = await tp.person('target');
    const imp = await impersonate(admin, target);
    expect((await me(bearer(imp))).statusCode).toBe(200);
    // As if another process changed the flag: only the account row, then the forget every writer sends.
    await tp.t.db.kysely.updateTable('users').set({ is_admin: 0 }).where('id', '=', admin.id).execute();
    servicesOf(tp.app).caches.forget([{ kind: 'user', id: admin.id }]);
    expect((await me(bearer(imp))).statusCode).toBe(401);
  });

  it('ends their OAuth grants', async () => {
    const admin = await tp.person('admin', { admin: true });
    const t = await obtainTokens(s, admin);
    const api = () => fetch(`${s.apiUrl}/v2/auth/users/me`, { headers: bearer(t.access_token) });
    expect((await api()).status).toBe(200);
    await demote(admin);
    expect((await api()).status).toBe(401);
    const refresh = await tokenRequest(s.apiUrl, { grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: t.client_id, resource: s.mcpUrl });
    expect((await refresh.json()).error).toBe('invalid_grant');
  });
});

describe('removing a member', () => {
  it('stops their already-issued media tokens, segments included', async () => {
    const owner = await tp.person('owner');
    const { project, camera } = await siteOf(owner);
    const member = await tp.person('member');
    await tp.addMember(owner, project, member, 'viewer');
    const token = await mediaToken(camera, member.auth);
    expect(await mediaAccepted(camera, token)).toBe(true);
    expect((await call('DELETE', `/v2/projects/${project}/members/${member.id}`, owner.auth)).statusCode).toBe(204);
    expect(await mediaAccepted(camera, token)).toBe(false);
  });

  it('a media token ends with the session it was issued through (signed out)', async () => {
    const person = await tp.person('leaver');
    const { camera } = await siteOf(person);
    const token = await mediaToken(camera, person.auth);
    expect(await mediaAccepted(camera, token)).toBe(true);
    expect((await call('DELETE', '/v2/auth/logout', person.auth)).statusCode).toBe(204);
    expect(await mediaAccepted(camera, token)).toBe(false);
  });

  it('a media token issued through an API key ends with the key (revoked, deleted)', async () => {
    const person = await tp.person('scripted');
    const { project, camera } = await siteOf(person);
    for (const end of ['revoke', 'delete'] as const) {
      const key = await tp.key(person, { projects: [project], scopes: ['camera:live_view'] });
      const token = await mediaToken(camera, key.headers);
      expect(await mediaAccepted(camera, token)).toBe(true);
      const res =
        end === 'revoke' ? await call('POST', `/v2/api-keys/${key.id}/revoke`, person.auth) : await call('DELETE', `/v2/api-keys/${key.id}`, person.auth);
      expect(res.statusCode, res.body).toBeLessThan(300);
      expect(await mediaAccepted(camera, token), end).toBe(false);
    }
  });
});
