// A live snapshot comes from the live HLS output within seconds of adding a device, with 60 s recording
// segments and nothing recorded yet; with the live view off it comes from the recording, as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecorder, eventually, type TestRecorder } from '../../helpers/recorder.js';

const recorders: TestRecorder[] = [];
afterAll(() => Promise.all(recorders.map((r) => r.close())));

async function recorderWithDevice(env: Record<string, string>) {
  const r = await buildTestRecorder(env);
  recorders.push(r);
  const admin = r.bearer(r.adminToken);
  const res = await r.app.inject({
    method: 'POST',
    url: '/api/devices',
    headers: admin,
    payload: { name: 'Site', type: 'file', stream_config: { path: r.video } },
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as string;
  const snapshot = () => r.app.inject({ method: 'GET', url: `/api/devices/${id}/snapshot?token=${r.userToken}` });
  const chunks = async () =>
    (await r.app.inject({ method: 'GET', url: `/api/recordings/chunks?device_id=${id}`, headers: admin })).json().meta.total_count as number;
  return { r, id, snapshot, chunks };
}

describe('live snapshot', () => {
  let live: Awaited<ReturnType<typeof recorderWithDevice>>;
  beforeAll(async () => {
    live = await recorderWithDevice({ OVERLOOK_RECORDER_SEGMENT_SECONDS: '60' });
  });

  it('answers from the newest live segment within 10 s of adding the device, before anything is recorded', async () => {
    const shot = await eventually(
      async () => {
        const res = await live.snapshot();
        return res.statusCode === 200 ? res : undefined;
      },
      10_000,
      'a live snapshot',
    );
    expect(shot.headers['content-type']).toBe('image/jpeg');
    expect(shot.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // Taken from the live view: the first 60 s recording segment is not there yet.
    expect(await live.chunks()).toBe(0);
    // The frame time is the live segment's own date: seconds ago, not a recording's.
    const at = Date.parse(shot.headers['x-timestamp'] as string);
    expect(Math.abs(Date.now() - at)).toBeLessThan(30_000);
  });

  it('later snapshots follow the live picture', async () => {
    const first = Date.parse((await live.snapshot()).headers['x-timestamp'] as string);
    await eventually(async () => Date.parse((await live.snapshot()).headers['x-timestamp'] as string) > first, 10_000, 'a newer live frame');
  });
});

describe('without the live view', () => {
  it('answers from the newest recorded segment, as before', async () => {
    const { r, id, snapshot } = await recorderWithDevice({ OVERLOOK_RECORDER_SEGMENT_SECONDS: '1', OVERLOOK_RECORDER_LIVE: 'off' });
    const shot = await eventually(
      async () => {
        const res = await snapshot();
        if (res.statusCode !== 404) return res;
      },
      20_000,
      'a recorded snapshot',
    );
    expect(shot.statusCode, shot.body).toBe(200);
    // Half a second before the end of a recorded segment.
    const at = Date.parse(shot.headers['x-timestamp'] as string);
    const segments = await r.app.recorder.index.latest(id, 'main', 100);
    expect(segments.some((s) => Math.abs(Date.parse(s.start_date) + s.duration_ms - 500 - at) <= 2)).toBe(true);
  });
});
