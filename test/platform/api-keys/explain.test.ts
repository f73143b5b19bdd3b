// The access explainer (POST /v2/api-keys/{id}/explain): for each refusal of docs/access-model.md and for an
// allowed call, its answer agrees with what the same request with the key really gets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { checkEndpointAccess } from '../../helpers/access.js';

let tp: TestPlatform;
let owner: Person;
let p1: { exid: string };
let p2: { exid: string };
let cam1: { exid: string };
let cam2: { exid: string };
beforeAll(async () => {
  tp = await buildTestPlatform();
  owner = await tp.person('owner');
  p1 = await tp.project(owner, 'Listed');
  p2 = await tp.project(owner, 'Unlisted');
  cam1 = await tp.camera(owner, p1.exid);
  cam2 = await tp.camera(owner, p2.exid);
});
afterAll(() => tp.close());

async function explainAndCompare(person: Person, keyBody: { projects: string[]; scopes: string[] }, method: 'GET' | 'POST' | 'DELETE', path: string) {
  const key = await tp.key(person, keyBody);
  const res = await tp.app.inject({ method: 'POST', url: `/v2/api-keys/${key.id}/explain`, headers: person.auth, payload: { method, path } });
  expect(res.statusCode, res.body).toBe(200);
  const explanation = res.json();
  const real = await tp.app.inject({ method, url: path, headers: key.headers });
  // The real answer: the same refusal code, or (when allowed) not an access refusal.
  if (explanation.allowed) expect(real.statusCode, real.body).toBeLessThan(400);
  else {
    expect(real.statusCode).toBe(explanation.status);
    expect(real.json().code).toBe(explanation.code);
  }
  return explanation;
}

