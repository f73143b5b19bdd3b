// A file device with its plate reader switched on: its looped video of passing vehicles gives one LPR
// event per vehicle (not one per frame), with the plate crop, the camera's direction and the
// watch-list match of a near miss; bad settings are refused and change nothing.
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecorder, type TestRecorder } from '../../helpers/recorder.js';
import { LAYOUTS_PATTERN, LEVELS, plates, plateVideo } from './plate-video.js';

let r: TestRecorder;
let admin: { authorization: string };
let video: string;
const want = plates(3).map((p) => p.plate);

beforeAll(async () => {
  r = await buildTestRecorder();
  admin = r.bearer(r.adminToken);
  video = join(r.config.mediaDir, 'gate.mp4');
  copyFileSync(plateVideo(LEVELS[0] as (typeof LEVELS)[number], 3), video);
});
afterAll(() => r.close());

async function until<T>(what: () => Promise<T | undefined>, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((res) => setTimeout(res, 250));
  }
}

describe('plate reader on a device', () => {
  it('stores one LPR event per passing vehicle, with its plate image and watch-list match', async () => {
    // The first vehicle's plate with its last character changed: a near miss of the watch list.
    const near = `${want[0]?.slice(0, -1)}${want[0]?.endsWith('Q') ? 'R' : 'Q'}`;
    const res = await r.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: admin,
      payload: {
        name: 'Gate in',
        type: 'file',
        stream_config: { path: video },
        storage_config: { recording_mode: 'never' },
        plate_reader: {
          enabled: true,
          pattern: LAYOUTS_PATTERN,
          frame_width: 480,
          direction: 'in',
          watch_list: [{ plate: near, list_type: 'white', label: 'Concrete Co' }],
        },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const device = res.json();
    expect(device.plate_reader).toMatchObject({ enabled: true, direction: 'in', watch_list: [{ plate: near, label: 'Concrete Co' }] });

    const events = await until(async () => {
      const list = await r.app.inject({ method: 'GET', url: `/api/events/lpr?device_id=${device.id}`, headers: admin });
      const data = list.json().data as { plate_number: string }[];
      return data.length >= 3 ? data : undefined;
    }, 120_000);
    // The loop takes 12 s: by the third event each vehicle has passed once.
    const first3 = events.slice(-3).reverse();
    expect(first3.map((e) => e.plate_number)).toEqual(want);
    const e0 = first3[0] as unknown as Record<string, unknown> & { metadata: Record<string, unknown> };
    expect(e0).toMatchObject({ direction: 'in', list_type: 'white', has_plate_image: true });
    expect(e0.metadata).toMatchObject({ source: 'plate_reader', watch_match: { plate: near, label: 'Concrete Co', distance: 1 } });
    expect(e0.metadata.reads as number).toBeGreaterThanOrEqual(1);
    const stored = await r.db.kysely
      .selectFrom('lpr_events')
      .select('plate_image')
      .where('id', '=', e0.id as string)
      .executeTakeFirstOrThrow();
    const crop = await sharp(readFileSync(join(r.config.storageRoot, stored.plate_image ?? ''))).metadata();
    expect(crop.format).toBe('jpeg');
    // A plate crop, not the whole frame.
    expect(crop.width).toBeLessThan(240);
    expect(first3[1]).toMatchObject({ list_type: null });

    // Switched off: the reader stops and no more events come.
    const off = await r.app.inject({ method: 'PUT', url: `/api/devices/${device.id}`, headers: admin, payload: { plate_reader: { enabled: false } } });
    expect(off.statusCode).toBe(200);
    expect(r.app.recorder.plates.running()).toEqual([]);
    expect(existsSync(join(r.config.dataDir, 'plates', device.id))).toBe(false);
  });

  it('refuses bad settings with a 400 naming the field, and keeps the stored ones', async () => {
    const res = await r.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: admin,
      payload: {
        name: 'Gate out',
        type: 'file',
        stream_config: { path: video },
        storage_config: { recording_mode: 'never' },
        plate_reader: { enabled: false, country: 'GB' },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as string;
    for (const plate_reader of [
      { enabled: true, pattern: '([A-Z' },
      { enabled: true, fps: 100 },
      { enabled: true, country: 'XX' },
      { enabled: true, watch_list: [{ plate: '--' }] },
      { enabled: true, colour: 'red' },
    ]) {
      const bad = await r.app.inject({ method: 'PUT', url: `/api/devices/${id}`, headers: admin, payload: { plate_reader } });
      expect(bad.statusCode, JSON.stringify(plate_reader)).toBe(400);
      expect(bad.json().code).toBe('VALIDATION_ERROR');
    }
    const after = await r.app.inject({ method: 'GET', url: `/api/devices/${id}`, headers: admin });
    expect(after.json().plate_reader).toMatchObject({ enabled: false, country: 'GB', pattern: null, fps: 2 });
    expect(r.app.recorder.plates.running().map((p) => p.deviceId)).not.toContain(id);
  });
});
