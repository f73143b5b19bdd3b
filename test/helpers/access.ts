// One shared helper runs the access rules against an endpoint (style habit 8): no credential,
// malformed/misplaced/revoked keys, closed endpoints, missing scope, another project, an owner lacking
// the role, and the allowed caller. Every endpoint's tests call it.
import { expect } from 'vitest';
import type { Scope } from '../../src/platform/access/scopes.js';
import { ALL_SCOPES } from '../../src/platform/access/scopes.js';
import type { Role } from '../../src/platform/access/policy.js';
import type { Person, TestPlatform } from './platform.js';

export interface AccessWorld {
  owner: Person;
  /** A project owned by `owner`, on the test keys' list, with a simulated camera. */
  projectExid: string;
  cameraExid: string;
  /** Another project of the same owner, not on the keys' list. */
  otherProjectExid: string;
  otherCameraExid: string;
  /** Extra ids made by the endpoint's own setup. */
  extra: Record<string, string>;
}

export interface EndpointSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** The URL for the allowed call, in the key's project. */
  url: (w: AccessWorld) => string;
  /** The same endpoint aimed at the project the key does not list (omit when the endpoint touches no project). */
  otherUrl?: (w: AccessWorld) => string;
  payload?: (w: AccessWorld) => unknown;
  otherPayload?: (w: AccessWorld) => unknown;
  /** Scopes that reach it; [] = closed to keys. */
  scopes: readonly Scope[];
  /** Least role needed on the project (people and key owners alike); omit for endpoints touching no project. */
  role?: Role;
  /** Status of the allowed call. */
  okStatus: number;
  /** Creates records the URL needs (called for each fresh world). */
  setup?: (tp: TestPlatform, w: AccessWorld) => Promise<Record<string, string>>;
}

const LOWER: Record<Role, Role | null> = { viewer: null, editor: 'viewer', admin: 'editor', owner: 'admin' };

export async function makeWorld(tp: TestPlatform, spec: Pick<EndpointSpec, 'setup'> = {}): Promise<AccessWorld> {
  const owner = await tp.person('owner');
  const p1 = await tp.project(owner, 'Keyed project');
  const p2 = await tp.project(owner, 'Other project');
  const c1 = await tp.camera(owner, p1.exid, 'Keyed camera');
  const c2 = await tp.camera(owner, p2.exid, 'Other camera');
  const w: AccessWorld = { owner, projectExid: p1.exid, cameraExid: c1.exid, otherProjectExid: p2.exid, otherCameraExid: c2.exid, extra: {} };
  if (spec.setup) w.extra = await spec.setup(tp, w);
  return w;
}

const call = (tp: TestPlatform, spec: EndpointSpec, w: AccessWorld, headers: Record<string, string>, other = false) =>
  tp.app.inject({
    method: spec.method,
    url: other ? spec.otherUrl!(w) : spec.url(w),
    headers,
    ...((other ? (spec.otherPayload ?? spec.payload) : spec.payload)
      ? { payload: (other ? (spec.otherPayload ?? spec.payload) : spec.payload)!(w) as object }
      : {}),
  });

