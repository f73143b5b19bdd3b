// Recording for real: a `file` device made from a video ffmpeg generates, segments appearing in the
// index and on disk, HLS through token-carrying URIs, snapshots, footage export checked by ffprobe.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecorder, eventually, type TestRecorder } from '../helpers/recorder.js';

let r: TestRecorder;
let deviceId: string;
let admin: { authorization: string };

const probeDuration = (file: string) =>
  Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]).toString().trim());
const chunks = async () => (await r.app.inject({ method: 'GET', url: `/api/recordings/chunks?device_id=${deviceId}&page_size=500`, headers: admin })).json();

beforeAll(async () => {
  r = await buildTestRecorder();
  admin = r.bearer(r.adminToken);
  const res = await r.app.inject({
    method: 'POST',
    url: '/api/devices',
    headers: admin,
    payload: { name: 'Loop', type: 'file', stream_config: { path: r.video } },
  });
  expect(res.statusCode, res.body).toBe(201);
  deviceId = res.json().id;
  // Eight seconds of one-second segments.
  await eventually(async () => (await chunks()).meta.total_count >= 8, 30_000, 'eight segments');
});
afterAll(() => r.close());

describe('devices', () => {
  it('a file device records: state recording, segments indexed with exact times, laid out by date and hour', async () => {
    const device = (await r.app.inject({ method: 'GET', url: `/api/devices/${deviceId}`, headers: admin })).json();
    expect(device).toMatchObject({ type: 'file', state: 'recording', state_reason: null });
    const { data } = await chunks();
    for (let i = 1; i < data.length; i++) {
      // Back to back within one run: each starts where the previous ended.
      if (data[i].run_id === data[i - 1].run_id) expect(data[i].start_date).toBe(data[i - 1].end_date);
    }
    const rows = await r.db.kysely.selectFrom('segments').selectAll().where('device_id', '=', deviceId).execute();
    for (const s of rows) {
      const start = new Date(s.start_date);
      const hour = start.toISOString().slice(0, 13).replace(/[-T]/g, '/');
      expect(s.path).toBe(`${deviceId}/main/${hour}/${start.getTime() * 1000}.ts`);
      expect(existsSync(join(r.config.storageRoot, s.path))).toBe(true);
      // Stream copy of a 10 fps source with a keyframe a second: one-second segments.
      expect(s.duration_ms).toBeGreaterThanOrEqual(900);
      expect(s.duration_ms).toBeLessThanOrEqual(2100);
    }
    const runs = (await r.app.inject({ method: 'GET', url: `/api/devices/${deviceId}/recordings`, headers: admin })).json();
    expect(runs.filter((x: { active: boolean }) => x.active)).toHaveLength(1);
  });

  it('a segment downloads as MPEG-TS that ffprobe reads, with its times in headers', async () => {
    const [first] = (await chunks()).data;
    const res = await r.app.inject({ method: 'GET', url: `/api/devices/${deviceId}/recordings/${first.id}/blob`, headers: r.bearer(r.userToken) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp2t');
    expect(res.headers['x-start-date']).toBe(first.start_date);
    const file = join(r.dir, 'blob.ts');
    writeFileSync(file, res.rawPayload);
    expect(probeDuration(file)).toBeGreaterThan(0.5);
    expect((await r.app.inject({ method: 'GET', url: `/api/devices/${deviceId}/recordings/nope/blob`, headers: admin })).statusCode).toBe(404);
  });

  it('bad device input: 400 naming the field', async () => {
    writeFileSync(join(r.dir, 'not-video.mp4'), 'hello');
    const cases: [object, string][] = [
      [{ name: 'x', type: 'file', stream_config: {} }, 'stream_config.path'],
      [{ name: 'x', type: 'file', stream_config: { path: '/no/such/file.mp4' } }, 'stream_config.path'],
      [{ name: 'x', type: 'file', stream_config: { path: 'relative.mp4' } }, 'stream_config.path'],
      [{ name: 'x', type: 'file', stream_config: { path: join(r.dir, 'not-video.mp4') } }, 'stream_config.path'],
      [{ name: 'x', type: 'ip', stream_config: { stream_uri: 'http://cam/stream' } }, 'stream_config.stream_uri'],
      [{ name: 'x', type: 'ip', stream_config: {} }, 'stream_config.stream_uri'],
      [{ name: 'x', type: 'ip', stream_config: { stream_uri: 'rtsp://cam/1' }, timezone: 'Mars/Base' }, 'timezone'],
      [{ name: 'x', type: 'ip', stream_config: { stream_uri: 'rtsp://cam/1' }, storage_config: { schedule: { funday: ['08:00-09:00'] } } }, 'schedule'],
      [{ name: 'x', type: 'ip', stream_config: { stream_uri: 'rtsp://cam/1' }, storage_config: { recording_mode: 'sometimes' } }, 'recording_mode'],
      [{ name: 'x', type: 'webcam', stream_config: {} }, 'type'],
    ];
    for (const [payload, field] of cases) {
      const res = await r.app.inject({ method: 'POST', url: '/api/devices', headers: admin, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message, JSON.stringify(payload)).toContain(field);
    }
  });

  it('an ip camera that cannot be reached turns failed with the reason, and is retried', async () => {
    const res = await r.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: admin,
      payload: {
        name: 'Dead cam',
        type: 'ip',
        stream_config: { stream_uri: 'rtsp://127.0.0.1:9/stream' },
        credentials: { username: 'u', password: 'secret-pw' },
      },
    });
    expect(res.statusCode).toBe(201);
    expect(res.body).not.toContain('secret-pw');
    const id = res.json().id;
    const failed = await eventually(
      async () => {
        const d = (await r.app.inject({ method: 'GET', url: `/api/devices/${id}`, headers: admin })).json();
        return d.state === 'failed' ? d : undefined;
      },
      20_000,
      'failed state',
    );
    expect(failed.state_reason).toMatch(/refused|reached|ffmpeg/);
    expect((await r.app.inject({ method: 'DELETE', url: `/api/devices/${id}`, headers: admin })).statusCode).toBe(204);
  });

  it('recording_mode never stops recording; always starts it again', async () => {
    const res = await r.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: admin,
      payload: { name: 'Paused', type: 'file', stream_config: { path: r.video }, storage_config: { recording_mode: 'never' } },
    });
    const id = res.json().id;
    expect((await r.app.inject({ method: 'GET', url: `/api/devices/${id}`, headers: admin })).json().state).toBe('stopped');
    await r.app.inject({ method: 'PUT', url: `/api/devices/${id}`, headers: admin, payload: { storage_config: { recording_mode: 'always' } } });
    await eventually(
      async () => (await r.app.inject({ method: 'GET', url: `/api/devices/${id}`, headers: admin })).json().state === 'recording',
      20_000,
      'recording',
    );
    await r.app.inject({ method: 'PUT', url: `/api/devices/${id}`, headers: admin, payload: { storage_config: { recording_mode: 'never' } } });
    expect((await r.app.inject({ method: 'GET', url: `/api/devices/${id}`, headers: admin })).json().state).toBe('stopped');
    expect((await r.app.inject({ method: 'DELETE', url: `/api/devices/${id}`, headers: admin })).statusCode).toBe(204);
  });
});

