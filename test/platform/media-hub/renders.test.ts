// Real renders from stored recordings: a timelapse (schedule, duration, size, timestamp, logo) and a
// clip come out as H.264 MP4s of the asked duration and size; a compare as a GIF and an MP4 that
// decode; a render with no frames fails with a reason and succeeds on retry once frames exist; a
// render interrupted by a stopped server completes after the next start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { platformConfig } from '../../../src/lib/config.js';
import { buildPlatformApp } from '../../../src/platform/app.js';
import { offsetMinutes } from '../../../src/platform/recordings/local-calendar.js';
import { eventually } from '../../helpers/eventually.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { frameAt, probe, storeFrames, waitForStatus } from './media-fixtures.js';

let tp: TestPlatform;
let owner: Person;
let projectExid: string;
let cameraExid: string;
const DAY = Date.UTC(2026, 10, 10);
// 20 frames, one an hour from 02:00 to 21:00 UTC.
const times = Array.from({ length: 20 }, (_, i) => new Date(DAY + (i + 2) * 3_600_000));

beforeAll(async () => {
  tp = await buildTestPlatform();
  owner = await tp.person('media-owner');
  const p = await tp.project(owner, 'Media site');
  projectExid = p.exid;
  cameraExid = (await tp.camera(owner, projectExid, 'Crane cam')).exid;
  await storeFrames(tp, cameraExid, times);
});
afterAll(async () => tp?.close());

const base = () => `/v2/projects/${projectExid}/media-hub`;
const fetchBytes = async (url: string) => {
  const res = await tp.app.inject({ method: 'GET', url: url.replace(/^https?:\/\/[^/]+/, ''), headers: owner.auth });
  expect(res.statusCode, res.body).toBe(200);
  return { bytes: res.rawPayload, type: res.headers['content-type'] };
};

