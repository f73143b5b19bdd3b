// E-mails the features' events cause, through a local SMTP sink: an invitation to an address without
// an account carries a link that makes the account and joins (once); a camera going offline is told to
// the project's members who want it, and so is a picture fault starting and ending; a leaked key's
// owner is told once, however many projects the key had.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import { startFakeCamera, type FakeCamera } from '../../fakes/fake-camera.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.js';
import { FrameCamera } from '../picture-checks/frame-camera.js';
import type { FrameOptions } from '../picture-checks/synthetic-frames.js';

let tp: TestPlatform;
let sink: SmtpSink;
let alice: Person;
let projectExid: string;

beforeAll(async () => {
  sink = await startSmtpSink();
  tp = await buildTestPlatform({
    OVERLOOK_SMTP_URL: sink.url,
    OVERLOOK_PUBLIC_URL: 'https://overlook.test',
    OVERLOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
    OVERLOOK_CAMERA_TIMEOUT_MS: '2000',
  });
  alice = await tp.person('alice');
  projectExid = (await tp.project(alice, 'Harbour <Tower>')).exid;
});
afterAll(async () => {
  await tp?.close();
  await sink?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Waits until every recorded event was fanned out: its deliveries (or none) are decided. */
async function fannedOut(): Promise<void> {
  const end = Date.now() + 10_000;
  for (;;) {
    const left = await tp.t.db.kysely.selectFrom('outbox_events').select('id').where('fanned_out_at', 'is', null).execute();
    if (left.length === 0) return;
    if (Date.now() > end) throw new Error('events not fanned out within 10 s');
    await new Promise((r) => setTimeout(r, 20));
  }
}
const deliveriesTo = async (email: string) => (await servicesOf(tp.app).outbox.deliveriesTo('email', email, 100)).length;

describe('invitation e-mails', () => {
  const invited = 'new-site-engineer@example.org';

  it('carry a link that makes the account and joins the project, once', async () => {
    const add = await tp.app.inject({
      method: 'POST',
      url: `/v2/projects/${projectExid}/members`,
      headers: alice.auth,
      payload: { email: invited, role: 'editor' },
    });
    expect(add.statusCode, add.body).toBe(201);
    const mail = await sink.waitFor(invited);
    expect(mail.to).toEqual([invited]);
    expect(mail.subject).toContain('Harbour <Tower>');
    expect(mail.html).toContain('Harbour &lt;Tower&gt;');
    expect(mail.text).toContain('as editor');
    const token = /https:\/\/overlook\.test\/#\/invitation\/([\w-]+)/.exec(mail.text)![1]!;
    expect(mail.html).toContain(`href="https://overlook.test/#/invitation/${token}"`);

    const weak = await tp.app.inject({ method: 'POST', url: '/v2/invitations/claim', payload: { token, password: 'short' } });
    expect(weak.statusCode).toBe(400);
    const claim = await tp.app.inject({ method: 'POST', url: '/v2/invitations/claim', payload: { token, password: 'engineer-password-1', firstname: 'Eve' } });
    expect(claim.statusCode, claim.body).toBe(201);
    expect(claim.json()).toMatchObject({ user: { email: invited, firstname: 'Eve' }, project_exid: projectExid, role: 'editor' });
    const again = await tp.app.inject({ method: 'POST', url: '/v2/invitations/claim', payload: { token, password: 'engineer-password-2' } });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('VALIDATION_ERROR');

    const login = await tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: invited, password: 'engineer-password-1' } });
    expect(login.statusCode).toBe(200);
    const project = await tp.app.inject({ method: 'GET', url: `/v2/projects/${projectExid}`, headers: { authorization: `Bearer ${login.json().token}` } });
    expect(project.statusCode).toBe(200);
  });

  it('are not sent to a person who has an account: they are added, and told so instead', async () => {
    const bob = await tp.person('bob');
    const add = await tp.app.inject({
      method: 'POST',
      url: `/v2/projects/${projectExid}/members`,
      headers: alice.auth,
      payload: { email: bob.email, role: 'viewer' },
    });
    expect(add.statusCode).toBe(201);
    const told = await sink.waitFor(bob.email);
    expect(told.subject).toBe('alice Tester added you to Harbour <Tower> on Overlook');
    await fannedOut();
    expect(await deliveriesTo(bob.email)).toBe(1);
    expect(sink.to(bob.email).filter((m) => m.subject.includes('invited'))).toEqual([]);
  });
});

