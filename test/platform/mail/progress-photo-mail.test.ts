// Progress-photo e-mails through a local SMTP sink: sent at the schedule's weekday and time in the
// project's time zone (+05:45 here), once per moment and only on the node holding the work lease, to
// every recipient, each camera's latest frame inlined; the unsubscribe link and the account setting
// turn them off per address.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import { snapshotKey } from '../../../src/platform/recordings/snapshot-index.js';
import { WorkLeases } from '../../../src/platform/work/index.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { startSmtpSink, type SmtpSink, type SunkMail } from '../../helpers/smtp-sink.js';

let tp: TestPlatform;
let sink: SmtpSink;
let alice: Person;
let schedule: { id: string; next_send_at: string };
let frame: Buffer;
const OUTSIDER = 'site-manager@client.example.org';

async function storeFrame(cameraExid: string, takenAt: Date): Promise<Buffer> {
  const { id } = await servicesOf(tp.app).cameras.row(cameraExid);
  const jpeg = await sharp({ create: { width: 320, height: 180, channels: 3, background: { r: 200, g: 80, b: 20 } } })
    .jpeg()
    .toBuffer();
  const key = snapshotKey(id, takenAt);
  await servicesOf(tp.app).storage.put(key, jpeg, 'image/jpeg');
  await servicesOf(tp.app).snapshotIndex.add({ cameraId: id, takenAt, objectKey: key, size: jpeg.length, source: 'schedule', note: null });
  return jpeg;
}

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

/** The e-mail deliveries decided for an address. */
const deliveriesTo = async (email: string) => (await servicesOf(tp.app).outbox.deliveriesTo('email', email, 100)).length;

const sender = () => servicesOf(tp.app).mail.progressPhotoSender;
const at = (iso: string, deltaMs: number) => new Date(Date.parse(iso) + deltaMs);

beforeAll(async () => {
  sink = await startSmtpSink();
  tp = await buildTestPlatform({ OVERLOOK_SMTP_URL: sink.url, OVERLOOK_PUBLIC_URL: 'https://overlook.test' });
  alice = await tp.person('alice');
  const project = await tp.app.inject({ method: 'POST', url: '/v2/projects', headers: alice.auth, payload: { name: 'Tower <B>', timezone: 'Asia/Kathmandu' } });
  expect(project.statusCode).toBe(201);
  const exid = project.json().exid as string;
  const gate = await tp.camera(alice, exid, 'Gate');
  const crane = await tp.camera(alice, exid, 'Crane');
  frame = await storeFrame(gate.exid, new Date(Date.now() - 60_000));
  const res = await tp.app.inject({
    method: 'POST',
    url: '/v2/progress-photos',
    headers: alice.auth,
    payload: {
      project_exid: exid,
      title: 'Weekly view',
      camera_exids: [gate.exid, crane.exid],
      recipients: [alice.email, OUTSIDER],
      schedule: 'weekly',
      days: ['wed'],
      send_at: '09:00',
    },
  });
  expect(res.statusCode).toBe(201);
  schedule = res.json();
});
afterAll(async () => {
  await tp?.close();
  await sink?.close();
});