/** Runs every access rule of docs/access-model.md against one endpoint. */
export async function checkEndpointAccess(tp: TestPlatform, spec: EndpointSpec): Promise<void> {
  const w = await makeWorld(tp, spec);
  const label = `${spec.method} ${spec.url(w)}`;
  const closed = spec.scopes.length === 0;

  // No credential: 401 with a challenge.
  const none = await call(tp, spec, w, {});
  expect(none.statusCode, `${label} without credential`).toBe(401);
  expect(none.headers['www-authenticate'], label).toBeTruthy();

  const allScopes = ALL_SCOPES as Scope[];
  const good = await tp.key(w.owner, { projects: [w.projectExid], scopes: closed ? allScopes : [...spec.scopes] });

  // Malformed value, a value in the wrong header: 401 UNAUTHORIZED.
  for (const headers of <Record<string, string>[]>[
    { 'x-access-key': good.key.slice(0, -1) + (good.key.endsWith('A') ? 'B' : 'A') },
    { 'x-access-key': 'olk_garbage' },
    { authorization: `Bearer ${good.key}` },
    { 'x-api-key': good.key },
  ]) {
    const res = await call(tp, spec, w, headers);
    expect(res.statusCode, `${label} with ${Object.keys(headers)[0]}`).toBe(401);
    expect(res.json().code).toBe('UNAUTHORIZED');
    expect(res.headers['www-authenticate']).toBeTruthy();
  }

  if (closed) {
    const res = await call(tp, spec, w, good.headers);
    expect(res.statusCode, `${label} closed to keys`).toBe(403);
    expect(res.json().code).toBe('ENDPOINT_CLOSED_TO_KEYS');
  } else {
    // Missing scope: 403 INSUFFICIENT_SCOPE naming every scope that reaches the endpoint.
    const others = allScopes.filter((s) => !spec.scopes.includes(s));
    const wrong = await tp.key(w.owner, { projects: [w.projectExid], scopes: others });
    const res = await call(tp, spec, w, wrong.headers);
    expect(res.statusCode, `${label} missing scope`).toBe(403);
    expect(res.json().code).toBe('INSUFFICIENT_SCOPE');
    expect(res.headers['www-authenticate']).toBe(`ApiKey realm="overlook", error="insufficient_scope", scope="${spec.scopes.join(' ')}"`);

    // Another project: 403 PROJECT_NOT_ALLOWED.
    if (spec.otherUrl) {
      const other = await call(tp, spec, w, good.headers, true);
      expect(other.statusCode, `${label} other project`).toBe(403);
      expect(other.json().code).toBe('PROJECT_NOT_ALLOWED');
    }

    // An owner whose role is too low: 403 PERMISSION_DENIED for their key; for them, 403 too.
    const lower = spec.role ? LOWER[spec.role] : null;
    if (lower) {
      const member = await tp.person(lower);
      await tp.addMember(w.owner, w.projectExid, member, lower);
      const weak = await tp.key(member, { projects: [w.projectExid], scopes: [...spec.scopes] });
      const byKey = await call(tp, spec, w, weak.headers);
      expect(byKey.statusCode, `${label} by a ${lower}'s key`).toBe(403);
      expect(byKey.json().code).toBe('PERMISSION_DENIED');
      const byPerson = await call(tp, spec, w, member.auth);
      expect(byPerson.statusCode, `${label} by a ${lower}`).toBe(403);
      expect(byPerson.json().code).toBe('PERMISSION_DENIED');
    }

    // A person outside the project does not see it.
    if (spec.role) {
      const stranger = await tp.person('stranger');
      const res2 = await call(tp, spec, w, stranger.auth);
      expect(res2.statusCode, `${label} by a stranger`).toBe(404);
    }

    // A key with an empty project list reaches nothing.
    const empty = await tp.key(w.owner, { projects: [], scopes: [...spec.scopes] });
    const res3 = await call(tp, spec, w, empty.headers);
    expect(res3.statusCode, `${label} empty project list`).toBe(403);
    expect(res3.json().code).toBe('PROJECT_NOT_ALLOWED');
  }

  // Revoked key: 401.
  const revoked = await tp.key(w.owner, { projects: [w.projectExid], scopes: closed ? allScopes : [...spec.scopes] });
  await tp.app.inject({ method: 'POST', url: `/v2/api-keys/${revoked.id}/revoke`, headers: w.owner.auth });
  const rv = await call(tp, spec, w, revoked.headers);
  expect(rv.statusCode, `${label} revoked key`).toBe(401);

  // The allowed callers: the owner by JWT; a key with one of the scopes (unless closed).
  if (!closed) {
    const fresh = await makeWorld(tp, spec);
    const k = await tp.key(fresh.owner, { projects: [fresh.projectExid], scopes: [spec.scopes[0]!] });
    const ok = await call(tp, spec, fresh, k.headers);
    expect(ok.statusCode, `${label} allowed key: ${ok.body}`).toBe(spec.okStatus);
  }
  const fresh2 = await makeWorld(tp, spec);
  const byOwner = await call(tp, spec, fresh2, fresh2.owner.auth);
  expect(byOwner.statusCode, `${label} by owner: ${byOwner.body}`).toBe(spec.okStatus);
}