describe('camera alerts', () => {
  let cam: FakeCamera;
  afterAll(async () => {
    await cam?.close();
  });

  it('tell the members who want them when a camera goes offline', async () => {
    const carol = await tp.person('carol');
    const dave = await tp.person('dave');
    await tp.addMember(alice, projectExid, carol, 'viewer');
    await tp.addMember(alice, projectExid, dave, 'viewer');
    const off = await tp.app.inject({ method: 'PUT', url: '/v2/users/me/email-preferences', headers: dave.auth, payload: { camera_status: false } });
    expect(off.statusCode).toBe(200);
    // Each was told they were added; only camera e-mails count from here.
    await fannedOut();
    const daveBefore = await deliveriesTo(dave.email);
    const aliceBefore = await deliveriesTo(alice.email);

    cam = await startFakeCamera({ username: 'admin', password: 'cam-password-1' });
    const created = await tp.app.inject({
      method: 'POST',
      url: '/v2/cameras',
      headers: alice.auth,
      payload: { name: 'Quay camera', project_exid: projectExid, snapshot_url: cam.snapshotUrl, username: 'admin', password: 'cam-password-1' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const exid = created.json().exid as string;
    const health = () => tp.app.inject({ method: 'GET', url: `/v2/cameras/${exid}/health`, headers: alice.auth });
    expect((await health()).json().status).toBe('online');
    await fannedOut();
    // A new camera's first contact is no news.
    expect(await deliveriesTo(alice.email)).toBe(aliceBefore);

    await cam.close();
    // Past the health check's cache of a few seconds. The clock stays ahead (and runs) until the mails
    // are out: stepping it back would leave the deliveries made meanwhile due 10 s from then.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(Date.now() + 10_000);
    expect((await health()).json().status).toBe('offline');

    for (const person of [alice, carol]) {
      const mail = await sink.waitFor(person.email, (m) => m.subject.includes('Quay camera'));
      expect(mail.subject).toBe('Quay camera is offline');
      expect(mail.text).toContain(`https://overlook.test/#/cameras/${exid}`);
      expect(mail.text).toMatch(/Unsubscribe: https:\/\/overlook\.test\/#\/unsubscribe\//);
    }
    await fannedOut();
    expect(await deliveriesTo(dave.email)).toBe(daveBefore);
  });
});

describe('picture fault alerts', () => {
  const camera = new FrameCamera();
  beforeAll(() => camera.start());
  afterAll(() => camera.stop());
  const store = (exid: string, frames: FrameOptions[]) => camera.store(tp, alice, exid, frames);
  const normal = (n: number): FrameOptions => ({ n, people: 3, seed: n });

  it('tell the members who want them when a picture fault starts and when it ends, once each', async () => {
    const grace = await tp.person('grace');
    const heidi = await tp.person('heidi');
    await tp.addMember(alice, projectExid, grace, 'viewer');
    await tp.addMember(alice, projectExid, heidi, 'viewer');
    // Heidi wants to hear of cameras going offline, not of their pictures.
    const off = await tp.app.inject({ method: 'PUT', url: '/v2/users/me/email-preferences', headers: heidi.auth, payload: { picture_faults: false } });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().preferences).toMatchObject({ camera_status: true, picture_faults: false });
    await fannedOut();
    const heidiBefore = await deliveriesTo(heidi.email);

    const created = await tp.app.inject({
      method: 'POST',
      url: '/v2/cameras',
      headers: alice.auth,
      payload: { name: 'Yard <north>', project_exid: projectExid, snapshot_url: camera.snapshotUrl },
    });
    expect(created.statusCode, created.body).toBe(201);
    const exid = created.json().exid as string;
    await store(exid, [normal(0), normal(1), normal(2)]);
    const black = await store(exid, [
      { n: 3, black: true },
      { n: 4, black: true },
    ]);
    const back = await store(exid, [normal(5)]);

    for (const person of [alice, grace]) {
      const started = await sink.waitFor(person.email, (m) => m.subject === 'Yard <north>: the picture is black or blown out');
      expect(started.text).toContain(`since the frame of ${black[0]}`);
      expect(started.text).toContain('Harbour <Tower>');
      expect(started.html).toContain('Yard &lt;north&gt;');
      expect(started.text).toContain(`https://overlook.test/#/cameras/${exid}`);
      expect(started.headers.get('list-unsubscribe')).toContain('https://overlook.test/#/unsubscribe/');
      const ended = await sink.waitFor(person.email, (m) => m.subject === 'Yard <north>: the picture is right again');
      expect(ended.text).toContain(`no longer black or blown out, since the frame of ${back[0]}`);
    }
    await fannedOut();
    for (const person of [alice, grace]) expect(sink.to(person.email).filter((m) => m.subject.startsWith('Yard <north>'))).toHaveLength(2);
    expect(sink.to(heidi.email).filter((m) => m.subject.startsWith('Yard <north>'))).toEqual([]);
    expect(await deliveriesTo(heidi.email)).toBe(heidiBefore);

    // The link of the message turns off picture faults alone; the next fault is not sent to Grace.
    const token = /\/#\/unsubscribe\/([\w.-]+)/.exec(sink.to(grace.email).find((m) => m.subject.startsWith('Yard <north>'))!.text)![1]!;
    const unsubscribed = await tp.app.inject({ method: 'POST', url: '/v2/mail/unsubscribe', payload: { token } });
    expect(unsubscribed.statusCode, unsubscribed.body).toBe(200);
    expect(unsubscribed.json()).toMatchObject({ email: grace.email, kind: 'picture_faults' });
    const prefs = await tp.app.inject({ method: 'GET', url: '/v2/users/me/email-preferences', headers: grace.auth });
    expect(prefs.json().preferences).toMatchObject({ camera_status: true, picture_faults: false });
    const again = await store(exid, [
      { n: 6, black: true },
      { n: 7, black: true },
    ]);
    await sink.waitFor(alice.email, (m) => m.subject.startsWith('Yard <north>') && m.text.includes(`since the frame of ${again[0]}`));
    await fannedOut();
    expect(sink.to(grace.email).filter((m) => m.subject.startsWith('Yard <north>'))).toHaveLength(2);
  });
});

describe('leaked key e-mails', () => {
  it('tell the key’s owner once, whatever number of projects the key had', async () => {
    const erin = await tp.person('erin');
    const p1 = await tp.project(erin, 'One');
    const p2 = await tp.project(erin, 'Two');
    const key = await tp.key(erin, { name: 'CI <deploy>', projects: [p1.exid, p2.exid], scopes: ['projects:read'] });
    const report = await tp.app.inject({ method: 'POST', url: '/v2/api-keys/leaks', payload: { keys: [key.key] } });
    expect(report.statusCode).toBe(202);
    const mail = await sink.waitFor(erin.email);
    expect(mail.subject).toContain('CI <deploy>');
    expect(mail.html).toContain('CI &lt;deploy&gt;');
    expect(mail.text).toContain('https://overlook.test/keys');
    expect(mail.text).not.toContain(key.key);
    await fannedOut();
    expect(await deliveriesTo(erin.email)).toBe(1);
  });
});

describe('media item and webhook e-mails', () => {
  // Recorded as the media hub's render runner and the webhook channel record them (their own tests
  // cover when they do); what is checked here is who gets which e-mail.
  const record = (event: { type: 'media_item.ready' | 'media_item.failed' | 'webhook.disabled'; projectExid: string; data: Record<string, unknown> }) =>
    servicesOf(tp.app).outbox.record(tp.t.db, event);

  it('tell the person who asked for a media item that it is ready, with a link to the media hub', async () => {
    const aliceBefore = await deliveriesTo(alice.email);
    const frank = await tp.person('frank');
    await tp.addMember(alice, projectExid, frank, 'editor');
    const item = await tp.app.inject({
      method: 'POST',
      url: `/v2/projects/${projectExid}/media-hub`,
      headers: frank.auth,
      payload: { type: 'url', title: 'Pour <day>', url: 'https://example.com/pour' },
    });
    expect(item.statusCode, item.body).toBe(201);
    await record({ type: 'media_item.ready', projectExid, data: { media_item_id: item.json().id, kind: 'timelapse', title: 'Pour <day>', camera_exid: null } });
    const mail = await sink.waitFor(frank.email, (m) => m.subject.startsWith('Your '));
    expect(mail.subject).toBe('Your Pour <day> is ready');
    expect(mail.html).toContain('Pour &lt;day&gt;');
    expect(mail.text).toContain(`https://overlook.test/#/projects/${projectExid}/media`);
    await fannedOut();
    expect(await deliveriesTo(alice.email)).toBe(aliceBefore);
  });

  it('tell the project’s owner a webhook was disabled', async () => {
    await record({
      type: 'webhook.disabled',
      projectExid,
      data: { webhook_id: 'w1', url: 'https://hooks.example.com/in', failures: 20, disabled_at: new Date().toISOString() },
    });
    const mail = await sink.waitFor(alice.email, (m) => m.subject.includes('webhook'));
    expect(mail.subject).toBe('A webhook of Harbour <Tower> was disabled');
    expect(mail.text).toContain('https://hooks.example.com/in');
    expect(mail.text).toContain('its last 20 deliveries failed');
  });
});