describe('progress-photo e-mails', () => {
  it('are due on the weekday and time of the project’s zone', () => {
    // 09:00 at +05:45 is 03:15 UTC, on a Wednesday.
    expect(schedule.next_send_at).toMatch(/T03:15:00\.000Z$/);
    expect(new Date(schedule.next_send_at).getUTCDay()).toBe(3);
  });

  it('are not sent before the moment, nor by a node without the lease', async () => {
    const otherNode = new WorkLeases(tp.t.db, { leaseMs: 60_000 });
    expect(await otherNode.acquire('progress-photos')).toBe(true);
    expect(await sender().tick(at(schedule.next_send_at, 30_000))).toBe(0);
    await otherNode.stop();
    expect(await sender().tick(at(schedule.next_send_at, -60_000))).toBe(0);
  });

  it('are sent once at the moment, to every recipient, with the latest frames inlined', async () => {
    expect(await sender().tick(at(schedule.next_send_at, 30_000))).toBe(1);
    expect(await sender().tick(at(schedule.next_send_at, 90_000))).toBe(0);
    const mails: SunkMail[] = [await sink.waitFor(alice.email), await sink.waitFor(OUTSIDER)];
    for (const m of mails) {
      expect(m.to).toHaveLength(1);
      expect(m.subject).toContain('Weekly view');
      // The moment in the project's zone, and the project's name escaped in the HTML.
      expect(m.text).toMatch(/Wed, \d+ \w+ \d{4}, 09:00/);
      expect(m.html).toContain('Tower &lt;B&gt;');
      expect(m.html).not.toContain('Tower <B>');
      expect(m.images).toHaveLength(1);
      expect(m.images[0]!.body.equals(frame)).toBe(true);
      expect(m.html).toContain(`src="cid:${m.images[0]!.cid}"`);
      expect(m.text).toContain('Crane: no picture recorded yet');
      expect(m.text).toMatch(/Unsubscribe: https:\/\/overlook\.test\/#\/unsubscribe\/[\w.-]+/);
      expect(m.headers.get('list-unsubscribe')).toContain('https://overlook.test/#/unsubscribe/');
    }
    await fannedOut();
    expect(await deliveriesTo(alice.email)).toBe(1);
  });

  it('stop for an address that used its unsubscribe link, and for a person who turned them off', async () => {
    const token = /\/#\/unsubscribe\/([\w.-]+)/.exec(sink.to(OUTSIDER)[0]!.text)![1]!;
    const tampered = await tp.app.inject({ method: 'POST', url: '/v2/mail/unsubscribe', payload: { token: `${token.slice(0, -2)}xx` } });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json().code).toBe('VALIDATION_ERROR');
    const res = await tp.app.inject({ method: 'POST', url: '/v2/mail/unsubscribe', payload: { token } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: OUTSIDER, kind: 'progress_photos' });

    const nextWeek = at(schedule.next_send_at, 7 * 86_400_000 + 30_000);
    expect(await sender().tick(nextWeek)).toBe(1);
    await sink.waitFor(alice.email, () => sink.to(alice.email).length === 2);
    await fannedOut();
    expect(await deliveriesTo(OUTSIDER)).toBe(1);

    const off = await tp.app.inject({ method: 'PUT', url: '/v2/users/me/email-preferences', headers: alice.auth, payload: { progress_photos: false } });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ email_enabled: true, email: alice.email, preferences: { progress_photos: false, camera_status: true } });
    expect(await sender().tick(at(schedule.next_send_at, 14 * 86_400_000 + 30_000))).toBe(1);
    await fannedOut();
    expect(await deliveriesTo(alice.email)).toBe(2);
    expect(await deliveriesTo(OUTSIDER)).toBe(1);
  });
});

describe('e-mail preferences', () => {
  it('are read and changed by the person, never by a key, and checked', async () => {
    const bob = await tp.person('bob');
    const got = await tp.app.inject({ method: 'GET', url: '/v2/users/me/email-preferences', headers: bob.auth });
    expect(got.json()).toEqual({
      email_enabled: true,
      email: bob.email,
      preferences: {
        camera_status: true,
        picture_faults: true,
        media_items: true,
        key_leaks: true,
        webhooks: true,
        progress_photos: true,
        project_added: true,
      },
    });
    for (const payload of [{ camera_status: 'no' }, { newsletter: true }, []]) {
      const bad = await tp.app.inject({ method: 'PUT', url: '/v2/users/me/email-preferences', headers: bob.auth, payload });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(bad.json().code).toBe('VALIDATION_ERROR');
    }
    const project = await tp.project(bob);
    const key = await tp.key(bob, { projects: [project.exid], scopes: ['projects:read'] });
    expect((await tp.app.inject({ method: 'GET', url: '/v2/users/me/email-preferences', headers: key.headers })).statusCode).toBe(403);
    expect((await tp.app.inject({ method: 'GET', url: '/v2/users/me/email-preferences' })).statusCode).toBe(401);
  });
});
