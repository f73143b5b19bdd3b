// API keys (docs/access-model.md): lifecycle, hash-only storage, and the rules a key lives by.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { API_KEY_PREFIX, hashApiKey, isWellFormedApiKey } from '../../../src/lib/auth/api-key-format.js';
import { checkEndpointAccess } from '../../helpers/access.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

let tp: TestPlatform;
beforeAll(async () => {
  tp = await buildTestPlatform();
});
afterAll(() => tp.close());

const inject = (method: string, url: string, headers: Record<string, string>, payload?: object) =>
  tp.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });
const future = (ms = 86_400_000) => new Date(Date.now() + ms).toISOString();

async function ownerWithProject(): Promise<{ owner: Person; exid: string; camera: string }> {
  const owner = await tp.person('keyowner');
  const p = await tp.project(owner, 'Keys site');
  const c = await tp.camera(owner, p.exid, 'Keys camera');
  return { owner, exid: p.exid, camera: c.exid };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('creating a key', () => {
  it('201: the record plus the value, shown once; later reads never show it', async () => {
    const { owner, exid } = await ownerWithProject();
    const res = await inject('POST', '/v2/api-keys', owner.auth, { name: 'cron', expires_at: future(), projects: [exid], scopes: ['cameras:read'] });
    expect(res.statusCode).toBe(201);
    const k = res.json();
    expect(k).toMatchObject({ name: 'cron', projects: [exid], scopes: ['cameras:read'], status: 'valid', last_used_at: null });
    expect(typeof k.id).toBe('string');
    expect(typeof k.created_at).toBe('string');
    expect(k.key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(isWellFormedApiKey(k.key)).toBe(true);
    expect(k.hint).toBe(k.key.slice(0, k.hint.length));

    const list = await inject('GET', '/v2/api-keys', owner.auth);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toHaveLength(1);
    expect(list.body).not.toContain(k.key);
    const one = await inject('GET', `/v2/api-keys/${k.id}`, owner.auth);
    expect(one.json()).toMatchObject({ id: k.id, status: 'valid' });
    expect(one.body).not.toContain(k.key);
  });

  it('400 VALIDATION_ERROR for unknown scopes, foreign projects, a past expiry, a blank name, unknown fields', async () => {
    const { owner, exid } = await ownerWithProject();
    const stranger = await tp.person('stranger');
    const theirs = await tp.project(stranger, 'Not yours');
    const base = { name: 'k', expires_at: future(), projects: [exid], scopes: ['cameras:read'] };
    const cases: [object, string][] = [
      [{ ...base, scopes: ['cameras:write'] }, 'scopes'],
      [{ ...base, projects: [theirs.exid] }, 'projects'],
      [{ ...base, projects: ['no-such-project'] }, 'projects'],
      [{ ...base, expires_at: new Date(Date.now() - 1000).toISOString() }, 'expires_at'],
      [{ ...base, expires_at: 'tomorrow' }, 'expires_at'],
      [{ ...base, name: '   ' }, 'name'],
      [{ ...base, name: undefined }, 'name'],
      [{ ...base, admin: true }, 'admin'],
      [{ ...base, scopes: 'cameras:read' }, 'scopes'],
    ];
    for (const [payload, field] of cases) {
      const res = await inject('POST', '/v2/api-keys', owner.auth, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(res.json().message).toContain(field);
    }
    expect((await inject('GET', '/v2/api-keys', owner.auth)).json()).toHaveLength(0);
  });

  it('stores only a SHA-256 hash: no file in the data dir and no table row holds the value', async () => {
    const { owner, exid } = await ownerWithProject();
    const k = (await inject('POST', '/v2/api-keys', owner.auth, { name: 'hash', expires_at: future(), projects: [exid], scopes: ['user:info'] })).json();
    await inject('GET', '/v2/users/permissions', { 'x-access-key': k.key });
    await servicesOf(tp.app).keys.flush();
    const row = await tp.t.db.kysely.selectFrom('api_keys').selectAll().where('id', '=', k.id).executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(hashApiKey(k.key));
    expect(JSON.stringify(row)).not.toContain(k.key);
    for (const file of filesUnder(tp.t.dataDir)) {
      expect(readFileSync(file).includes(Buffer.from(k.key)), file).toBe(false);
    }
  });

  it('the scope catalogue: 14 scopes that open endpoints and 9 that open none, grouped', async () => {
    const owner = await tp.person('catalogue');
    const res = await inject('GET', '/v2/api-keys/scopes', owner.auth);
    expect(res.statusCode).toBe(200);
    const scopes = res.json() as { scope: string; group: string; description: string; opens_endpoints: boolean }[];
    expect(scopes).toHaveLength(23);
    expect(scopes.filter((s) => s.opens_endpoints)).toHaveLength(14);
    expect(scopes.filter((s) => !s.opens_endpoints).map((s) => s.scope)).toEqual([
      'project:gate_report',
      'project:timeline',
      'project:smart_search',
      'project:ppe_monitoring',
      'project:360',
      'project:drone',
      'project:planner',
      'project:automations',
      'project:widgets',
    ]);
    expect(new Set(scopes.map((s) => s.group))).toEqual(new Set(['User', 'Projects and cameras', 'Camera features', 'Project features']));
  });
});

describe('using a key', () => {
  it('reaches what its scopes and projects allow; last_used_at is set within 5 s', async () => {
    const { owner, exid, camera } = await ownerWithProject();
    const k = await tp.key(owner, { projects: [exid], scopes: ['cameras:read'] });
    const res = await inject('GET', `/v2/cameras/${camera}`, k.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().exid).toBe(camera);
    let used: string | null = null;
    for (let i = 0; i < 50 && !used; i++) {
      await new Promise((r) => setTimeout(r, 100));
      used = (await inject('GET', `/v2/api-keys/${k.id}`, owner.auth)).json().last_used_at;
    }
    expect(used).not.toBeNull();
  });

  it('a key cannot manage keys, log in or out, or create cameras', async () => {
    const { owner, exid } = await ownerWithProject();
    const k = await tp.key(owner, { projects: [exid], scopes: ['user:info', 'profile:write', 'projects:read', 'cameras:read', 'project:settings'] });
    const attempts: [string, string, object?][] = [
      ['GET', '/v2/api-keys'],
      ['POST', '/v2/api-keys', { name: 'x', expires_at: future(), projects: [exid], scopes: ['user:info'] }],
      ['PATCH', `/v2/api-keys/${k.id}`, { name: 'x' }],
      ['POST', `/v2/api-keys/${k.id}/regenerate`],
      ['POST', '/v2/auth/login', { username: owner.email, password: owner.password }],
      ['DELETE', '/v2/auth/logout'],
      ['GET', '/v2/auth/users/me'],
      ['POST', '/v2/cameras', { name: 'c', project_exid: exid, simulated: true }],
    ];
    for (const [method, url, payload] of attempts) {
      const res = await inject(method, url, k.headers, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().code).toBe('ENDPOINT_CLOSED_TO_KEYS');
    }
  });

  it('is refused in the wrong header, and when two credentials are sent', async () => {
    const { owner, exid } = await ownerWithProject();
    const k = await tp.key(owner, { projects: [exid], scopes: ['projects:read'] });
    for (const headers of [
      { authorization: `Bearer ${k.key}` },
      { 'x-api-key': k.key },
      { 'x-access-key': k.key, authorization: owner.auth.authorization },
      { 'x-access-key': `${k.key}x` },
      { 'x-access-key': '' },
    ] as Record<string, string>[]) {
      const res = await inject('GET', '/v2/projects', headers);
      expect(res.statusCode, JSON.stringify(Object.keys(headers))).toBe(401);
      expect(res.json().code).toBe('UNAUTHORIZED');
      expect(res.headers['www-authenticate']).toBeTruthy();
    }
  });

  it('list endpoints return only the key’s projects, intersected with the owner’s memberships', async () => {
    const { owner, exid } = await ownerWithProject();
    const second = await tp.project(owner, 'Second site');
    const k = await tp.key(owner, { projects: [exid], scopes: ['projects:read'] });
    const res = await inject('GET', '/v2/projects', k.headers);
    expect(res.statusCode).toBe(200);
    const exids = (res.json() as { exid: string }[]).map((p) => p.exid);
    expect(exids).toEqual([exid]);
    expect(exids).not.toContain(second.exid);
  });
});

describe('changing a key takes effect on the next request', () => {
  it('regenerate: the old value gets 401 at once, the new one works', async () => {
    const { owner, exid } = await ownerWithProject();
    const k = await tp.key(owner, { projects: [exid], scopes: ['projects:read'] });
    expect((await inject('GET', '/v2/projects', k.headers)).statusCode).toBe(200);
    const res = await inject('POST', `/v2/api-keys/${k.id}/regenerate`, owner.auth);
    expect(res.statusCode).toBe(200);
    const fresh = res.json();
    expect(fresh.id).toBe(k.id);
    expect(fresh.key).not.toBe(k.key);
    expect((await inject('GET', '/v2/projects', k.headers)).statusCode).toBe(401);
    expect((await inject('GET', '/v2/projects', { 'x-access-key': fresh.key })).statusCode).toBe(200);
  });

  it('edit: removing a scope or a project refuses at once', async () => {
    const { owner, exid, camera } = await ownerWithProject();
    const k = await tp.key(owner, { projects: [exid], scopes: ['cameras:read', 'projects:read'] });
    expect((await inject('GET', `/v2/cameras/${camera}`, k.headers)).statusCode).toBe(200);
    await inject('PATCH', `/v2/api-keys/${k.id}`, owner.auth, { scopes: ['projects:read'] });
    const noScope = await inject('GET', `/v2/cameras/${camera}`, k.headers);
    expect(noScope.statusCode).toBe(403);
    expect(noScope.json().code).toBe('INSUFFICIENT_SCOPE');
    await inject('PATCH', `/v2/api-keys/${k.id}`, owner.auth, { scopes: ['cameras:read'], projects: [] });
    const noProject = await inject('GET', `/v2/cameras/${camera}`, k.headers);
    expect(noProject.statusCode).toBe(403);
    expect(noProject.json().code).toBe('PROJECT_NOT_ALLOWED');
  });

  it('revoke: 401 at once; a revoked key can be neither edited nor regenerated (409 API_KEY_REVOKED)', async () => {
    const { owner, exid } = await ownerWithProject();
    const k = await tp.key(owner, { projects: [exid], scopes: ['projects:read'] });
    expect((await inject('GET', '/v2/projects', k.headers)).statusCode).toBe(200);
    const res = await inject('POST', `/v2/api-keys/${k.id}/revoke`, owner.auth);
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('revoked');
    expect((await inject('GET', '/v2/projects', k.headers)).statusCode).toBe(401);
    for (const [method, url, payload] of [
      ['PATCH', `/v2/api-keys/${k.id}`, { name: 'back to life' }],
      ['POST', `/v2/api-keys/${k.id}/regenerate`, undefined],
    ] as const) {
      const r = await inject(method, url, owner.auth, payload);
      expect(r.statusCode).toBe(409);
      expect(r.json().code).toBe('API_KEY_REVOKED');
    }
  });

  it('expiry: status expired, 401, and it cannot be edited back to life (409 API_KEY_EXPIRED)', async () => {
    const { owner, exid } = await ownerWithProject();
    const k = await tp.key(owner, { projects: [exid], scopes: ['projects:read'], expires_at: future(60_000) });
    expect((await inject('GET', '/v2/projects', k.headers)).statusCode).toBe(200);
    // The clock, not the test, moves past the expiry (only Date is faked: timers and I/O stay real).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const res = await inject('GET', '/v2/projects', k.headers);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toContain('expired');
    expect((await inject('GET', `/v2/api-keys/${k.id}`, owner.auth)).json().status).toBe('expired');
    for (const [method, url, payload] of [
      ['PATCH', `/v2/api-keys/${k.id}`, { expires_at: future() }],
      ['POST', `/v2/api-keys/${k.id}/regenerate`, undefined],
    ] as const) {
      const r = await inject(method, url, owner.auth, payload);
      expect(r.statusCode).toBe(409);
      expect(r.json().code).toBe('API_KEY_EXPIRED');
    }
  });

  it('delete: 204, then 404, and the value gets 401', async () => {
    const { owner, exid } = await ownerWithProject();
    const k = await tp.key(owner, { projects: [exid], scopes: ['projects:read'] });
    expect((await inject('DELETE', `/v2/api-keys/${k.id}`, owner.auth)).statusCode).toBe(204);
    expect((await inject('GET', `/v2/api-keys/${k.id}`, owner.auth)).statusCode).toBe(404);
    expect((await inject('GET', '/v2/projects', k.headers)).statusCode).toBe(401);
  });

  it('another person’s key is 404 to you', async () => {
    const { owner, exid } = await ownerWithProject();
    const other = await tp.person('other');
    const k = await tp.key(owner, { projects: [exid], scopes: ['projects:read'] });
    for (const [method, url] of [
      ['GET', `/v2/api-keys/${k.id}`],
      ['PATCH', `/v2/api-keys/${k.id}`],
      ['POST', `/v2/api-keys/${k.id}/revoke`],
      ['POST', `/v2/api-keys/${k.id}/regenerate`],
      ['DELETE', `/v2/api-keys/${k.id}`],
    ] as const) {
      const r = await inject(method, url, other.auth, method === 'PATCH' ? { name: 'mine now' } : undefined);
      expect(r.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await inject('GET', '/v2/projects', k.headers)).statusCode).toBe(200);
  });
});

describe('a key never exceeds its owner', () => {
  it('an editor’s key holding project:settings is refused settings (PERMISSION_DENIED)', async () => {
    const { owner, exid } = await ownerWithProject();
    const editor = await tp.person('editor');
    await tp.addMember(owner, exid, editor, 'editor');
    const k = await tp.key(editor, { projects: [exid], scopes: ['project:settings'] });
    const newcomer = await tp.person('newcomer');
    const res = await inject('POST', `/v2/projects/${exid}/members`, k.headers, { email: newcomer.email, role: 'viewer' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('PERMISSION_DENIED');
    // Reading members is a viewer's right, so the same key may list them.
    expect((await inject('GET', `/v2/projects/${exid}/members`, k.headers)).statusCode).toBe(200);
  });

  it('a member removed from a project: their key is refused on the next request', async () => {
    const { owner, exid, camera } = await ownerWithProject();
    const viewer = await tp.person('viewer');
    await tp.addMember(owner, exid, viewer, 'viewer');
    const k = await tp.key(viewer, { projects: [exid], scopes: ['cameras:read'] });
    expect((await inject('GET', `/v2/cameras/${camera}`, k.headers)).statusCode).toBe(200);
    expect((await inject('DELETE', `/v2/projects/${exid}/members/${viewer.id}`, owner.auth)).statusCode).toBeLessThan(300);
    const res = await inject('GET', `/v2/cameras/${camera}`, k.headers);
    expect(res.statusCode).toBe(403);
    // Removal also takes the project off their keys, so being added back later does not revive them.
    expect(res.json().code).toBe('PROJECT_NOT_ALLOWED');
    expect((await inject('GET', `/v2/api-keys/${k.id}`, viewer.auth)).json().projects).toEqual([]);
  });

  it('an owner demoted below a route’s role: their key is refused with PERMISSION_DENIED at once', async () => {
    const { owner, exid } = await ownerWithProject();
    const admin = await tp.person('admin');
    await tp.addMember(owner, exid, admin, 'admin');
    const k = await tp.key(admin, { projects: [exid], scopes: ['project:settings'] });
    const newcomer = await tp.person('newcomer');
    expect((await inject('POST', `/v2/projects/${exid}/members`, k.headers, { email: newcomer.email, role: 'viewer' })).statusCode).toBe(201);
    expect((await inject('PATCH', `/v2/projects/${exid}/members/${admin.id}`, owner.auth, { role: 'editor' })).statusCode).toBe(200);
    const res = await inject('DELETE', `/v2/projects/${exid}/members/${newcomer.id}`, k.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('PERMISSION_DENIED');
  });
});

describe('access rules of the key endpoints themselves (closed to keys)', () => {
  for (const [method, path] of [
    ['GET', '/v2/api-keys'],
    ['GET', '/v2/api-keys/scopes'],
  ] as const) {
    it(`${method} ${path}`, () => checkEndpointAccess(tp, { method, url: () => path, scopes: [], okStatus: 200 }));
  }
});
