// Project webhooks, through the real routes and a loopback receiver (docs/notifications.md, Webhooks):
// who may configure them (admins and owners, never keys), the secret shown once and a signature the
// receiver verifies, URLs on the platform's own network refused, a receiver failing three times then
// succeeding gets the event once, one that never answers is retried with back-off and then disabled with
// a `webhook.disabled` event and a notification to the owner, the delivery log and redelivery by hand.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import { checkEndpointAccess, type EndpointSpec } from '../../helpers/access.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { type Receiver, startReceiver, until } from '../../helpers/webhook-receiver.js';

let tp: TestPlatform;
const receivers: Receiver[] = [];
const receiver = async (answer?: Receiver['answer']) => {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
};

beforeAll(async () => {
  tp = await buildTestPlatform({
    // The receivers listen on loopback, which the operator opts in here.
    OVERLOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
    OVERLOOK_OUTBOX_POLL_SECONDS: '0.1',
    OVERLOOK_OUTBOX_RETRY_SECONDS: '0.05',
    OVERLOOK_OUTBOX_RETRY_MAX_SECONDS: '0.4',
    OVERLOOK_WEBHOOK_TIMEOUT_MS: '300',
    OVERLOOK_WEBHOOK_DISABLE_AFTER: '4',
  });
});
afterAll(async () => {
  for (const r of receivers) await r.close();
  await tp.close();
});

/** What a receiver does with the header, in a few lines (docs/notifications.md shows the same). */
function verifies(secret: string, header: string, rawBody: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${rawBody}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) && Math.abs(Date.now() / 1000 - Number(parts.t)) < 300;
}

async function projectWithHook(owner: Person, url: string, events: string[] = ['comment.created', 'member.added', 'camera.status_changed']) {
  const project = await tp.project(owner, 'Hooked');
  const res = await tp.app.inject({ method: 'POST', url: `/v2/projects/${project.exid}/webhooks`, headers: owner.auth, payload: { url, events } });
  expect(res.statusCode, res.body).toBe(201);
  return { project, hook: res.json() as { id: string; secret: string; url: string } };
}

const record = (projectExid: string, type: 'comment.created' | 'camera.status_changed' = 'comment.created', data: Record<string, unknown> = { n: 1 }) => {
  const { outbox, db } = servicesOf(tp.app);
  return outbox.record(db, { type, projectExid, data });
};

describe('access: project admins and owners, closed to keys', () => {
  const url = (w: { projectExid: string }) => `/v2/projects/${w.projectExid}/webhooks`;
  const withHook: EndpointSpec['setup'] = async (t, w) => {
    const res = await t.app.inject({
      method: 'POST',
      url: url(w),
      headers: w.owner.auth,
      payload: { url: 'https://example.com/hook', events: ['comment.created'] },
    });
    return { hook: res.json().id };
  };
  const one = (method: EndpointSpec['method'], okStatus: number, suffix = '', payload?: EndpointSpec['payload']): EndpointSpec => ({
    method,
    url: (w) => `${url(w)}/${w.extra.hook}${suffix}`,
    otherUrl: (w) => `${url({ projectExid: w.otherProjectExid })}/${w.extra.hook}${suffix}`,
    payload,
    scopes: [],
    role: 'admin',
    okStatus,
    setup: withHook,
  });
  it('POST /v2/projects/{exid}/webhooks', () =>
    checkEndpointAccess(tp, {
      method: 'POST',
      url,
      otherUrl: (w) => url({ projectExid: w.otherProjectExid }),
      payload: () => ({ url: 'https://example.com/hook', events: ['member.added'] }),
      scopes: [],
      role: 'admin',
      okStatus: 201,
    }));
  it('GET /v2/projects/{exid}/webhooks', () =>
    checkEndpointAccess(tp, { method: 'GET', url, otherUrl: (w) => url({ projectExid: w.otherProjectExid }), scopes: [], role: 'admin', okStatus: 200 }));
  it('GET /v2/projects/{exid}/webhooks/{id}', () => checkEndpointAccess(tp, one('GET', 200)));
  it('PATCH /v2/projects/{exid}/webhooks/{id}', () =>
    checkEndpointAccess(
      tp,
      one('PATCH', 200, '', () => ({ events: ['member.removed'] })),
    ));
  it('GET /v2/projects/{exid}/webhooks/{id}/deliveries', () => checkEndpointAccess(tp, one('GET', 200, '/deliveries')));
  it('DELETE /v2/projects/{exid}/webhooks/{id}', () => checkEndpointAccess(tp, one('DELETE', 204)));
});

