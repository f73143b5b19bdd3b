// Two nodes on one PostgreSQL database over real HTTP (docs/deploy.md, Cache invalidation across nodes):
// an access-deciding change is published before its response leaves, so the very next request to the
// other node is decided on the new facts, with no window. Node A reaches the database through a link
// that holds every packet 40 ms each way (another zone): a NOTIFY sent without waiting for its answer
// would still be on its way when A's response arrives. And a node whose listening session hangs (its
// backend stopped with SIGSTOP) refuses a key revoked elsewhere within 2 s.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPeerNode, type TestNode } from '../../helpers/cluster.js';
import { testDialect } from '../../helpers/db.js';
import { eventually } from '../../helpers/eventually.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { type SlowLink, startSlowLink } from '../../helpers/slow-link.js';

const PG_URL = process.env.OVERLOOK_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The backends of the LISTEN sessions named `name` (the suite's PostgreSQL runs on this machine). */
async function backendsNamed(name: string): Promise<number[]> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    const { rows } = await c.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [name]);
    return rows.map((r) => r.pid);
  } finally {
    await c.end();
  }
}

describe.skipIf(testDialect() !== 'postgres')('no stale answer after a change returns (PostgreSQL only: with SQLite there is one node)', () => {
  let tp: TestPlatform;
  let far: TestNode;
  let near: TestNode;
  let link: SlowLink;
  let a: string;
  let b: string;
  let owner: Person;
  let exid: string;
  const peerName = `ovl-peer-${randomBytes(4).toString('hex')}`;

  const call = async (base: string, method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(base + path, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    await res.arrayBuffer();
    return res.status;
  };

  beforeAll(async () => {
    tp = await buildTestPlatform();
    const direct = new URL(tp.t.databaseUrl!);
    link = await startSlowLink({ host: direct.hostname, port: Number(direct.port || 5432) }, 40);
    const viaLink = new URL(direct);
    viaLink.hostname = '127.0.0.1';
    viaLink.port = String(link.port);
    far = await buildPeerNode(tp, { databaseUrl: viaLink.toString() });
    near = await buildPeerNode(tp, { applicationName: peerName });
    a = await far.app.listen({ host: '127.0.0.1', port: 0 });
    b = await near.app.listen({ host: '127.0.0.1', port: 0 });
    owner = await tp.person('owner');
    exid = (await tp.project(owner, 'Window site')).exid;
  });
  afterAll(async () => {
    await near?.close();
    await far?.close();
    await link?.close();
    await tp?.close();
  });

  it('a key revoked on A is refused by B on the first request after the response, every time', async () => {
    for (let i = 0; i < 10; i++) {
      const k = await tp.key(owner, { projects: [exid], scopes: ['projects:read'] });
      expect(await call(b, 'GET', '/v2/projects', k.headers)).toBe(200); // B has it cached now
      expect(await call(a, 'POST', `/v2/api-keys/${k.id}/revoke`, owner.auth)).toBe(200);
      expect(await call(b, 'GET', '/v2/projects', k.headers), `round ${i}`).toBe(401);
    }
  });

  it('a key reported leaked on A (revoked as the last step of the change) is refused by B at once', async () => {
    for (let i = 0; i < 3; i++) {
      const k = await tp.key(owner, { projects: [exid], scopes: ['projects:read'] });
      expect(await call(b, 'GET', '/v2/projects', k.headers)).toBe(200);
      expect(await call(a, 'POST', '/v2/api-keys/leaks', {}, { keys: [k.key] })).toBe(202);
      expect(await call(b, 'GET', '/v2/projects', k.headers), `round ${i}`).toBe(401);
    }
  });

  it('a session ended, a member removed and a role lowered on A are honoured by B at once', async () => {
    const leaver = await tp.person('leaver');
    expect(await call(b, 'GET', '/v2/auth/users/me', leaver.auth)).toBe(200);
    expect(await call(a, 'DELETE', '/v2/auth/logout', leaver.auth)).toBe(204);
    expect(await call(b, 'GET', '/v2/auth/users/me', leaver.auth)).toBe(401);

    const member = await tp.person('member');
    await tp.addMember(owner, exid, member, 'viewer');
    expect(await call(b, 'GET', `/v2/projects/${exid}`, member.auth)).toBe(200);
    expect(await call(a, 'DELETE', `/v2/projects/${exid}/members/${member.id}`, owner.auth)).toBe(204);
    expect(await call(b, 'GET', `/v2/projects/${exid}`, member.auth)).toBe(404);

    const manager = await tp.person('manager');
    await tp.addMember(owner, exid, manager, 'admin');
    expect(await call(b, 'GET', `/v2/projects/${exid}/settings/history`, manager.auth)).toBe(200);
    expect(await call(a, 'PATCH', `/v2/projects/${exid}/members/${manager.id}`, owner.auth, { role: 'viewer' })).toBe(200);
    expect(await call(b, 'GET', `/v2/projects/${exid}/settings/history`, manager.auth)).toBe(403);
  });

  it('with its listening session hung (backend stopped), B refuses a key revoked on A within 2 s', async () => {
    const k = await tp.key(owner, { projects: [exid], scopes: ['projects:read'] });
    expect(await call(b, 'GET', '/v2/projects', k.headers)).toBe(200);
    const listeners = await eventually(async () => {
      const pids = await backendsNamed(`${peerName}-listen`);
      return pids.length > 0 && pids;
    }, "B's listening sessions");
    const stopped: number[] = [];
    try {
      for (const pid of listeners) {
        process.kill(pid, 'SIGSTOP');
        stopped.push(pid);
      }
      expect(await call(a, 'POST', `/v2/api-keys/${k.id}/revoke`, owner.auth)).toBe(200);
      const revokedAt = Date.now();
      await eventually(async () => (await call(b, 'GET', '/v2/projects', k.headers)) === 401, 'B refusing the revoked key', 2000, 25);
      expect(Date.now() - revokedAt).toBeLessThan(2000);
    } finally {
      for (const pid of stopped) process.kill(pid, 'SIGCONT');
    }
    // B listens again on a new session, and hears the next change at once.
    await eventually(async () => (await backendsNamed(`${peerName}-listen`)).some((p) => !listeners.includes(p)), 'a new listening session of B', 10_000);
    const k2 = await tp.key(owner, { projects: [exid], scopes: ['projects:read'] });
    expect(await call(b, 'GET', '/v2/projects', k2.headers)).toBe(200);
    expect(await call(a, 'POST', `/v2/api-keys/${k2.id}/revoke`, owner.auth)).toBe(200);
    expect(await call(b, 'GET', '/v2/projects', k2.headers)).toBe(401);
  });
});
