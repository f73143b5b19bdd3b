// Revocation on several nodes (docs/security.md, Revocation): disabling an admin, taking their flag or
// removing a member on node A ends, on node B within 1 s, the impersonations they opened and the media
// tokens issued through them, although B had cached them as live. PostgreSQL only: with SQLite there is one node.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPeerNode, type TestNode } from '../../helpers/cluster.js';
import { testDialect } from '../../helpers/db.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(testDialect() !== 'postgres')('revocation reaches every node within 1 s', () => {
  let tp: TestPlatform;
  let a: FastifyInstance;
  let peer: TestNode;
  let b: FastifyInstance;
  let root: Person;

  beforeAll(async () => {
    tp = await buildTestPlatform();
    a = tp.app;
    peer = await buildPeerNode(tp);
    b = peer.app;
    root = await tp.person('root', { admin: true });
  });
  afterAll(async () => {
    await peer?.close();
    await tp?.close();
  });

  /** Until B answers `status`; fails if that takes more than 1 s from `since`. */
  async function bAnswers(url: string, headers: Record<string, string>, status: number, since: number) {
    for (;;) {
      const res = await b.inject({ method: 'GET', url, headers });
      if (res.statusCode === status) return;
      if (Date.now() - since > 1000) throw new Error(`GET ${url}: expected ${status} within 1 s, still ${res.statusCode} ${res.body.slice(0, 200)}`);
      await sleep(50);
    }
  }

  const onA = async (method: 'POST' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) => {
    const res = await a.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return Date.now();
  };

  async function world() {
    const admin = await tp.person('admin', { admin: true });
    const target = await tp.person('target');
    const project = (await tp.project(target)).exid;
    const camera = (await tp.camera(target, project)).exid;
    const imp = (await a.inject({ method: 'POST', url: `/v2/admin/users/${target.id}/impersonate`, headers: admin.auth })).json().token as string;
    const impAuth = { authorization: `Bearer ${imp}` };
    const hls = await a.inject({ method: 'GET', url: `/v2/cameras/${camera}/hls?format=json`, headers: impAuth });
    const token = new URL(hls.json().playlist_url).searchParams.get('token')!;
    // A segment of a stream nobody started: 404 while the token holds, 401 once it does not (no ffmpeg).
    const segment = `/v2/cameras/${camera}/hls/seg_000001.ts?token=${encodeURIComponent(token)}`;
    // B caches both as live.
    await bAnswers('/v2/auth/users/me', impAuth, 200, Date.now());
    await bAnswers(segment, {}, 404, Date.now());
    return { admin, target, project, camera, impAuth, segment };
  }

  it('an admin disabled on A: their impersonation and its media token end on B', async () => {
    const w = await world();
    const at = await onA('POST', `/v2/admin/users/${w.admin.id}/disable`, root.auth);
    await bAnswers('/v2/auth/users/me', w.impAuth, 401, at);
    await bAnswers(w.segment, {}, 401, at);
  });

  it('an admin’s flag taken on A: their own session, their impersonation and its media token end on B', async () => {
    const w = await world();
    await bAnswers('/v2/auth/users/me', w.admin.auth, 200, Date.now());
    const at = await onA('PATCH', `/v2/admin/users/${w.admin.id}`, root.auth, { is_admin: false });
    await bAnswers('/v2/auth/users/me', w.admin.auth, 401, at);
    await bAnswers('/v2/auth/users/me', w.impAuth, 401, at);
    await bAnswers(w.segment, {}, 401, at);
  });

  it('a member removed on A stops watching on B', async () => {
    const owner = await tp.person('owner');
    const project = (await tp.project(owner)).exid;
    const camera = (await tp.camera(owner, project)).exid;
    const member = await tp.person('member');
    await tp.addMember(owner, project, member, 'viewer');
    const hls = await a.inject({ method: 'GET', url: `/v2/cameras/${camera}/hls?format=json`, headers: member.auth });
    const token = new URL(hls.json().playlist_url).searchParams.get('token')!;
    const segment = `/v2/cameras/${camera}/hls/seg_000001.ts?token=${encodeURIComponent(token)}`;
    await bAnswers(segment, {}, 404, Date.now());
    const at = await onA('DELETE', `/v2/projects/${project}/members/${member.id}`, owner.auth);
    await bAnswers(segment, {}, 401, at);
  });
});
