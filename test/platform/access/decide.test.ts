// The decision function alone: every branch of the decision in docs/access-model.md, in order, without I/O.
import { describe, expect, it } from 'vitest';
import { decide, insufficientScopeHeader } from '../../../src/platform/access/decide.js';
import { fromPathProject, listOfProjects, peopleOnly, publicRoute, scoped, tokenOnly } from '../../../src/platform/access/policy.js';
import type { Principal } from '../../../src/platform/access/principal.js';
import type { Scope } from '../../../src/platform/access/scopes.js';

const key = (scopes: Scope[], projects: string[] = ['p1']): Principal => ({
  kind: 'key',
  userId: 'u1',
  keyId: 'k1',
  scopes: new Set(scopes),
  projectIds: new Set(projects),
});
const person: Principal = { kind: 'user', userId: 'u1', sessionId: 's1', isAdmin: false };
const anon: Principal = { kind: 'anonymous' };
const P1 = { found: true as const, id: 'p1', exid: 'site-aaaaa' };
const P2 = { found: true as const, id: 'p2', exid: 'site-bbbbb' };
const camRead = scoped(['cameras:read'], { project: fromPathProject });
const settings = scoped(['project:settings'], { project: fromPathProject, role: 'admin' });

describe('decide', () => {
  it('token routes: only a verified token of their kind; keys are closed out, JWTs are not enough', () => {
    const media = tokenOnly('media');
    const grant = { kind: 'media' as const, cameraExid: 'gate-abcde', subject: 'u1' };
    expect(decide({ principal: anon, policy: media, token: grant }).outcome).toBe('allow');
    expect(decide({ principal: anon, policy: media, token: null })).toMatchObject({ outcome: 'refuse', code: 'UNAUTHORIZED' });
    expect(decide({ principal: person, policy: media })).toMatchObject({ outcome: 'refuse', code: 'UNAUTHORIZED' });
    expect(decide({ principal: anon, policy: tokenOnly('ingestion'), token: grant })).toMatchObject({ outcome: 'refuse', code: 'UNAUTHORIZED' });
    expect(decide({ principal: key(['camera:live_view']), policy: media })).toMatchObject({ outcome: 'refuse', code: 'ENDPOINT_CLOSED_TO_KEYS' });
    const refusal = decide({ principal: anon, policy: media });
    expect(refusal.outcome === 'refuse' && refusal.headers?.['www-authenticate']).toBeTruthy();
  });

  it('an OAuth token (delegated) reaches scoped routes and only the people routes that declare it', () => {
    const app: Principal = { kind: 'user', userId: 'u1', sessionId: 'oauth:g1', isAdmin: false, delegated: true };
    expect(decide({ principal: app, policy: peopleOnly() })).toMatchObject({ outcome: 'refuse', code: 'NOT_ALLOWED_WITH_OAUTH_TOKEN' });
    // Account control stays closed to it even where keys with the scope get in.
    const sessions = scoped(['profile:write'], { account: 'sessions' });
    expect(decide({ principal: app, policy: sessions })).toMatchObject({ outcome: 'refuse', code: 'NOT_ALLOWED_WITH_OAUTH_TOKEN' });
    expect(decide({ principal: person, policy: sessions }).outcome).toBe('allow');
    expect(decide({ principal: key(['profile:write']), policy: sessions }).outcome).toBe('allow');
    expect(decide({ principal: app, policy: peopleOnly({ delegated: true }) }).outcome).toBe('allow');
    expect(decide({ principal: app, policy: scoped(['projects:read'], { project: listOfProjects }) }).outcome).toBe('allow');
    expect(decide({ principal: person, policy: peopleOnly() }).outcome).toBe('allow');
  });

  it('public endpoints are open to everyone', () => {
    expect(decide({ principal: anon, policy: publicRoute() }).outcome).toBe('allow');
    expect(decide({ principal: key([]), policy: publicRoute() }).outcome).toBe('allow');
  });

  it('no credential: 401 with a challenge, unless the endpoint lets anonymous callers in', () => {
    const d = decide({ principal: anon, policy: camRead });
    expect(d).toMatchObject({ outcome: 'refuse', code: 'UNAUTHORIZED' });
    expect(d.outcome === 'refuse' && d.headers?.['www-authenticate']).toContain('Bearer');
    expect(decide({ principal: anon, policy: peopleOnly({ anonymous: true }) }).outcome).toBe('allow');
  });

  it('step 1: closed endpoints and endpoints declaring no scopes refuse keys', () => {
    expect(decide({ principal: key(['user:info']), policy: peopleOnly() })).toMatchObject({ code: 'ENDPOINT_CLOSED_TO_KEYS' });
    expect(decide({ principal: key(['user:info']), policy: peopleOnly({ anonymous: true }) })).toMatchObject({ code: 'ENDPOINT_CLOSED_TO_KEYS' });
    expect(decide({ principal: key(['user:info']), policy: scoped([]) })).toMatchObject({ code: 'ENDPOINT_CLOSED_TO_KEYS' });
  });

  it('step 2: a key without any reaching scope gets INSUFFICIENT_SCOPE naming every reaching scope', () => {
    const policy = scoped(['projects:read', 'cameras:read'], { project: listOfProjects });
    const d = decide({ principal: key(['camera:ptz']), policy });
    expect(d).toMatchObject({ outcome: 'refuse', code: 'INSUFFICIENT_SCOPE' });
    expect(d.outcome === 'refuse' && d.headers?.['www-authenticate']).toBe(
      'ApiKey realm="overlook", error="insufficient_scope", scope="projects:read cameras:read"',
    );
    expect(insufficientScopeHeader(['user:info'])).toBe('ApiKey realm="overlook", error="insufficient_scope", scope="user:info"');
    expect(decide({ principal: key(['cameras:read']), policy }).outcome).toBe('allow');
  });

  it('step 3: an empty project list reaches nothing, even endpoints touching no project', () => {
    expect(decide({ principal: key(['user:info'], []), policy: scoped(['user:info']) })).toMatchObject({ code: 'PROJECT_NOT_ALLOWED' });
    expect(decide({ principal: key(['user:info']), policy: scoped(['user:info']) }).outcome).toBe('allow');
  });

  it('step 3: the touched project must be on the key’s list and exist', () => {
    expect(decide({ principal: key(['cameras:read']), policy: camRead })).toEqual({ outcome: 'need-project' });
    expect(decide({ principal: key(['cameras:read']), policy: camRead, project: P2, role: 'owner' })).toMatchObject({ code: 'PROJECT_NOT_ALLOWED' });
    expect(decide({ principal: key(['cameras:read']), policy: camRead, project: { found: false }, role: null })).toMatchObject({ code: 'PROJECT_NOT_ALLOWED' });
    expect(decide({ principal: key(['cameras:read']), policy: camRead, project: P1, role: 'viewer' }).outcome).toBe('allow');
  });

  it('step 4: a key never exceeds its owner (scope held, owner role too low)', () => {
    expect(decide({ principal: key(['project:settings']), policy: settings, project: P1, role: 'editor' })).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(decide({ principal: key(['project:settings']), policy: settings, project: P1, role: null })).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(decide({ principal: key(['project:settings']), policy: settings, project: P1, role: 'admin' }).outcome).toBe('allow');
    expect(decide({ principal: key(['project:settings']), policy: settings, project: P1, role: 'owner' }).outcome).toBe('allow');
  });

  it('people: an invisible project is 404, a visible one beyond their role is 403', () => {
    expect(decide({ principal: person, policy: settings, project: { found: false }, role: null })).toMatchObject({ code: 'NOT_FOUND' });
    expect(decide({ principal: person, policy: settings, project: P1, role: null })).toMatchObject({ code: 'NOT_FOUND' });
    expect(decide({ principal: person, policy: settings, project: P1, role: 'viewer' })).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(decide({ principal: person, policy: settings, project: P1, role: 'admin' }).outcome).toBe('allow');
    expect(decide({ principal: person, policy: peopleOnly() }).outcome).toBe('allow');
  });

  it('checks run in order: closed before scope before project before role', () => {
    // A key with no scopes and no projects on a closed endpoint learns only that it is closed.
    expect(decide({ principal: key([], []), policy: peopleOnly() })).toMatchObject({ code: 'ENDPOINT_CLOSED_TO_KEYS' });
    // Missing scope is reported before an empty project list.
    expect(decide({ principal: key([], []), policy: camRead })).toMatchObject({ code: 'INSUFFICIENT_SCOPE' });
    // A project outside the list is reported before the owner's role.
    expect(decide({ principal: key(['project:settings']), policy: settings, project: P2, role: 'viewer' })).toMatchObject({ code: 'PROJECT_NOT_ALLOWED' });
  });

  it('admin-only routes: platform admins signed in as themselves; not other people, impersonated sessions or keys', () => {
    const adminRoute = peopleOnly({ admin: true });
    const platformAdmin: Principal = { kind: 'user', userId: 'a1', sessionId: 's2', isAdmin: true };
    expect(decide({ principal: platformAdmin, policy: adminRoute }).outcome).toBe('allow');
    expect(decide({ principal: person, policy: adminRoute })).toMatchObject({ outcome: 'refuse', code: 'PERMISSION_DENIED' });
    expect(decide({ principal: { ...platformAdmin, impersonatorId: 'a0' }, policy: adminRoute })).toMatchObject({
      outcome: 'refuse',
      code: 'NOT_ALLOWED_WHILE_IMPERSONATING',
    });
    expect(decide({ principal: key(['user:info']), policy: adminRoute })).toMatchObject({ outcome: 'refuse', code: 'ENDPOINT_CLOSED_TO_KEYS' });
    expect(decide({ principal: anon, policy: adminRoute })).toMatchObject({ outcome: 'refuse', code: 'UNAUTHORIZED' });
  });

  it('owner-only routes (keys, password) refuse impersonated sessions with their own code', () => {
    const ownerOnly = peopleOnly({ notImpersonated: true });
    expect(decide({ principal: person, policy: ownerOnly }).outcome).toBe('allow');
    expect(decide({ principal: { ...person, impersonatorId: 'a1' } as Principal, policy: ownerOnly })).toMatchObject({
      outcome: 'refuse',
      code: 'NOT_ALLOWED_WHILE_IMPERSONATING',
    });
    expect(decide({ principal: { ...person, impersonatorId: 'a1' } as Principal, policy: peopleOnly() }).outcome).toBe('allow');
    expect(decide({ principal: key(['user:info']), policy: ownerOnly })).toMatchObject({ outcome: 'refuse', code: 'ENDPOINT_CLOSED_TO_KEYS' });
  });
});
