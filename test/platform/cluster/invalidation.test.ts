// Two nodes on one PostgreSQL database (docs/deploy.md, Cache invalidation across nodes): a change made
// on node A is honoured by node B within 1 s of A's response, although B had cached the old answer; and
// after B's listening session is lost, B forgets everything once it listens again.
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheChannel } from '../../../src/lib/cache/index.js';
import { revokeKeyRow } from '../../../src/platform/api-keys/api-keys-repository.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import { RetentionJob } from '../../../src/platform/recordings/retention.js';
import { buildPeerNode, type TestNode } from '../../helpers/cluster.js';
import { testDialect } from '../../helpers/db.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Asks `node` every 50 ms until its answer passes `ok`; fails if that takes longer than `withinMs` from `since`. */
async function until(
  node: FastifyInstance,
  req: InjectOptions,
  ok: (res: LightMyRequestResponse) => boolean,
  expected: string,
  since: number,
  withinMs = 1000,
) {
  for (;;) {
    const res = await node.inject(req);
    if (ok(res)) return;
    if (Date.now() - since > withinMs) {
      throw new Error(`${req.method} ${req.url}: expected ${expected} within ${withinMs} ms of the change, still ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    await sleep(50);
  }
}

/** Until `node` answers `status`. */
const answers = (node: FastifyInstance, req: InjectOptions, status: number, since: number, withinMs = 1000) =>
  until(node, req, (res) => res.statusCode === status, String(status), since, withinMs);

/** Until `node` answers 200 with a JSON body that passes `check`. */
const shows = (node: FastifyInstance, req: InjectOptions, check: (body: any) => boolean, since: number) =>
  until(node, req, (res) => res.statusCode === 200 && check(res.json()), '200 with the change', since);

describe.skipIf(testDialect() !== 'postgres')('a change on one node is honoured by another within 1 s (PostgreSQL only: with SQLite there is one node)', () => {
  let tp: TestPlatform;
  let a: FastifyInstance;
  let peer: TestNode;
  let b: FastifyInstance;
  let owner: Person;
  let exid: string;
  let camera: string;

  beforeAll(async () => {
    tp = await buildTestPlatform();
    a = tp.app;
    peer = await buildPeerNode(tp);
    b = peer.app;
    owner = await tp.person('owner');
    exid = (await tp.project(owner, 'Cluster site')).exid;
    camera = (await tp.camera(owner, exid, 'Cluster camera')).exid;
  });
  afterAll(async () => {
    await peer?.close();
    await tp?.close();
  });

  /** Makes a change on A and returns when its response came. */
  async function onA(req: InjectOptions, status: number): Promise<number> {
    const res = await a.inject(req);
    expect(res.statusCode, `${req.method} ${req.url}: ${res.body.slice(0, 200)}`).toBe(status);
    return Date.now();
  }

  const get = (url: string, headers: Record<string, string>): InjectOptions => ({ method: 'GET', url, headers });

  it('a key revoked on A is refused by B', async () => {
    const k = await tp.key(owner, { projects: [exid], scopes: ['projects:read'] });
    await answers(b, get('/v2/projects', k.headers), 200, Date.now());
    const at = await onA({ method: 'POST', url: `/v2/api-keys/${k.id}/revoke`, headers: owner.auth }, 200);
    await answers(b, get('/v2/projects', k.headers), 401, at);
  });

  it('a key regenerated on A: B refuses the old value and takes the new one', async () => {
    const k = await tp.key(owner, { projects: [exid], scopes: ['projects:read'] });
    await answers(b, get('/v2/projects', k.headers), 200, Date.now());
    const res = await a.inject({ method: 'POST', url: `/v2/api-keys/${k.id}/regenerate`, headers: owner.auth });
    const at = Date.now();
    expect(res.statusCode).toBe(200);
    await answers(b, get('/v2/projects', k.headers), 401, at);
    await answers(b, get('/v2/projects', { 'x-access-key': res.json().key }), 200, at);
  });

  it('a scope removed from a key on A: B answers 403', async () => {
    const k = await tp.key(owner, { projects: [exid], scopes: ['cameras:read', 'projects:read'] });
    await answers(b, get(`/v2/cameras/${camera}`, k.headers), 200, Date.now());
    const at = await onA({ method: 'PATCH', url: `/v2/api-keys/${k.id}`, headers: owner.auth, payload: { scopes: ['projects:read'] } }, 200);
    await answers(b, get(`/v2/cameras/${camera}`, k.headers), 403, at);
  });

  it('a key deleted on A is refused by B', async () => {
    const k = await tp.key(owner, { projects: [exid], scopes: ['projects:read'] });
    await answers(b, get('/v2/projects', k.headers), 200, Date.now());
    const at = await onA({ method: 'DELETE', url: `/v2/api-keys/${k.id}`, headers: owner.auth }, 204);
    await answers(b, get('/v2/projects', k.headers), 401, at);
  });

  it('a session ended on A (sign-out) is refused by B', async () => {
    const p = await tp.person('leaver');
    await answers(b, get('/v2/auth/users/me', p.auth), 200, Date.now());
    const at = await onA({ method: 'DELETE', url: '/v2/auth/logout', headers: p.auth }, 204);
    await answers(b, get('/v2/auth/users/me', p.auth), 401, at);
  });

  it('a member removed on A no longer sees the project on B', async () => {
    const m = await tp.person('member');
    await tp.addMember(owner, exid, m, 'viewer');
    await answers(b, get(`/v2/projects/${exid}`, m.auth), 200, Date.now());
    const at = await onA({ method: 'DELETE', url: `/v2/projects/${exid}/members/${m.id}`, headers: owner.auth }, 204);
    await answers(b, get(`/v2/projects/${exid}`, m.auth), 404, at);
  });

  it('a role lowered on A: B refuses what the old role allowed', async () => {
    const m = await tp.person('manager');
    await tp.addMember(owner, exid, m, 'admin');
    const history = get(`/v2/projects/${exid}/settings/history`, m.auth);
    await answers(b, history, 200, Date.now());
    const at = await onA({ method: 'PATCH', url: `/v2/projects/${exid}/members/${m.id}`, headers: owner.auth, payload: { role: 'viewer' } }, 200);
    await answers(b, history, 403, at);
  });

  it('a member added on A sees the project on B (no cached 404)', async () => {
    const m = await tp.person('newcomer');
    await answers(b, get(`/v2/projects/${exid}`, m.auth), 404, Date.now());
    const at = await onA({ method: 'POST', url: `/v2/projects/${exid}/members`, headers: owner.auth, payload: { email: m.email, role: 'viewer' } }, 201);
    await answers(b, get(`/v2/projects/${exid}`, m.auth), 200, at);
  });

  it('a project created on A is visible on B', async () => {
    const p = await tp.person('founder');
    await answers(b, get('/v2/projects', p.auth), 200, Date.now());
    const res = await a.inject({ method: 'POST', url: '/v2/projects', headers: p.auth, payload: { name: 'New site' } });
    const at = Date.now();
    expect(res.statusCode).toBe(201);
    await answers(b, get(`/v2/projects/${res.json().exid}`, p.auth), 200, at);
  });

  it('an account disabled on A: B refuses its session and its keys', async () => {
    const admin = await tp.person('admin', { admin: true });
    const victim = await tp.person('victim');
    const project = await tp.project(victim, 'Victim site');
    const k = await tp.key(victim, { projects: [project.exid], scopes: ['user:info'] });
    await answers(b, get('/v2/auth/users/me', victim.auth), 200, Date.now());
    await answers(b, get('/v2/users/roles', k.headers), 200, Date.now());
    const at = await onA({ method: 'POST', url: `/v2/admin/users/${victim.id}/disable`, headers: admin.auth }, 200);
    await answers(b, get('/v2/auth/users/me', victim.auth), 401, at);
    await answers(b, get('/v2/users/roles', k.headers), 401, at);
  });

  it('an admin flag removed on A: B refuses the admin endpoints', async () => {
    const admin = await tp.person('admin', { admin: true });
    const other = await tp.person('other-admin', { admin: true });
    await answers(b, get('/v2/admin/users', other.auth), 200, Date.now());
    const at = await onA({ method: 'PATCH', url: `/v2/admin/users/${other.id}`, headers: admin.auth, payload: { is_admin: false } }, 200);
    // Taking the flag ends the sessions signed in with it (docs/security.md, Revocation).
    await answers(b, get('/v2/admin/users', other.auth), 401, at);
  });

  it('a camera deleted on A is gone on B', async () => {
    const c = await tp.camera(owner, exid, 'Doomed camera');
    await answers(b, get(`/v2/cameras/${c.exid}`, owner.auth), 200, Date.now());
    const at = await onA({ method: 'DELETE', url: `/v2/cameras/${c.exid}`, headers: owner.auth }, 204);
    await answers(b, get(`/v2/cameras/${c.exid}`, owner.auth), 404, at);
  });

  it('a camera renamed on A shows its new name on B', async () => {
    const c = await tp.camera(owner, exid, 'Old name');
    await shows(b, get(`/v2/cameras/${c.exid}`, owner.auth), (r) => r.name === 'Old name', Date.now());
    const at = await onA({ method: 'PATCH', url: `/v2/cameras/${c.exid}/settings`, headers: owner.auth, payload: { name: 'New name' } }, 200);
    await shows(b, get(`/v2/cameras/${c.exid}`, owner.auth), (r) => r.name === 'New name', at);
  });

  it('a recorded frame removed by retention on A is not served by B, which had it in memory', async () => {
    const c = await tp.camera(owner, exid, 'Recording camera');
    const shot = await a.inject({ method: 'POST', url: `/v2/cameras/${c.exid}/snapshots`, headers: owner.auth, payload: {} });
    expect(shot.statusCode, shot.body).toBe(201);
    const k = await tp.key(owner, { projects: [exid], scopes: ['camera:recordings'] });
    const frame = get(`/v2/cameras/${c.exid}/recordings/snapshots/${shot.json().created_at}`, { ...k.headers, accept: 'image/jpeg' });
    await answers(b, frame, 200, Date.now());
    const p = servicesOf(a);
    const { id } = await p.cameras.row(c.exid);
    expect(await new RetentionJob(p.db, p.storage, p.snapshotIndex).runCamera(id, new Date(Date.now() + 60_000))).toBe(1);
    await answers(b, frame, 404, Date.now());
  });

  it('a project renamed on A shows its new name on B, in the project and in its cameras’ records', async () => {
    const p = await tp.project(owner, 'Before rename');
    const c = await tp.camera(owner, p.exid, 'Named camera');
    await shows(b, get(`/v2/projects/${p.exid}`, owner.auth), (r) => r.name === 'Before rename', Date.now());
    await shows(b, get(`/v2/cameras/${c.exid}`, owner.auth), (r) => r.project?.name === 'Before rename', Date.now());
    const at = await onA({ method: 'PATCH', url: `/v2/projects/${p.exid}`, headers: owner.auth, payload: { name: 'After rename' } }, 200);
    await shows(b, get(`/v2/projects/${p.exid}`, owner.auth), (r) => r.name === 'After rename', at);
    await shows(b, get(`/v2/cameras/${c.exid}`, owner.auth), (r) => r.project?.name === 'After rename', at);
    await shows(a, get(`/v2/cameras/${c.exid}`, owner.auth), (r) => r.project?.name === 'After rename', at);
  });

  it('after its listening session is lost, B forgets everything once it listens again, and hears A again', async () => {
    const admin = new pg.Client({ connectionString: tp.t.databaseUrl });
    await admin.connect();
    try {
      const listeners = async () =>
        // Its last statement is the LISTEN or the heartbeat that names the channel.
        (
          await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and position($1 in query) > 0', [
            `LISTEN "${cacheChannel(tp.t.pgSchema)}"`,
          ])
        ).rows.map((r) => r.pid);
      expect(await listeners()).toHaveLength(2);

      // A change B never hears of: written straight to the database, as if made while B was not listening.
      const k = await tp.key(owner, { projects: [exid], scopes: ['projects:read'] });
      await answers(b, get('/v2/projects', k.headers), 200, Date.now());
      await revokeKeyRow(tp.t.db, k.id, new Date().toISOString());
      expect((await b.inject(get('/v2/projects', k.headers))).statusCode).toBe(200); // B's cache still holds it

      const cut = await listeners();
      for (const pid of cut) await admin.query('select pg_terminate_backend($1)', [pid]);
      const at = Date.now();
      await answers(b, get('/v2/projects', k.headers), 401, at, 5000);

      // Both nodes listen again (new sessions), and B hears A's changes as before.
      for (let i = 0; i < 100; i++) {
        const now = await listeners();
        if (now.length === 2 && now.every((pid) => !cut.includes(pid))) break;
        await sleep(50);
      }
      expect((await listeners()).filter((pid) => !cut.includes(pid))).toHaveLength(2);
      const k2 = await tp.key(owner, { projects: [exid], scopes: ['projects:read'] });
      await answers(b, get('/v2/projects', k2.headers), 200, Date.now());
      const revokedAt = await onA({ method: 'POST', url: `/v2/api-keys/${k2.id}/revoke`, headers: owner.auth }, 200);
      await answers(b, get('/v2/projects', k2.headers), 401, revokedAt);
    } finally {
      await admin.end();
    }
  });
});
