// Key limits on several nodes (docs/access-model.md, Key limits): a key's requests are counted in the
// database, so its limit holds across nodes; and an edit of the limits made on one node is honoured by
// another within 1 s (through the cache invalidation bus).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPeerNode, type TestNode } from '../../helpers/cluster.js';
import { testDialect } from '../../helpers/db.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';

describe.skipIf(testDialect() !== 'postgres')('key limits across two nodes (PostgreSQL only: with SQLite there is one node)', () => {
  let tp: TestPlatform;
  let peer: TestNode;
  let owner: Person;
  let exid: string;
  let camera: string;

  beforeAll(async () => {
    tp = await buildTestPlatform();
    peer = await buildPeerNode(tp);
    owner = await tp.person('owner');
    exid = (await tp.project(owner, 'Cluster site')).exid;
    camera = (await tp.camera(owner, exid)).exid;
  });
  afterAll(async () => {
    await peer?.close();
    await tp?.close();
  });

  it('counts one key’s requests on both nodes against one limit', async () => {
    const k = await tp.app.inject({
      method: 'POST',
      url: '/v2/api-keys',
      headers: owner.auth,
      payload: {
        name: 'limited',
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
        projects: [exid],
        scopes: ['cameras:read'],
        rate_limit: { requests: 4, window_seconds: 300 },
      },
    });
    const key = k.json().key as string;
    const get = (node: TestNode['app']) => node.inject({ method: 'GET', url: `/v2/cameras/${camera}`, headers: { 'x-access-key': key } });
    const statuses = [];
    for (const node of [tp.app, peer.app, tp.app, peer.app]) statuses.push((await get(node)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect((await get(peer.app)).statusCode).toBe(429);
    expect((await get(tp.app)).statusCode).toBe(429);
  });

  it('an edit of the limits on one node is honoured by the other within 1 s', async () => {
    const created = await tp.app.inject({
      method: 'POST',
      url: '/v2/api-keys',
      headers: owner.auth,
      payload: { name: 'fenced', expires_at: new Date(Date.now() + 86_400_000).toISOString(), projects: [exid], scopes: ['cameras:read'] },
    });
    const { id, key } = created.json() as { id: string; key: string };
    const get = () => peer.app.inject({ method: 'GET', url: `/v2/cameras/${camera}`, headers: { 'x-access-key': key }, remoteAddress: '198.51.100.7' });
    expect((await get()).statusCode).toBe(200); // cached on the peer
    const edit = await tp.app.inject({ method: 'PATCH', url: `/v2/api-keys/${id}`, headers: owner.auth, payload: { allowed_ips: ['203.0.113.0/24'] } });
    expect(edit.statusCode).toBe(200);
    const since = Date.now();
    for (;;) {
      const res = await get();
      if (res.statusCode === 403 && res.json().code === 'IP_NOT_ALLOWED') break;
      expect(Date.now() - since, 'the peer still lets the key in from outside its list').toBeLessThan(1000);
      await new Promise((r) => setTimeout(r, 50));
    }
  });
});
