// Impersonation: an admin signs in as another person, marked in the JWT, the session list and the
// audit log; no key or password changes; ended by the admin at any time.
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

let tp: TestPlatform;
let admin: Person;
beforeAll(async () => {
  tp = await buildTestPlatform();
  admin = await tp.person('admin', { admin: true });
});
afterAll(() => tp.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) =>
  tp.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

async function impersonate(target: Person) {
  const res = await call('POST', `/v2/admin/users/${target.id}/impersonate`, admin.auth);
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json();
  return { ...body, auth: { authorization: `Bearer ${body.token}` } };
}

describe('impersonation', () => {
  it('the admin sees what the person sees; the JWT names both; the session shows in their list and in the audit log', async () => {
    const target = await tp.person('target');
    const project = await tp.project(target, 'Their project');
    const imp = await impersonate(target);
    expect(imp.user).toMatchObject({ id: target.id, email: target.email });
    expect(imp.impersonator).toEqual({ id: admin.id, email: admin.email });

    const claims = decodeJwt(imp.token);
    expect(claims.sub).toBe(target.id);
    expect(claims.act).toEqual({ sub: admin.id });

    expect((await call('GET', '/v2/auth/users/me', imp.auth)).json().id).toBe(target.id);
    const projects = (await call('GET', '/v2/projects', imp.auth)).json();
    expect(JSON.stringify(projects)).toContain(project.exid);

    // The person sees the admin in their active sessions.
    const sessions = (await call('GET', '/v2/users/active-sessions', target.auth)).json();
    const marked = sessions.find((s: { id: string }) => s.id === imp.session_id);
    expect(marked).toMatchObject({ current: false, impersonated_by: { id: admin.id, email: admin.email } });
    expect(sessions.find((s: { current: boolean }) => s.current).impersonated_by).toBeNull();

    // …and in their audit log, with what was done in that session.
    const started = (await call('GET', '/v2/users/audit?action=impersonation.started', target.auth)).json().data;
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ actor_user_id: admin.id, subject_user_id: target.id, target_id: imp.session_id });

    const listed = (await call('GET', '/v2/admin/impersonations', admin.auth)).json();
    expect(listed).toEqual(expect.arrayContaining([expect.objectContaining({ session_id: imp.session_id, user_id: target.id, impersonator_id: admin.id })]));
    expect((await call('GET', '/v2/admin/stats', admin.auth)).json().sessions.impersonated).toBeGreaterThanOrEqual(1);
  });

  it('no API key creation, edit or regeneration and no password change in an impersonated session (403 NOT_ALLOWED_WHILE_IMPERSONATING)', async () => {
    const target = await tp.person('target');
    const project = await tp.project(target, 'Keys project');
    const key = await tp.key(target, { projects: [project.exid], scopes: ['user:info'] });
    const imp = await impersonate(target);
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const refused: ['POST' | 'PATCH', string, object?][] = [
      ['POST', '/v2/api-keys', { name: 'sneaky', expires_at: expires, projects: [project.exid], scopes: ['user:info'] }],
      ['PATCH', `/v2/api-keys/${key.id}`, { name: 'renamed' }],
      ['POST', `/v2/api-keys/${key.id}/regenerate`],
      ['PATCH', `/v2/users/${target.id}`, { password: 'a-new-password-123', current_password: target.password }],
    ];
    for (const [method, url, payload] of refused) {
      const res = await call(method, url, imp.auth, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().code).toBe('NOT_ALLOWED_WHILE_IMPERSONATING');
    }
    // The person's own session still may, and their password is unchanged.
    expect((await call('PATCH', `/v2/api-keys/${key.id}`, target.auth, { name: 'renamed' })).statusCode).toBe(200);
    expect((await tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: target.email, password: target.password } })).statusCode).toBe(
      200,
    );
    // Reads and harmless profile edits work while impersonating.
    expect((await call('GET', '/v2/api-keys', imp.auth)).statusCode).toBe(200);
    expect((await call('PATCH', `/v2/users/${target.id}`, imp.auth, { firstname: 'Changed' })).statusCode).toBe(200);
    // No administration from inside an impersonated session, even of an admin's own making.
    const adm = await call('GET', '/v2/admin/stats', imp.auth);
    expect(adm.statusCode).toBe(403);
  });

  it('the admin ends it at any time; the JWT is refused from the next request; the end is audited', async () => {
    const target = await tp.person('target');
    const imp = await impersonate(target);
    expect((await call('GET', '/v2/auth/users/me', imp.auth)).statusCode).toBe(200);
    const end = await call('DELETE', `/v2/admin/impersonations/${imp.session_id}`, admin.auth);
    expect(end.statusCode).toBe(204);
    expect((await call('GET', '/v2/auth/users/me', imp.auth)).statusCode).toBe(401);
    expect((await call('DELETE', `/v2/admin/impersonations/${imp.session_id}`, admin.auth)).json().code).toBe('CONFLICT');
    // A person's own session is not an impersonation: 404.
    const own = (await call('GET', '/v2/users/active-sessions', target.auth)).json()[0].id;
    expect((await call('DELETE', `/v2/admin/impersonations/${own}`, admin.auth)).statusCode).toBe(404);
    const ended = (await call('GET', `/v2/admin/audit?subject_id=${target.id}&action=impersonation.ended`, admin.auth)).json().data;
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ actor_user_id: admin.id, target_id: imp.session_id });

    // Logging out inside the impersonation ends it too, and the audit names the admin behind it.
    const again = await impersonate(target);
    expect((await call('DELETE', '/v2/auth/logout', again.auth)).statusCode).toBe(204);
    expect((await call('GET', '/v2/auth/users/me', again.auth)).statusCode).toBe(401);
    const logout = (await call('GET', `/v2/admin/audit?subject_id=${target.id}&action=auth.logout`, admin.auth)).json().data;
    expect(logout[0]).toMatchObject({ actor_user_id: target.id, impersonator_id: admin.id, target_id: again.session_id });
  });

  it('a JWT whose act claim does not match its session is refused', async () => {
    const target = await tp.person('target');
    // A forged pairing: an ordinary session's id with an act claim, signed by the platform key.
    const { sessionId } = await servicesOf(tp.app).sessions.create(target.id, {});
    const forged = await servicesOf(tp.app).signer.sign({ sub: target.id, sid: sessionId, act: admin.id }, new Date(Date.now() + 3_600_000));
    expect((await call('GET', '/v2/auth/users/me', { authorization: `Bearer ${forged}` })).statusCode).toBe(401);
  });

  it('refused: admins, yourself, disabled people, unknown ids; keys and non-admins cannot impersonate', async () => {
    const other = await tp.person('other-admin', { admin: true });
    expect((await call('POST', `/v2/admin/users/${other.id}/impersonate`, admin.auth)).json().code).toBe('PERMISSION_DENIED');
    expect((await call('POST', `/v2/admin/users/${admin.id}/impersonate`, admin.auth)).json().code).toBe('CONFLICT');
    const off = await tp.person('off');
    await call('POST', `/v2/admin/users/${off.id}/disable`, admin.auth);
    expect((await call('POST', `/v2/admin/users/${off.id}/impersonate`, admin.auth)).json().code).toBe('CONFLICT');
    expect((await call('POST', '/v2/admin/users/nobody/impersonate', admin.auth)).statusCode).toBe(404);

    const target = await tp.person('target');
    const plain = await tp.person('plain');
    const p = await tp.project(admin, 'Admin project');
    const adminKey = await tp.key(admin, { projects: [p.exid], scopes: ['user:info', 'profile:write'] });
    const byKey = await call('POST', `/v2/admin/users/${target.id}/impersonate`, adminKey.headers);
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().code).toBe('ENDPOINT_CLOSED_TO_KEYS');
    expect((await call('POST', `/v2/admin/users/${target.id}/impersonate`, plain.auth)).json().code).toBe('PERMISSION_DENIED');
    // The key's refusal is in the audit log.
    const refused = (await call('GET', `/v2/admin/audit?action=api_key.refused&target_id=${adminKey.id}`, admin.auth)).json().data;
    expect(refused[0]).toMatchObject({
      outcome: 'refused',
      actor_key_id: adminKey.id,
      details: { reason: 'ENDPOINT_CLOSED_TO_KEYS', route: '/v2/admin/users/:id/impersonate' },
    });
  });
});