describe('POST /v2/api-keys/{id}/explain', () => {
  it('is closed to keys and reaches only your own keys', async () => {
    await checkEndpointAccess(tp, {
      method: 'POST',
      url: (w) => `/v2/api-keys/${w.extra.keyId}/explain`,
      payload: () => ({ method: 'GET', path: '/v2/projects' }),
      scopes: [],
      okStatus: 200,
      setup: async (_tp, w) => ({ keyId: (await tp.key(w.owner, { projects: [w.projectExid], scopes: ['projects:read'] })).id }),
    });
    const other = await tp.person('other');
    const k = await tp.key(owner, { projects: [p1.exid], scopes: ['cameras:read'] });
    expect(
      (await tp.app.inject({ method: 'POST', url: `/v2/api-keys/${k.id}/explain`, headers: other.auth, payload: { method: 'GET', path: '/v2/cameras' } }))
        .statusCode,
    ).toBe(404);
  });

  it('allowed: names the scope held, the project on the list and the owner’s role', async () => {
    const e = await explainAndCompare(owner, { projects: [p1.exid], scopes: ['cameras:read'] }, 'GET', `/v2/cameras/${cam1.exid}`);
    expect(e).toMatchObject({ allowed: true, endpoint: { path: '/v2/cameras/{camera_exid}', scopes: ['cameras:read'] } });
    expect(e.steps.map((s: { step: string; outcome: string }) => `${s.step}:${s.outcome}`)).toEqual([
      'key:pass',
      'limits:pass',
      'endpoint:pass',
      'scopes:pass',
      'project:pass',
      'role:pass',
    ]);
  });

  it('each refusal in the order of the access checks, with the same code the real request gets', async () => {
    expect((await explainAndCompare(owner, { projects: [p1.exid], scopes: ['cameras:read'] }, 'GET', `/v2/projects/${p1.exid}/members`)).code).toBe(
      'INSUFFICIENT_SCOPE',
    );
    expect((await explainAndCompare(owner, { projects: [p1.exid], scopes: ['cameras:read'] }, 'GET', `/v2/cameras/${cam2.exid}`)).code).toBe(
      'PROJECT_NOT_ALLOWED',
    );
    expect((await explainAndCompare(owner, { projects: [p1.exid], scopes: ['cameras:read'] }, 'GET', '/v2/cameras/no-such-camera')).code).toBe(
      'PROJECT_NOT_ALLOWED',
    );
    expect((await explainAndCompare(owner, { projects: [p1.exid], scopes: ['user:info'] }, 'GET', '/v2/api-keys')).code).toBe('ENDPOINT_CLOSED_TO_KEYS');
    const viewer = await tp.person('viewer');
    await tp.addMember(owner, p1.exid, viewer, 'viewer');
    const denied = await explainAndCompare(
      viewer,
      { projects: [p1.exid], scopes: ['project:settings'] },
      'DELETE',
      `/v2/projects/${p1.exid}/members/${owner.id}`,
    );
    expect(denied.code).toBe('PERMISSION_DENIED');
    expect(denied.steps.at(-1).detail).toContain('viewer');
  });

  it('list endpoints and endpoints touching no project need no project step', async () => {
    const e = await explainAndCompare(owner, { projects: [p1.exid], scopes: ['projects:read'] }, 'GET', '/v2/cameras');
    expect(e.allowed).toBe(true);
    expect(e.steps.find((s: { step: string }) => s.step === 'project').outcome).toBe('not-needed');
  });

  it('a revoked key, an unknown path and bad input', async () => {
    const k = await tp.key(owner, { projects: [p1.exid], scopes: ['cameras:read'] });
    await tp.app.inject({ method: 'POST', url: `/v2/api-keys/${k.id}/revoke`, headers: owner.auth });
    const revoked = (
      await tp.app.inject({ method: 'POST', url: `/v2/api-keys/${k.id}/explain`, headers: owner.auth, payload: { method: 'GET', path: '/v2/cameras' } })
    ).json();
    expect(revoked).toMatchObject({ allowed: false, status: 401, code: 'UNAUTHORIZED' });
    const k2 = await tp.key(owner, { projects: [p1.exid], scopes: ['cameras:read'] });
    const unknown = (
      await tp.app.inject({ method: 'POST', url: `/v2/api-keys/${k2.id}/explain`, headers: owner.auth, payload: { method: 'GET', path: '/v2/nowhere' } })
    ).json();
    expect(unknown).toMatchObject({ allowed: false, status: 404 });
    for (const payload of [
      { method: 'GET', path: 'v2/cameras' },
      { method: 'TRACE', path: '/v2/cameras' },
      { method: 'GET' },
      { method: 'GET', path: '/v2/cameras', extra: 1 },
    ]) {
      const res = await tp.app.inject({ method: 'POST', url: `/v2/api-keys/${k2.id}/explain`, headers: owner.auth, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });
  it('explains another tenant’s camera or project exactly like a missing one', async () => {
    const stranger = await tp.person('stranger');
    const theirs = await tp.project(stranger, 'Their project');
    const theirCam = await tp.camera(stranger, theirs.exid);
    const k = await tp.key(owner, { projects: [p1.exid], scopes: ['cameras:read', 'projects:read'] });
    const explain = async (path: string) => {
      const res = await tp.app.inject({ method: 'POST', url: `/v2/api-keys/${k.id}/explain`, headers: owner.auth, payload: { method: 'GET', path } });
      expect(res.statusCode).toBe(200);
      return res.body;
    };
    const missingCam = 'x'.repeat(theirCam.exid.length);
    const missingProject = 'y'.repeat(theirs.exid.length);
    for (const [existing, missing, path] of [
      [theirCam.exid, missingCam, (e: string) => `/v2/cameras/${e}`],
      [theirs.exid, missingProject, (e: string) => `/v2/projects/${e}`],
    ] as const) {
      const a = await explain(path(existing));
      const b = await explain(path(missing));
      expect(a.replaceAll(existing, 'ID')).toBe(b.replaceAll(missing, 'ID'));
    }
    // The stranger's project exid appears nowhere in the explanation of their camera.
    expect(await explain(`/v2/cameras/${theirCam.exid}`)).not.toContain(theirs.exid);
  });
});
