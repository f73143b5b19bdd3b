// Notifications (list under user:info, marking read under profile:write): access rules, and notifications made by real events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';
import { checkEndpointAccess, type EndpointSpec } from '../../helpers/access.js';

let tp: TestPlatform;
beforeAll(async () => {
  tp = await buildTestPlatform();
});
afterAll(() => tp.close());

const list = async (auth: Record<string, string>, q = '') => {
  const res = await tp.app.inject({ method: 'GET', url: `/v2/notifications${q}`, headers: auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

const endpoints: EndpointSpec[] = [
  { method: 'GET', url: () => '/v2/notifications', scopes: ['user:info'], okStatus: 200 },
  {
    method: 'PATCH',
    url: (w) => `/v2/notifications/${w.extra.id}`,
    payload: () => ({ read: true }),
    scopes: ['profile:write'],
    okStatus: 200,
    setup: async (_tp, w) => {
      // Being added to a project notifies the owner's own test user too: give the owner one by sharing a project with them.
      const sharer = await tp.person('sharer');
      const p = await tp.project(sharer);
      await tp.addMember(sharer, p.exid, w.owner, 'viewer');
      return { id: (await list(w.owner.auth)).data[0].id };
    },
  },
  { method: 'POST', url: () => '/v2/notifications/mark-as-read', scopes: ['profile:write'], okStatus: 200 },
];

describe('access rules', () => {
  for (const spec of endpoints) it(`${spec.method} ${spec.url({ extra: { id: '{id}' } } as never)}`, () => checkEndpointAccess(tp, spec));
});

describe('notifications from real events', () => {
  it('added, role changed, removed: each notifies the member, newest first', async () => {
    const owner = await tp.person('owner');
    const mia = await tp.person('mia');
    const p = await tp.project(owner, 'Harbour');
    await tp.addMember(owner, p.exid, mia, 'viewer');
    expect(
      (await tp.app.inject({ method: 'PATCH', url: `/v2/projects/${p.exid}/members/${mia.id}`, headers: owner.auth, payload: { role: 'editor' } })).statusCode,
    ).toBe(200);
    expect((await tp.app.inject({ method: 'DELETE', url: `/v2/projects/${p.exid}/members/${mia.id}`, headers: owner.auth })).statusCode).toBe(204);
    const body = await list(mia.auth);
    expect(body.data.map((n: { type: string }) => n.type)).toEqual(['removed_from_project', 'role_changed', 'project_shared']);
    expect(body.data[2]).toMatchObject({ read: false, read_timestamp: null, context: { project_exid: p.exid, role: 'viewer' } });
    expect(body.unread_count).toBe(3);
    // The owner got none of them.
    expect((await list(owner.auth)).meta.total_count).toBe(0);
  });

  it('mark one read and unread; the unread filter and count follow', async () => {
    const owner = await tp.person('owner');
    const ned = await tp.person('ned');
    for (const name of ['A', 'B']) await tp.addMember(owner, (await tp.project(owner, name)).exid, ned, 'viewer');
    const [first] = (await list(ned.auth)).data;
    const read = await tp.app.inject({ method: 'PATCH', url: `/v2/notifications/${first.id}`, headers: ned.auth, payload: { read: true } });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: first.id, read: true, read_timestamp: expect.any(String) });
    const unread = await list(ned.auth, '?unread=true');
    expect(unread.unread_count).toBe(1);
    expect(unread.data).toHaveLength(1);
    expect(unread.data[0].id).not.toBe(first.id);
    const back = await tp.app.inject({ method: 'PATCH', url: `/v2/notifications/${first.id}`, headers: ned.auth, payload: { read: false } });
    expect(back.json()).toMatchObject({ read: false, read_timestamp: null });
    expect((await list(ned.auth)).unread_count).toBe(2);
  });

  it('mark all read counts what it marked; someone else’s notification is 404 and stays unread', async () => {
    const owner = await tp.person('owner');
    const olga = await tp.person('olga');
    const pete = await tp.person('pete');
    for (const name of ['A', 'B', 'C']) await tp.addMember(owner, (await tp.project(owner, name)).exid, olga, 'viewer');
    await tp.addMember(owner, (await tp.project(owner, 'D')).exid, pete, 'viewer');
    const petes = (await list(pete.auth)).data[0];
    const foreign = await tp.app.inject({ method: 'PATCH', url: `/v2/notifications/${petes.id}`, headers: olga.auth, payload: { read: true } });
    expect(foreign.statusCode).toBe(404);
    const all = await tp.app.inject({ method: 'POST', url: '/v2/notifications/mark-as-read', headers: olga.auth });
    expect(all.json()).toEqual({ marked: 3 });
    expect((await tp.app.inject({ method: 'POST', url: '/v2/notifications/mark-as-read', headers: olga.auth })).json()).toEqual({ marked: 0 });
    expect((await list(olga.auth)).unread_count).toBe(0);
    expect((await list(pete.auth)).unread_count).toBe(1);
  });

  it('validation: body type, unknown fields, paging', async () => {
    const owner = await tp.person('owner');
    const quinn = await tp.person('quinn');
    await tp.addMember(owner, (await tp.project(owner)).exid, quinn, 'viewer');
    const id = (await list(quinn.auth)).data[0].id;
    for (const payload of [{ read: 'yes' }, {}, { read: true, extra: 1 }]) {
      const res = await tp.app.inject({ method: 'PATCH', url: `/v2/notifications/${id}`, headers: quinn.auth, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    expect((await tp.app.inject({ method: 'GET', url: '/v2/notifications?unread=maybe', headers: quinn.auth })).statusCode).toBe(400);
    const paged = await list(quinn.auth, '?page=2&page_size=1');
    expect(paged.meta).toMatchObject({ current_page: 2, total_count: 1 });
    expect(paged.data).toEqual([]);
  });
});
