// The recorder's end of the site link against a fake platform (test/helpers/fake-site-platform.ts):
// linking through /api/link, the connection (credential, subprotocol), the shared devices, requests,
// cloud frames per schedule, events, the share flag, and a revocation that outlives a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { MAX_EVENT_IMAGE_BYTES, SUBPROTOCOL, type FromRecorder } from '../../src/lib/site-link/protocol.js';
import { CODE, CREDENTIAL, FakePlatform } from '../helpers/fake-site-platform.js';
import { serveRecorder, type ServedRecorder } from '../helpers/linked-recorder.js';
import { eventually, makeTestVideo } from '../helpers/recorder.js';

const platform = new FakePlatform();
let dir: string;
let r: ServedRecorder;
let shared: string;
let kept: string;

type DevicesMessage = Extract<FromRecorder, { type: 'devices' }>;
const lastDevices = () => platform.current?.received.filter((m) => m.message.type === 'devices').at(-1)?.message as DevicesMessage | undefined;
const isJpeg = (b: Buffer | null) => b !== null && b[0] === 0xff && b[1] === 0xd8;

async function addDevice(name: string, share?: boolean): Promise<string> {
  const res = await r.running.app.inject({
    method: 'POST',
    url: '/api/devices',
    headers: r.admin,
    payload: {
      name,
      type: 'file',
      stream_config: { path: join(r.running.config.mediaDir, 'source.mp4') },
      ...(share === undefined ? {} : { share_with_platform: share }),
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json().share_with_platform).toBe(share ?? true);
  return res.json().id;
}

beforeAll(async () => {
  await platform.start();
  dir = mkdtempSync(join(tmpdir(), 'overlook-link-'));
  r = await serveRecorder(dir);
  makeTestVideo(r.running.config.mediaDir);
  shared = await addDevice('Gate');
  kept = await addDevice('Office', false);
});
afterAll(async () => {
  await r?.running.close();
  await platform.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the site link, recorder end', () => {
  it('links with a code, then connects out with the credential and the subprotocol', async () => {
    expect((await r.link()).state).toBe('unlinked');
    const res = await r.running.app.inject({ method: 'POST', url: '/api/link', headers: r.admin, payload: { platform_url: platform.url, code: CODE } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ platform_url: platform.url, link_id: 'link-1', project_exid: 'project-1' });
    const conn = await eventually(async () => platform.current, 10_000, 'a connection');
    expect(conn.authorization).toBe(`Bearer ${CREDENTIAL}`);
    expect(conn.protocol).toBe(SUBPROTOCOL);
    await eventually(async () => (await r.link()).state === 'connected', 10_000, 'connected');
    // The credential is kept sealed, never as it is.
    const row = await r.running.db.kysely.selectFrom('platform_link').selectAll().executeTakeFirstOrThrow();
    expect(row.credential).not.toContain(CREDENTIAL);
  });

  it('sends the shared devices, with their state, and never one kept out', async () => {
    const devices = await eventually(async () => lastDevices()?.devices.find((d) => d.id === shared && d.state === 'recording') && lastDevices(), 30_000);
    expect(devices.recorder_version).toMatch(/\d/);
    expect(devices.devices.map((d) => d.id)).toEqual([shared]);
    expect(devices.devices[0]).toMatchObject({ name: 'Gate', timezone: 'UTC' });
  });

  it('answers requests for a snapshot, the live playlist and a live segment; a device kept out or unknown is 404', async () => {
    const playlist = await eventually(
      async () => {
        const reply = await platform.request('live_playlist', shared);
        return reply.message.type === 'reply' && reply.message.status === 200 && reply;
      },
      30_000,
      'a live playlist',
    );
    expect(playlist.message).toMatchObject({ content_type: 'application/vnd.apple.mpegurl' });
    const text = playlist.payload!.toString('utf8');
    expect(text).toMatch(/^#EXTM3U/);
    const name = text.split('\n').find((l) => /^live-\d+\.ts$/.test(l))!;
    expect(name).toBeDefined();
    const segment = await platform.request('live_segment', shared, name);
    expect(segment.message).toMatchObject({ status: 200, content_type: 'video/mp2t' });
    expect(segment.payload![0]).toBe(0x47); // an MPEG-TS sync byte
    const snapshot = await platform.request('snapshot', shared);
    expect(snapshot.message).toMatchObject({ status: 200, content_type: 'image/jpeg' });
    expect(isJpeg(snapshot.payload)).toBe(true);
    for (const id of [kept, 'no-such-device']) {
      for (const what of ['snapshot', 'live_playlist', 'live_segment'] as const) {
        const reply = await platform.request(what, id, what === 'live_segment' ? name : undefined);
        expect(reply.message, `${what} ${id}`).toMatchObject({ type: 'reply', status: 404 });
        expect(reply.payload).toBeNull();
      }
    }
  });

  it('takes cloud frames per the schedules the platform sends, for shared devices only', async () => {
    // Open all day on today's weekday in Tokyo (the platform's full weekday names), closed on the others.
    const today = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tokyo', weekday: 'long' }).format(new Date()).toLowerCase();
    platform.send({
      type: 'schedules',
      schedules: [
        { device_id: shared, camera_exid: 'gate', frequency: 60, schedule: { [today]: ['00:00-24:00'] }, timezone: 'Asia/Tokyo' },
        { device_id: kept, camera_exid: 'office', frequency: 60, schedule: null, timezone: 'UTC' },
      ],
    });
    const frames = await eventually(
      async () => {
        const f = platform.all('frame');
        return f.length >= 3 && f;
      },
      30_000,
      'three frames',
    );
    for (const f of frames) {
      expect(f.message).toMatchObject({ type: 'frame', device_id: shared });
      expect(isJpeg(f.payload)).toBe(true);
    }
    const seqs = frames.map((f) => (f.message as { seq: number }).seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    // Acknowledged frames leave the outbox.
    await eventually(async () => (await r.link()).backlog.items <= 1, 10_000, 'an empty backlog');
    // The schedules are kept for when the platform is away.
    expect((await r.running.app.recorder.linkStore.schedules()).map((s) => s.device_id).sort()).toEqual([shared, kept].sort());
    platform.send({ type: 'schedules', schedules: [] });
  });

  it('sends events of shared devices, number-plate reads as kind plate with their crop', async () => {
    const crop = await sharp({ create: { width: 120, height: 40, channels: 3, background: '#eee' } })
      .jpeg()
      .toBuffer();
    const post = (id: string, plate: string, image?: Buffer) =>
      r.running.app.inject({
        method: 'POST',
        url: `/api/devices/${id}/events/lpr`,
        headers: r.admin,
        payload: { plate_number: plate, capture_time: '2026-11-28T07:00:00Z', direction: 'in', ...(image ? { plate_image: image.toString('base64') } : {}) },
      });
    expect((await post(kept, 'KEPT1', crop)).statusCode).toBe(201);
    expect((await post(shared, 'ab 123', crop)).statusCode).toBe(201);
    const events = await eventually(
      async () => {
        const e = platform.all('event');
        return e.length > 0 && e;
      },
      10_000,
      'an event',
    );
    // In outbox order: had the kept device's read been queued, it would have come first.
    expect(events).toHaveLength(1);
    expect(events[0]!.message).toMatchObject({
      type: 'event',
      device_id: shared,
      kind: 'plate',
      at: '2026-11-28T07:00:00.000Z',
      data: { plate: 'AB 123', direction: 'in', has_plate_image: true },
    });
    // The crop travels as the message's payload, byte for byte, not inside the JSON.
    expect(events[0]!.payload?.equals(crop)).toBe(true);
    expect(JSON.stringify(events[0]!.message)).not.toContain(crop.toString('base64').slice(0, 40));
  });

  it('scales a plate image over the link’s bound down, and sends a read without an image as text', async () => {
    const scene = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 10 } } })
      .jpeg({ quality: 100 })
      .toBuffer();
    expect(scene.length).toBeGreaterThan(MAX_EVENT_IMAGE_BYTES);
    const before = platform.all('event').length;
    const post = (plate: string, image?: Buffer) =>
      r.running.app.inject({
        method: 'POST',
        url: `/api/devices/${shared}/events/lpr`,
        headers: r.admin,
        payload: { plate_number: plate, capture_time: '2026-11-28T07:05:00Z', ...(image ? { plate_image: image.toString('base64') } : {}) },
      });
    expect((await post('BIG1', scene)).statusCode).toBe(201);
    expect((await post('NONE1')).statusCode).toBe(201);
    const events = await eventually(async () => platform.all('event').length >= before + 2 && platform.all('event').slice(before), 10_000, 'two more events');
    const [big, none] = events as [(typeof events)[number], (typeof events)[number]];
    expect(big.message).toMatchObject({ data: { plate: 'BIG1', has_plate_image: true } });
    expect(big.payload!.length).toBeLessThanOrEqual(MAX_EVENT_IMAGE_BYTES);
    const meta = await sharp(big.payload!).metadata();
    expect([meta.format, Math.max(meta.width!, meta.height!)]).toEqual(['jpeg', 1280]);
    expect(none.message).toMatchObject({ data: { plate: 'NONE1', has_plate_image: false } });
    expect(none.payload).toBeNull();
  });

  it('tells the platform when the share flag changes, within 10 s', async () => {
    const res = await r.running.app.inject({ method: 'PUT', url: `/api/devices/${kept}`, headers: r.admin, payload: { share_with_platform: true } });
    expect(res.statusCode, res.body).toBe(200);
    await eventually(async () => lastDevices()?.devices.some((d) => d.id === kept), 10_000, 'the device shared');
    await r.running.app.inject({ method: 'PUT', url: `/api/devices/${kept}`, headers: r.admin, payload: { share_with_platform: false } });
    await eventually(async () => !lastDevices()?.devices.some((d) => d.id === kept), 10_000, 'the device kept out again');
  });

  it('stops reconnecting after a REVOKED close, and still after a restart', async () => {
    const before = platform.connections.length;
    platform.current!.socket.close(4403, 'revoked');
    await eventually(async () => (await r.link()).state === 'revoked', 10_000, 'revoked');
    // The first reconnect would come after 0.5 to 1 s: 1.5 s would surely see it.
    await new Promise((res) => setTimeout(res, 1500));
    expect(platform.connections.length).toBe(before);
    await r.running.close();
    r = await serveRecorder(dir);
    expect((await r.link()).state).toBe('revoked');
    await new Promise((res) => setTimeout(res, 1500));
    expect(platform.connections.length).toBe(before);
  });
});