describe('timelapse', () => {
  it('renders the scheduled frames into an MP4 of the asked duration, width, with timestamp and logo', async () => {
    const logo = await sharp({ create: { width: 40, height: 40, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 1 } } })
      .png()
      .toBuffer();
    const res = await tp.app.inject({
      method: 'POST',
      url: `${base()}/timelapses`,
      headers: owner.auth,
      payload: {
        title: 'Day build',
        camera_exid: cameraExid,
        from_datetime: '2026-11-10T00:00:00Z',
        to_datetime: '2026-11-10',
        duration: 2,
        width: 96,
        schedule: { from: '07:00', to: '18:00' },
        logo: logo.toString('base64'),
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({
      type: 'timelapse',
      status: 'pending',
      camera_exid: cameraExid,
      requester_email: owner.email.toLowerCase(),
      media_url: null,
    });
    const item = await waitForStatus(tp, owner.auth, `${base()}/timelapses/${created.id}`);
    expect(item.status, item.error).toBe('completed');
    // Only frames inside 07:00–18:00 local time were used.
    const tz = (await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cameraExid}`, headers: owner.auth })).json().timezone;
    const expected = times.filter((t) => {
      const local = new Date(t.getTime() + offsetMinutes(tz, t.getTime()) * 60_000).getUTCHours();
      return local >= 7 && local < 18;
    }).length;
    expect(item.options.frames).toBe(expected);
    const { bytes, type } = await fetchBytes(item.media_url);
    expect(type).toBe('video/mp4');
    const p = await probe(bytes, 'mp4');
    expect(p.codec).toBe('h264');
    expect(p.width).toBe(96);
    expect(p.height).toBe(72);
    expect(p.duration).toBeGreaterThan(1.8);
    expect(p.duration).toBeLessThan(2.2);
    // The logo is drawn top-right: that corner is red.
    const still = await frameAt(bytes, 'mp4', 0.5);
    const { data, info } = await sharp(still).raw().toBuffer({ resolveWithObject: true });
    const px = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    const [r, g, b] = px(info.width - 14, 14);
    expect(r).toBeGreaterThan(180);
    expect(g).toBeLessThan(90);
    expect(b).toBeLessThan(90);
    // The thumbnail is a real JPEG.
    const thumb = await fetchBytes(item.thumbnail_url);
    expect(thumb.type).toBe('image/jpeg');
    expect((await sharp(thumb.bytes).metadata()).format).toBe('jpeg');
  });

  it('draws the timestamp: frames differ from the same render without it', async () => {
    const make = async (timestamp: boolean) => {
      const res = await tp.app.inject({
        method: 'POST',
        url: `${base()}/timelapses`,
        headers: owner.auth,
        payload: {
          title: 'ts',
          camera_exid: cameraExid,
          from_date: '2026-11-10T02:00:00Z',
          to_date: '2026-11-10T04:00:00Z',
          duration: 1,
          width: 160,
          timestamp,
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      const item = await waitForStatus(tp, owner.auth, `${base()}/${res.json().id}`);
      expect(item.status, item.error).toBe('completed');
      return sharp(await frameAt((await fetchBytes(item.media_url)).bytes, 'mp4', 0.1))
        .raw()
        .toBuffer();
    };
    const [a, b] = [await make(true), await make(false)];
    // The bottom strip (where the time is drawn) differs a lot; compare its pixels.
    const strip = (buf: Buffer) => buf.subarray(buf.length - 160 * 3 * 20);
    let diff = 0;
    const sa = strip(a);
    const sb = strip(b);
    for (let i = 0; i < sa.length; i++) diff += Math.abs(sa[i]! - sb[i]!);
    expect(diff / sa.length).toBeGreaterThan(5);
  });
});

describe('clip', () => {
  it('renders every frame of the range at the asked frame rate', async () => {
    const res = await tp.app.inject({
      method: 'POST',
      url: `${base()}/clips`,
      headers: owner.auth,
      payload: { title: 'Morning', camera_exid: cameraExid, from_date: '2026-11-10T02:00:00Z', to_date: '2026-11-10T09:00:00Z', fps: 4, width: 80 },
    });
    expect(res.statusCode, res.body).toBe(201);
    const item = await waitForStatus(tp, owner.auth, `${base()}/${res.json().id}`);
    expect(item.status, item.error).toBe('completed');
    expect(item.options.frames).toBe(8); // 02:00 … 09:00 inclusive
    const p = await probe((await fetchBytes(item.media_url)).bytes, 'mp4');
    expect(p).toMatchObject({ codec: 'h264', width: 80, height: 60 });
    expect(p.duration).toBeGreaterThan(1.9); // 8 frames at 4 per second
    expect(p.duration).toBeLessThan(2.2);
  });
});

describe('compare', () => {
  it('renders a GIF and an MP4 from the frames nearest the before and after dates', async () => {
    const res = await tp.app.inject({
      method: 'POST',
      url: `${base()}/compares`,
      headers: owner.auth,
      payload: { title: 'Before/after', camera_exid: cameraExid, before_date: '2026-11-10T03:10:00Z', after_date: '2026-11-10T20:50:00Z', width: 120 },
    });
    expect(res.statusCode, res.body).toBe(201);
    const item = await waitForStatus(tp, owner.auth, `${base()}/compares/${res.json().id}`);
    expect(item.status, item.error).toBe('completed');
    expect(item.options.before_frame).toBe('2026-11-10T03:00:00.000Z');
    expect(item.options.after_frame).toBe('2026-11-10T21:00:00.000Z');
    const mp4 = await fetchBytes(item.media_url);
    const gif = await fetchBytes(item.gif_url);
    expect(gif.type).toBe('image/gif');
    const pm = await probe(mp4.bytes, 'mp4');
    expect(pm).toMatchObject({ codec: 'h264', width: 120, height: 90 });
    const pg = await probe(gif.bytes, 'gif');
    expect(pg).toMatchObject({ codec: 'gif', width: 120, height: 90 });
    expect(pg.frames).toBeGreaterThan(2);
    // The two halves show different frames.
    const [a, b] = [await frameAt(mp4.bytes, 'mp4', 0.3), await frameAt(mp4.bytes, 'mp4', 2.5)];
    const [sa, sb] = [(await sharp(a).stats()).channels[0]!.mean, (await sharp(b).stats()).channels[0]!.mean];
    expect(Math.abs(sa - sb)).toBeGreaterThan(20);
    // A GIF is only for compares.
    const nope = await tp.app.inject({ method: 'GET', url: `/v2/media-hub/${item.id}/file?format=webm`, headers: owner.auth });
    expect(nope.statusCode).toBe(400);
  });
});

describe('failure and retry', () => {
  it('fails with a reason when the range has no frames, and completes on retry once it has', async () => {
    const res = await tp.app.inject({
      method: 'POST',
      url: `${base()}/timelapses`,
      headers: owner.auth,
      payload: { title: 'Later', camera_exid: cameraExid, from_date: '2026-11-12T00:00:00Z', to_date: '2026-11-12T06:00:00Z', duration: 1, width: 64 },
    });
    const id = res.json().id;
    const failed = await waitForStatus(tp, owner.auth, `${base()}/${id}`);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/no recorded frames/);
    expect(failed.media_url).toBeNull();
    const file = await tp.app.inject({ method: 'GET', url: `/v2/media-hub/${id}/file`, headers: owner.auth });
    expect(file.statusCode).toBe(409);
    await storeFrames(tp, cameraExid, [new Date('2026-11-12T01:00:00Z'), new Date('2026-11-12T02:00:00Z')]);
    const retry = await tp.app.inject({ method: 'POST', url: `${base()}/${id}/retry`, headers: owner.auth });
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().status).toBe('pending');
    const done = await waitForStatus(tp, owner.auth, `${base()}/${id}`);
    expect(done.status, done.error).toBe('completed');
    expect(done.attempts).toBe(2);
    // The requester was told both times (the notice follows the status by a moment).
    const notesOf = async () =>
      (await tp.app.inject({ method: 'GET', url: '/v2/notifications', headers: owner.auth })).json().data.filter((n: any) => n.context?.item_id === id);
    const notes = await eventually(async () => {
      const found = await notesOf();
      return found.length >= 2 && found;
    }, 'both notifications');
    expect(notes.map((n: any) => n.type).sort()).toEqual(['timelapse_created', 'timelapse_failed']);
    expect(notes.find((n: any) => n.type === 'timelapse_failed').message).toMatch(/no recorded frames/);
    // Only failed renders are retried.
    const again = await tp.app.inject({ method: 'POST', url: `${base()}/${id}/retry`, headers: owner.auth });
    expect(again.statusCode).toBe(409);
  });

  it('renders again when a timelapse’s options change', async () => {
    const res = await tp.app.inject({
      method: 'POST',
      url: `${base()}/timelapses`,
      headers: owner.auth,
      payload: { title: 'Edit me', camera_exid: cameraExid, from_date: '2026-11-10T02:00:00Z', to_date: '2026-11-10T05:00:00Z', duration: 1, width: 64 },
    });
    const id = res.json().id;
    expect((await waitForStatus(tp, owner.auth, `${base()}/${id}`)).status).toBe('completed');
    const patched = await tp.app.inject({ method: 'PATCH', url: `${base()}/timelapses/${id}`, headers: owner.auth, payload: { duration: 3, width: 128 } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().status).toMatch(/pending|processing/);
    const done = await waitForStatus(tp, owner.auth, `${base()}/${id}`);
    expect(done.status, done.error).toBe('completed');
    const p = await probe((await fetchBytes(done.media_url)).bytes, 'mp4');
    expect(p.width).toBe(128);
    expect(p.duration).toBeGreaterThan(2.8);
    // A title change alone does not render again.
    const renamed = await tp.app.inject({ method: 'PATCH', url: `${base()}/timelapses/${id}`, headers: owner.auth, payload: { title: 'Renamed' } });
    expect(renamed.json()).toMatchObject({ title: 'Renamed', status: 'completed' });
  });
});

describe('restart', () => {
  it('a render interrupted by a stopped server is queued again and completes after the next start', async () => {
    // A first server whose ffmpeg hangs: the render is surely mid-way when the server stops.
    const slow = join(tp.t.dataDir, 'slow-ffmpeg.sh');
    writeFileSync(slow, '#!/bin/sh\nsleep 60\nexec ffmpeg "$@"\n');
    chmodSync(slow, 0o755);
    const mk = (env: Record<string, string>) =>
      buildPlatformApp({
        config: { ...platformConfig({ dataDir: tp.t.dataDir }, { OVERLOOK_RECORDING_LOOP: '0', ...env }), databaseUrl: tp.t.databaseUrl },
        db: tp.t.db,
        logger: false,
      });
    const first = await mk({ OVERLOOK_FFMPEG: slow });
    await first.ready();
    const res = await first.inject({
      method: 'POST',
      url: `${base()}/clips`,
      headers: owner.auth,
      payload: { title: 'Interrupted', camera_exid: cameraExid, from_date: '2026-11-10T02:00:00Z', to_date: '2026-11-10T04:00:00Z', width: 64 },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id;
    const url = `${base()}/${id}`;
    const end = Date.now() + 10_000;
    while ((await first.inject({ method: 'GET', url, headers: owner.auth })).json().status !== 'processing') {
      if (Date.now() > end) throw new Error('never processing');
      await new Promise((r) => setTimeout(r, 50));
    }
    await first.close();
    const row = await tp.t.db.kysely.selectFrom('media_hub_items').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.status).toBe('processing');
    // The next server (real ffmpeg) takes it up again.
    const second = await mk({});
    await second.ready();
    try {
      const end2 = Date.now() + 30_000;
      let item: any;
      for (;;) {
        item = (await second.inject({ method: 'GET', url, headers: owner.auth })).json();
        if (item.status === 'completed' || item.status === 'failed' || Date.now() > end2) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(item.status, item.error).toBe('completed');
      expect(item.attempts).toBe(2);
    } finally {
      await second.close();
    }
  });
});