describe('configuring', () => {
  it('answers the secret once, lists and reads without it, and refuses bad input with 400', async () => {
    const owner = await tp.person();
    const { project, hook } = await projectWithHook(owner, 'https://example.com/a');
    expect(hook.secret).toMatch(/^whsec_/);
    const base = `/v2/projects/${project.exid}/webhooks`;
    const list = await tp.app.inject({ method: 'GET', url: base, headers: owner.auth });
    expect(list.json().data).toHaveLength(1);
    expect(list.json().data[0]).not.toHaveProperty('secret');
    expect(list.body).not.toContain(hook.secret);
    const bad = async (payload: object, code = 'VALIDATION_ERROR') => {
      const res = await tp.app.inject({ method: 'POST', url: base, headers: owner.auth, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe(code);
      return res.json();
    };
    await bad({ url: 'https://example.com/b', events: ['no.such_event'] });
    await bad({ url: 'https://example.com/b', events: [] });
    await bad({ url: 'ftp://example.com/b', events: ['member.added'] });
    await bad({ url: 'not a url', events: ['member.added'] });
    await bad({ url: 'https://user:pw@example.com/b', events: ['member.added'] });
    // The platform's own network, not opted in: refused, saying only that.
    expect((await bad({ url: 'http://10.1.2.3/hook', events: ['member.added'] })).message).toContain('refused by policy');
    expect((await bad({ url: 'http://[fd00::1]/hook', events: ['member.added'] })).message).toContain('refused by policy');
    const patch = await tp.app.inject({ method: 'PATCH', url: `${base}/${hook.id}`, headers: owner.auth, payload: { url: 'http://169.254.169.254/' } });
    expect(patch.statusCode).toBe(400);
    // Nothing stored was changed by the refusals.
    const after = await tp.app.inject({ method: 'GET', url: `${base}/${hook.id}`, headers: owner.auth });
    expect(after.json()).toMatchObject({ url: 'https://example.com/a', events: ['comment.created', 'member.added', 'camera.status_changed'], enabled: true });
    expect((await tp.app.inject({ method: 'GET', url: `${base}/nope`, headers: owner.auth })).statusCode).toBe(404);
  });
});

describe('delivering', () => {
  it('POSTs the event with a signature the receiver verifies, only for the chosen event types', async () => {
    const owner = await tp.person();
    const r = await receiver();
    const { project, hook } = await projectWithHook(owner, r.url, ['comment.created']);
    await record(project.exid, 'camera.status_changed');
    await record(project.exid, 'comment.created', { comment_id: 'c1' });
    await until('the delivery', () => r.got.length === 1);
    const [got] = r.got;
    expect(got!.headers['content-type']).toBe('application/json');
    const header = String(got!.headers['overlook-signature']);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifies(hook.secret, header, got!.body)).toBe(true);
    expect(verifies('whsec_wrong', header, got!.body)).toBe(false);
    expect(verifies(hook.secret, header, got!.body.replace('c1', 'c2'))).toBe(false);
    const body = JSON.parse(got!.body);
    expect(Object.keys(body).sort()).toEqual(['created_at', 'data', 'id', 'project_exid', 'type']);
    expect(body).toMatchObject({ type: 'comment.created', project_exid: project.exid, data: { comment_id: 'c1' } });
    // The status change was not chosen: it never arrives.
    await record(project.exid, 'comment.created', { comment_id: 'c3' });
    await until('the next delivery', () => r.got.length === 2);
    expect(r.got.map((g) => JSON.parse(g.body).type)).toEqual(['comment.created', 'comment.created']);
  });

  it('a receiver failing three times then succeeding gets the event once more, and once only; the log shows each attempt', async () => {
    const owner = await tp.person();
    const r = await receiver((n) => (n < 3 ? 500 : 204));
    const { project, hook } = await projectWithHook(owner, r.url);
    await record(project.exid);
    await until('delivered', async () => {
      const log = await tp.app.inject({ method: 'GET', url: `/v2/projects/${project.exid}/webhooks/${hook.id}/deliveries`, headers: owner.auth });
      return log.json().deliveries[0]?.status === 'delivered';
    });
    await new Promise((ok) => setTimeout(ok, 500)); // room for a duplicate to show up
    expect(r.got).toHaveLength(4);
    expect(new Set(r.got.map((g) => JSON.parse(g.body).id)).size).toBe(1);
    const log = (await tp.app.inject({ method: 'GET', url: `/v2/projects/${project.exid}/webhooks/${hook.id}/deliveries`, headers: owner.auth })).json();
    expect(log.deliveries).toHaveLength(1);
    expect(log.deliveries[0]).toMatchObject({ event_type: 'comment.created', status: 'delivered', attempts: 4, last_error: null });
    expect(log.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([204, 500, 500, 500]);
    expect(log.attempts[0].latency_ms).toBeGreaterThanOrEqual(0);
    const hookNow = (await tp.app.inject({ method: 'GET', url: `/v2/projects/${project.exid}/webhooks/${hook.id}`, headers: owner.auth })).json();
    expect(hookNow).toMatchObject({ enabled: true, consecutive_failures: 0 });

    // Past the keeping time (OVERLOOK_OUTBOX_KEEP_DAYS, 30 by default) the log is empty.
    await servicesOf(tp.app).outbox.prune(Date.now() + 31 * 86_400_000);
    const pruned = (await tp.app.inject({ method: 'GET', url: `/v2/projects/${project.exid}/webhooks/${hook.id}/deliveries`, headers: owner.auth })).json();
    expect(pruned).toMatchObject({ deliveries: [], attempts: [] });
  });

  it('one that never answers is retried, then disabled; the owner is told and an event recorded', async () => {
    const owner = await tp.person();
    const r = await receiver(() => 'hang');
    const { project, hook } = await projectWithHook(owner, r.url);
    const watcher = await receiver();
    const other = await tp.app.inject({
      method: 'POST',
      url: `/v2/projects/${project.exid}/webhooks`,
      headers: owner.auth,
      payload: { url: watcher.url, events: ['webhook.disabled'] },
    });
    expect(other.statusCode).toBe(201);
    await record(project.exid);
    const base = `/v2/projects/${project.exid}/webhooks/${hook.id}`;
    await until('disabled', async () => (await tp.app.inject({ method: 'GET', url: base, headers: owner.auth })).json().enabled === false);
    const now = (await tp.app.inject({ method: 'GET', url: base, headers: owner.auth })).json();
    expect(now).toMatchObject({ enabled: false, disabled_reason: 'failures', consecutive_failures: 4 });
    expect(r.got).toHaveLength(4);
    const log = (await tp.app.inject({ method: 'GET', url: `${base}/deliveries`, headers: owner.auth })).json();
    expect(log.attempts.every((a: { error: string; status_code: null }) => a.error === 'timed out' && a.status_code === null)).toBe(true);
    // The retry after disabling gives up, and nothing more is sent.
    await until(
      'given up',
      async () => (await tp.app.inject({ method: 'GET', url: `${base}/deliveries`, headers: owner.auth })).json().deliveries[0].status === 'failed',
    );
    expect(r.got).toHaveLength(4);
    // The other webhook heard of it, and the owner has a notification.
    await until('webhook.disabled delivered', () => watcher.got.length === 1);
    expect(JSON.parse(watcher.got[0]!.body)).toMatchObject({
      type: 'webhook.disabled',
      project_exid: project.exid,
      data: { webhook_id: hook.id, failures: 4 },
    });
    const notes = await tp.app.inject({ method: 'GET', url: '/v2/notifications', headers: owner.auth });
    expect(notes.json().data.map((n: { type: string }) => n.type)).toContain('webhook_disabled');
    // Redelivery by hand: refused while disabled; once enabled again, the event arrives.
    const eventId = log.deliveries[0].event_id;
    const redeliver = () => tp.app.inject({ method: 'POST', url: `${base}/deliveries/${eventId}/redeliver`, headers: owner.auth });
    expect((await redeliver()).statusCode).toBe(409);
    r.answer = () => 200;
    const enabled = await tp.app.inject({ method: 'PATCH', url: base, headers: owner.auth, payload: { enabled: true } });
    expect(enabled.json()).toMatchObject({ enabled: true, disabled_reason: null, consecutive_failures: 0 });
    expect((await redeliver()).statusCode).toBe(202);
    await until('redelivered', () => r.got.length === 5);
    expect(JSON.parse(r.got[4]!.body).id).toBe(eventId);
    expect(
      (await tp.app.inject({ method: 'POST', url: `${base}/deliveries/00000000-0000-7000-8000-000000000000/redeliver`, headers: owner.auth })).statusCode,
    ).toBe(404);
  });

  it('a deleted webhook gets nothing more', async () => {
    const owner = await tp.person();
    const r = await receiver();
    const { project, hook } = await projectWithHook(owner, r.url);
    expect((await tp.app.inject({ method: 'DELETE', url: `/v2/projects/${project.exid}/webhooks/${hook.id}`, headers: owner.auth })).statusCode).toBe(204);
    await record(project.exid);
    const probe = await receiver();
    await projectWithHook(owner, probe.url).then(({ project: p }) => record(p.exid));
    await until('the probe', () => probe.got.length === 1);
    expect(r.got).toHaveLength(0);
  });
});
