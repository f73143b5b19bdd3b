// The live HLS view is fed by the device's own ffmpeg, apart from the recording: with 60 s recording
// segments, a playable playlist of short segments comes within seconds of adding a device, long
// before the first recording segment exists; a file with keyframes far apart is re-encoded for it.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecorder, eventually, type TestRecorder } from '../../helpers/recorder.js';

let r: TestRecorder;
let admin: { authorization: string };

const addDevice = async (path: string) => {
  const res = await r.app.inject({ method: 'POST', url: '/api/devices', headers: admin, payload: { name: 'Live', type: 'file', stream_config: { path } } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
};
const playlist = (id: string) => r.app.inject({ method: 'GET', url: `/api/devices/${id}/hls/index.m3u8?token=${r.userToken}` });
const durations = (m3u8: string) => [...m3u8.matchAll(/#EXTINF:([0-9.]+),/g)].map((m) => Number(m[1]));

beforeAll(async () => {
  r = await buildTestRecorder({ OVERLOOK_RECORDER_SEGMENT_SECONDS: '60' });
  admin = r.bearer(r.adminToken);
});
afterAll(() => r.close());

describe('live HLS', () => {
  it('a playable playlist of short segments within seconds of adding a device, while the recording has no segment yet', async () => {
    const t0 = Date.now();
    const id = await addDevice(r.video);
    const first = await eventually(
      async () => {
        const res = await playlist(id);
        return res.statusCode === 200 ? res : undefined;
      },
      10_000,
      'a live playlist',
    );
    // The contract says 10 s; on an idle machine it is about 1.5 s (docs/recorder.md).
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(first.headers['content-type']).toContain('application/vnd.apple.mpegurl');
    expect(first.headers['cache-control']).toBe('no-store');
    expect(Number(/#EXT-X-TARGETDURATION:(\d+)/.exec(first.body)?.[1])).toBeLessThanOrEqual(4);
    expect(first.body).not.toContain('#EXT-X-ENDLIST');
    // Nothing recorded yet: the live view does not wait for a 60 s recording segment.
    const chunks = (await r.app.inject({ method: 'GET', url: `/api/recordings/chunks?device_id=${id}`, headers: admin })).json();
    expect(chunks.meta.total_count).toBe(0);

    const uris = first.body.split('\n').filter((l) => l && !l.startsWith('#'));
    expect(uris.length).toBeGreaterThan(0);
    for (const uri of uris) {
      expect(uri).toMatch(new RegExp(`^segments/live-\\d+\\.ts\\?token=${r.userToken}$`));
      const seg = await r.app.inject({ method: 'GET', url: `/api/devices/${id}/hls/${uri}` });
      expect(seg.statusCode, uri).toBe(200);
      expect(seg.headers['content-type']).toBe('video/mp2t');
      expect(seg.rawPayload[0]).toBe(0x47); // an MPEG-TS sync byte
      // Without a token: 401, like every media URL.
      expect((await r.app.inject({ method: 'GET', url: `/api/devices/${id}/hls/${uri.split('?')[0]}` })).statusCode).toBe(401);
    }
    for (const d of durations(first.body)) expect(d).toBeLessThanOrEqual(2.1);
    expect((await r.app.inject({ method: 'GET', url: `/api/devices/${id}/hls/segments/live-1.ts?token=${r.userToken}` })).statusCode).toBe(404);

    // It rolls: newer segments come, the window stays short.
    const later = await eventually(
      async () => {
        const res = await playlist(id);
        return res.body.split('\n').find((l) => l.startsWith('segments/')) !== uris[0] ? res : undefined;
      },
      10_000,
      'the live window to roll',
    );
    expect(durations(later.body).length).toBeLessThanOrEqual(r.config.liveWindow);

    // Stopped: no live picture (404), not a frozen one.
    await r.app.inject({ method: 'PUT', url: `/api/devices/${id}`, headers: admin, payload: { storage_config: { recording_mode: 'never' } } });
    const gone = await playlist(id);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('NOT_FOUND');
    await r.app.inject({ method: 'DELETE', url: `/api/devices/${id}`, headers: admin });
  });

  it('a file whose keyframes are 10 s apart still gives live segments of about a second (re-encoded for it)', async () => {
    const sparse = join(dirname(r.video), 'sparse-keyframes.mp4');
    execFileSync('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=10', '-t', '12'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '100', '-pix_fmt', 'yuv420p', sparse],
    ]);
    const id = await addDevice(sparse);
    const res = await eventually(
      async () => {
        const p = await playlist(id);
        return p.statusCode === 200 && durations(p.body).length >= 2 ? p : undefined;
      },
      15_000,
      'two live segments',
    );
    for (const d of durations(res.body)) expect(d).toBeLessThanOrEqual(2.1);
    await r.app.inject({ method: 'DELETE', url: `/api/devices/${id}`, headers: admin });
  });

  it('unknown device 404; a bad live segment name 400', async () => {
    expect((await playlist('no-such-device')).statusCode).toBe(404);
    expect((await r.app.inject({ method: 'GET', url: `/api/devices/x/hls/segments/live-abc.ts?token=${r.userToken}` })).statusCode).toBe(400);
  });
});