describe('HLS', () => {
  it('live: a rolling window whose every URI carries the token and plays; segments without a valid token are 401', async () => {
    const res = await r.app.inject({ method: 'GET', url: `/api/devices/${deviceId}/hls/index.m3u8?token=${r.userToken}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/vnd.apple.mpegurl');
    const lines = res.body.split('\n');
    expect(lines).not.toContain('#EXT-X-ENDLIST');
    const uris = lines.filter((l) => l && !l.startsWith('#'));
    expect(uris.length).toBe(r.config.liveWindow);
    for (const uri of uris) {
      expect(uri).toContain(`token=${encodeURIComponent(r.userToken)}`);
      const seg = await r.app.inject({ method: 'GET', url: `/api/devices/${deviceId}/hls/${uri}` });
      expect(seg.statusCode, uri).toBe(200);
      expect(seg.headers['content-type']).toBe('video/mp2t');
    }
    const bare = uris[0]!.split('?')[0];
    expect((await r.app.inject({ method: 'GET', url: `/api/devices/${deviceId}/hls/${bare}` })).statusCode).toBe(401);
    expect((await r.app.inject({ method: 'GET', url: `/api/devices/${deviceId}/hls/${bare}?token=ort_${'x'.repeat(43)}` })).statusCode).toBe(401);
    // A header works too, and the playlist then carries that token.
    const byHeader = await r.app.inject({ method: 'GET', url: `/api/devices/${deviceId}/hls/index.m3u8`, headers: admin });
    expect(byHeader.body).toContain(`token=${encodeURIComponent(r.adminToken)}`);
  });

  it('playback from a position: a finished playlist starting there, that ffmpeg can read through its URIs', async () => {
    const { data } = await chunks();
    const pos = new Date(Date.parse(data[2].start_date) + 300).toISOString();
    const res = await r.app.inject({ method: 'GET', url: `/api/devices/${deviceId}/hls/index.m3u8?pos=${pos}&token=${r.userToken}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('#EXT-X-ENDLIST');
    expect(res.body).toMatch(/#EXT-X-START:TIME-OFFSET=0\.3/);
    expect(res.body).toContain(`#EXT-X-PROGRAM-DATE-TIME:${data[2].start_date}`);
    // A real player over real HTTP: ffprobe follows the playlist's URIs with nothing but what they carry.
    await r.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (r.app.server.address() as { port: number }).port;
    const url = `http://127.0.0.1:${port}/api/devices/${deviceId}/hls/index.m3u8?pos=${encodeURIComponent(pos)}&token=${encodeURIComponent(r.userToken)}`;
    // Asynchronously: a synchronous child would block the very server it is asking.
    // ffmpeg copies the whole playlist through to one file: every segment URI was fetched with its token.
    const copied = join(r.dir, 'played.ts');
    await promisify(execFile)('ffmpeg', ['-v', 'error', '-y', '-i', url, '-map', '0:v:0', '-c', 'copy', copied]);
    const listed = res.body.split('\n').filter((l) => l.startsWith('#EXTINF')).length;
    expect(probeDuration(copied)).toBeGreaterThan(listed - 1.5);
    expect((await r.app.inject({ method: 'GET', url: `/api/devices/${deviceId}/hls/index.m3u8?pos=yesterday&token=${r.userToken}` })).statusCode).toBe(400);
    expect(
      (await r.app.inject({ method: 'GET', url: `/api/devices/${deviceId}/hls/index.m3u8?pos=2999-01-01T00:00:00Z&token=${r.userToken}` })).statusCode,
    ).toBe(404);
  });
});

describe('snapshots', () => {
  it('live, and at a time (keyframe before, or the precise frame), JPEG with the frame time', async () => {
    const live = await r.app.inject({ method: 'GET', url: `/api/devices/${deviceId}/snapshot?token=${r.userToken}` });
    expect(live.statusCode, live.body).toBe(200);
    expect(live.headers['content-type']).toBe('image/jpeg');
    expect(live.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    const { data } = await chunks();
    const seg = data[3];
    const t = new Date(Date.parse(seg.start_date) + 500);
    const precise = await r.app.inject({ method: 'GET', url: `/api/devices/${deviceId}/snapshot?time=${t.toISOString()}&method=precise`, headers: admin });
    expect(precise.statusCode, precise.body).toBe(200);
    expect(precise.headers['x-timestamp']).toBe(t.toISOString());
    const before = await r.app.inject({ method: 'GET', url: `/api/devices/${deviceId}/snapshot?time=${t.toISOString()}`, headers: admin });
    expect(before.statusCode).toBe(200);
    // A keyframe a second: the one before 0.5 s into a one-second segment is its first frame.
    expect(before.headers['x-timestamp']).toBe(seg.start_date);
    expect((await r.app.inject({ method: 'GET', url: `/api/devices/${deviceId}/snapshot?time=2001-01-01T00:00:00Z`, headers: admin })).statusCode).toBe(404);
    expect((await r.app.inject({ method: 'GET', url: `/api/devices/${deviceId}/snapshot?time=soon`, headers: admin })).statusCode).toBe(400);
    expect((await r.app.inject({ method: 'GET', url: `/api/devices/${deviceId}/snapshot?method=guess`, headers: admin })).statusCode).toBe(400);
  });
});

describe('footage export', () => {
  it('an MP4 clip of the asked length from the keyframe before the start, true start in x-start-date, streamed with nothing written to disk', async () => {
    const { data } = await chunks();
    const start = new Date(Date.parse(data[1].start_date) + 400);
    const res = await r.app.inject({
      method: 'GET',
      url: `/api/devices/${deviceId}/footage?start_date=${start.toISOString()}&duration=5`,
      headers: r.bearer(r.userToken),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.headers['x-start-date']).toBe(data[1].start_date);
    const file = join(r.dir, 'clip.mp4');
    writeFileSync(file, res.rawPayload);
    const d = probeDuration(file);
    // From the keyframe 0.4 s before the start to the end: 5.4 s, give or take a frame.
    expect(d).toBeGreaterThan(5.2);
    expect(d).toBeLessThan(5.7);
    // Fragmented MP4 that every frame of decodes.
    execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-']);

    const end = new Date(start.getTime() + 6000).toISOString();
    const byEnd = await r.app.inject({
      method: 'GET',
      url: `/api/devices/${deviceId}/footage?start_date=${start.toISOString()}&end_date=${end}`,
      headers: admin,
    });
    expect(byEnd.statusCode).toBe(200);
  });

  it('over real HTTP with curl: the same headers, streamed without a length, a clip ffprobe reads in full', async () => {
    if (!r.app.server.listening) await r.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (r.app.server.address() as { port: number }).port;
    const { data } = await chunks();
    const start = new Date(Date.parse(data[1].start_date) + 400);
    const file = join(r.config.dataDir, 'direct.mp4');
    // curl, as a person downloads it: it fails on a reset connection, so a clean exit means a clean end.
    const { stdout } = await promisify(execFile)('curl', [
      '-sS',
      '-D',
      '-',
      '-o',
      file,
      '-H',
      `authorization: ${admin.authorization}`,
      `http://127.0.0.1:${port}/api/devices/${deviceId}/footage?start_date=${start.toISOString()}&duration=5`,
    ]);
    expect(stdout).toMatch(/^HTTP\/1\.1 200 OK/);
    const head = stdout.toLowerCase();
    expect(head).toContain('content-type: video/mp4');
    expect(head).toMatch(/x-start-date: \d{4}-/);
    // ffmpeg wrote into the socket itself: the body ends with the connection, no length, no chunks.
    expect(head).toContain('connection: close');
    expect(head).not.toContain('transfer-encoding');
    expect(head).not.toContain('content-length');
    const probe = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]).toString();
    expect(Number(probe)).toBeGreaterThan(5.2);
    expect(Number(probe)).toBeLessThan(5.7);
    execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-']);

    // A client that reads to the connection's end (fetch) gets the same clip, and the server stays up.
    const res = await fetch(`http://127.0.0.1:${port}/api/devices/${deviceId}/footage?start_date=${start.toISOString()}&duration=5`, { headers: admin });
    expect(res.status).toBe(200);
    const fetched = join(r.config.dataDir, 'fetched.mp4');
    writeFileSync(fetched, Buffer.from(await res.arrayBuffer()));
    expect(probeDuration(fetched)).toBeCloseTo(Number(probe), 1);
    expect((await fetch(`http://127.0.0.1:${port}/api/system/status`, { headers: admin })).status).toBe(200);
  });

  it("from a segment's first frame: starts there exactly, with no keyframe probe needed", async () => {
    const { data } = await chunks();
    const res = await r.app.inject({ method: 'GET', url: `/api/devices/${deviceId}/footage?start_date=${data[1].start_date}&duration=5`, headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-start-date']).toBe(data[1].start_date);
    const file = join(r.dir, 'aligned.mp4');
    writeFileSync(file, res.rawPayload);
    expect(probeDuration(file)).toBeGreaterThan(4.8);
    expect(probeDuration(file)).toBeLessThan(5.3);
  });

  it('a segment that vanished from disk mid-export is a failed download, never a short clip passed off as whole', async () => {
    if (!r.app.server.listening) await r.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (r.app.server.address() as { port: number }).port;
    const { data } = await chunks();
    const gone = join(
      r.config.storageRoot,
      (await r.db.kysely.selectFrom('segments').select('path').where('id', '=', data[3].id).executeTakeFirstOrThrow()).path,
    );
    renameSync(gone, `${gone}.away`);
    try {
      const url = `/api/devices/${deviceId}/footage?start_date=${data[0].start_date}&duration=6`;
      // Real HTTP (ffmpeg writes into the socket): curl sees the connection reset, and says so.
      const curl = await promisify(execFile)('curl', [
        '-sS',
        '-o',
        join(r.dir, 'cut.mp4'),
        '-H',
        `authorization: ${admin.authorization}`,
        `http://127.0.0.1:${port}${url}`,
      ]).then(
        () => 0,
        (e: { code: number }) => e.code,
      );
      expect(curl).not.toBe(0);
      // Through a pipe (inject): the body errors instead of ending.
      await expect(r.app.inject({ method: 'GET', url, headers: admin }).then((res) => res.statusCode)).rejects.toThrow();
    } finally {
      renameSync(`${gone}.away`, gone);
    }
  });

  it('a client that goes away stops the export: no ffmpeg is left running for it', async () => {
    const exporters = () =>
      readdirSync('/proc')
        .filter((p) => /^\d+$/.test(p))
        .filter((p) => {
          try {
            return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('frag_keyframe');
          } catch {
            return false;
          }
        });
    if (!r.app.server.listening) await r.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (r.app.server.address() as { port: number }).port;
    const { data } = await chunks();
    const ctrl = new AbortController();
    const res = await fetch(`http://127.0.0.1:${port}/api/devices/${deviceId}/footage?start_date=${data[0].start_date}&duration=7200`, {
      headers: admin,
      signal: ctrl.signal,
    });
    expect(res.status).toBe(200);
    ctrl.abort();
    await eventually(async () => exporters().length === 0, 5000, 'the export ffmpeg to stop');
  });

  it('clear 400s outside 5 s to 2 h and for bad parameters; 404 where nothing was recorded', async () => {
    const s = new Date(Date.now() - 60_000).toISOString();
    const cases: [string, string][] = [
      [`start_date=${s}&duration=4`, 'duration'],
      [`start_date=${s}&duration=7201`, 'duration'],
      [`start_date=${s}&end_date=${new Date(Date.parse(s) + 3 * 3600_000).toISOString()}`, 'end_date'],
      [`start_date=${s}&end_date=${new Date(Date.parse(s) - 10_000).toISOString()}`, 'end_date'],
      [`start_date=${s}`, 'end_date'],
      [`start_date=${s}&duration=10&end_date=${s}`, 'end_date'],
      [`start_date=noon&duration=10`, 'start_date'],
      [`duration=10`, 'start_date'],
      [`start_date=${s}&duration=ten`, 'duration'],
    ];
    for (const [q, field] of cases) {
      const res = await r.app.inject({ method: 'GET', url: `/api/devices/${deviceId}/footage?${q}`, headers: admin });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().message, q).toContain(field);
    }
    const none = await r.app.inject({ method: 'GET', url: `/api/devices/${deviceId}/footage?start_date=2001-01-01T00:00:00Z&duration=60`, headers: admin });
    expect(none.statusCode).toBe(404);
  });
});

describe('system status', () => {
  it('reports the devices and the storage disk', async () => {
    const res = await r.app.inject({ method: 'GET', url: '/api/system/status', headers: r.bearer(r.userToken) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.storage.total).toBeGreaterThan(0);
    expect(body.devices.find((d: { id: string }) => d.id === deviceId)).toMatchObject({ state: 'recording', ffmpeg_pid: expect.any(Number) });
  });
});
