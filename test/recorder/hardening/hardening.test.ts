// The recorder's hardening (docs/recorder.md, Hardening): /health, sign-in throttling, strict times,
// file devices confined to the media folder, secrets sealed at rest with private files, and no 5xx
// for any input.
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRecorderApp } from '../../../src/recorder/app.js';
import { RECORDER_SECRET_KEY_FILE } from '../../../src/recorder/config.js';
import { buildTestRecorder, makeTestVideo, type TestRecorder } from '../../helpers/recorder.js';

let r: TestRecorder;
let admin: { authorization: string };
let fileDevice: string;

const addDevice = (payload: Record<string, unknown>) => r.app.inject({ method: 'POST', url: '/api/devices', headers: admin, payload });
const fileSource = (path: string) => ({ name: 'Loop', type: 'file', stream_config: { path }, storage_config: { recording_mode: 'never' } });

beforeAll(async () => {
  r = await buildTestRecorder();
  admin = r.bearer(r.adminToken);
  const res = await addDevice(fileSource(r.video));
  expect(res.statusCode, res.body).toBe(201);
  fileDevice = res.json().id;
});
afterAll(() => r?.close());

describe('health', () => {
  it('GET /health answers 200 {"status":"ok"} without a token', async () => {
    const res = await r.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });
});

describe('file devices play only from the media folder', () => {
  it('refuses a path outside it with one answer, whether the file exists or not', async () => {
    const outside = makeTestVideo(r.dir, 2, 'outside.mp4');
    const answers = [];
    for (const path of [outside, join(r.dir, 'missing.mp4'), '/etc/hostname', '/etc/no-such-file', join(r.config.mediaDir, '..', 'outside.mp4')]) {
      const res = await addDevice(fileSource(path));
      expect(res.statusCode, path).toBe(400);
      // Each answer names its own request (request_id); the rest must not differ.
      const { request_id: _id, ...answer } = res.json();
      answers.push(answer);
    }
    expect(answers[0]).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'stream_config.path' }] });
    for (const a of answers) expect(a).toEqual(answers[0]);
  });

  it('refuses a symlink inside the folder that leads out of it, like any path outside', async () => {
    const link = join(r.config.mediaDir, 'link.mp4');
    symlinkSync(join(r.dir, 'outside.mp4'), link);
    const res = await addDevice(fileSource(link));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/inside the media folder/);
  });

  it('does not play a file that later became a link out of the folder', async () => {
    const file = join(r.config.mediaDir, 'later.mp4');
    copyFileSync(r.video, file);
    const id = (await addDevice(fileSource(file))).json().id as string;
    expect((await r.app.recorder.devices.source(id))?.input).toBe(file);
    rmSync(file);
    symlinkSync(join(r.dir, 'outside.mp4'), file);
    expect(await r.app.recorder.devices.source(id)).toBeNull();
  });

  it('says plainly when a file inside the folder does not exist, and accepts a video there', async () => {
    const res = await addDevice(fileSource(join(r.config.mediaDir, 'nope.mp4')));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/no such file in the media folder/);
    expect((await addDevice(fileSource(r.video))).statusCode).toBe(201);
  });

  it('refuses a source that is no video: a still image, an audio file, a text file', async () => {
    const dir = r.config.mediaDir;
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=64x64', '-frames:v', '1', join(dir, 'still.png')]);
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=64x64', '-frames:v', '1', join(dir, 'still.jpg')]);
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine', '-t', '1', join(dir, 'tone.mp3')]);
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    for (const f of ['still.png', 'still.jpg', 'tone.mp3', 'notes.txt']) {
      const res = await addDevice(fileSource(join(dir, f)));
      expect(res.statusCode, f).toBe(400);
      expect(res.json().details[0].field).toBe('stream_config.path');
    }
  });
});

describe('secrets at rest', () => {
  const PASSWORD = 'Cam-Pa55word-in-plain';
  const S3_SECRET = 'S3-secret-access-key-plain';
  const HEADER = 'Bearer header-value-plain';

  const dbBytes = () =>
    ['recorder.sqlite', 'recorder.sqlite-wal']
      .map((f) => {
        try {
          return readFileSync(join(r.config.dataDir, f)).toString('latin1');
        } catch {
          return '';
        }
      })
      .join('');

  it('keeps camera passwords and remote-storage secrets sealed in the database; the API answers as before', async () => {
    const cam = await addDevice({
      name: 'Gate cam',
      type: 'ip',
      stream_config: { stream_uri: 'rtsp://127.0.0.1:1/stream' },
      credentials: { username: 'viewer', password: PASSWORD },
      storage_config: { recording_mode: 'never' },
    });
    expect(cam.statusCode, cam.body).toBe(201);
    expect(cam.json().credentials).toEqual({ username: 'viewer', has_password: true });
    const storage = await r.app.inject({
      method: 'POST',
      url: '/api/remote_storages',
      headers: admin,
      payload: {
        name: 'Bucket',
        type: 's3',
        url: 'https://s3.example.com',
        config: { bucket: 'site-bucket', access_key_id: 'AKIA1', secret_access_key: S3_SECRET },
      },
    });
    expect(storage.statusCode, storage.body).toBe(201);
    expect(storage.json().config).toMatchObject({ bucket: 'site-bucket', access_key_id: 'AKIA1', has_secret: true });
    const hook = await r.app.inject({
      method: 'POST',
      url: '/api/remote_storages',
      headers: admin,
      payload: { name: 'Hook', type: 'http', url: 'https://upload.example.com', config: { headers: { authorization: HEADER } } },
    });
    expect(hook.json().config).toMatchObject({ has_secret: false, header_names: ['authorization'] });
    // The recorder still uses the password it was given.
    expect((await r.app.recorder.devices.source(cam.json().id))?.password).toBe(PASSWORD);
    const bytes = dbBytes();
    for (const secret of [PASSWORD, S3_SECRET, HEADER]) expect(bytes.includes(secret), secret).toBe(false);
  });

  it('seals rows stored in plaintext before, at start, once', async () => {
    const id = 'legacy-device';
    const now = new Date().toISOString();
    await r.db.kysely
      .insertInto('devices')
      .values({
        id,
        name: 'Legacy',
        type: 'ip',
        timezone: 'UTC',
        state: 'stopped',
        state_reason: null,
        stream_config: JSON.stringify({ stream_uri: 'rtsp://127.0.0.1:1/old' }),
        credentials: JSON.stringify({ username: 'old', password: PASSWORD }),
        storage_config: JSON.stringify({ recording_mode: 'never' }),
        share_with_platform: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await r.db.kysely
      .insertInto('remote_storages')
      .values({
        id: 'legacy-storage',
        name: 'Old',
        type: 's3',
        url: 'https://s3.example.com',
        config: JSON.stringify({ bucket: 'x', secret_access_key: S3_SECRET }),
        created_at: now,
        updated_at: now,
      })
      .execute();
    // A restart: the same database opened by a new app.
    const again = await buildRecorderApp({ config: r.config, db: r.db, logger: false });
    await again.close();
    const sealed = await r.db.kysely.selectFrom('devices').select('credentials').where('id', '=', id).executeTakeFirstOrThrow();
    expect(sealed.credentials).toMatch(/^sealed:v1\./);
    expect(await r.app.recorder.secrets.sealPlaintextRows(r.db)).toBe(0);
    const after = await r.db.kysely.selectFrom('devices').select('credentials').where('id', '=', id).executeTakeFirstOrThrow();
    expect(after.credentials).toBe(sealed.credentials);
    const device = await r.app.inject({ method: 'GET', url: `/api/devices/${id}`, headers: admin });
    expect(device.json().credentials).toEqual({ username: 'old', has_password: true });
    const storage = await r.app.inject({ method: 'GET', url: '/api/remote_storages/legacy-storage', headers: admin });
    expect(storage.json().config).toMatchObject({ bucket: 'x', has_secret: true });
    await r.db.kysely.deleteFrom('devices').where('id', '=', id).execute();
    expect(dbBytes().includes(PASSWORD)).toBe(false);
    expect(dbBytes().includes(S3_SECRET)).toBe(false);
  });

  it('keeps the database, its WAL and the key file private (0600) in a private data dir (0700)', () => {
    const mode = (f: string) => statSync(join(r.config.dataDir, f)).mode & 0o777;
    expect(statSync(r.config.dataDir).mode & 0o777).toBe(0o700);
    for (const f of ['recorder.sqlite', 'recorder.sqlite-wal', 'recorder.sqlite-shm', RECORDER_SECRET_KEY_FILE]) expect(mode(f), f).toBe(0o600);
  });
});

describe('strict client times', () => {
  const BAD = ['2026-02-30T10:00:00Z', '12/25/2026', '1', '2026-05-01'];

  it('refuses a time that is not an exact RFC 3339 date-time, naming the field', async () => {
    const token = (await r.app.inject({ method: 'POST', url: `/api/devices/${fileDevice}/webhook-tokens`, headers: admin, payload: { name: 't' } })).json()
      .token as string;
    for (const bad of BAD) {
      const q = encodeURIComponent(bad);
      const asks: [string, string, Record<string, unknown> | undefined, string][] = [
        ['GET', `/api/recordings/chunks?start_date=${q}`, undefined, 'start_date'],
        ['GET', `/api/devices/${fileDevice}/recordings?end_date=${q}`, undefined, 'end_date'],
        ['GET', `/api/devices/${fileDevice}/footage?start_date=${q}&duration=10`, undefined, 'start_date'],
        ['GET', `/api/devices/${fileDevice}/snapshot?time=${q}`, undefined, 'time'],
        ['GET', `/api/devices/${fileDevice}/hls/index.m3u8?pos=${q}`, undefined, 'pos'],
        ['GET', `/api/events?start_date=${q}`, undefined, 'start_date'],
        ['GET', `/api/events/lpr?end_date=${q}`, undefined, 'end_date'],
        ['POST', `/api/devices/${fileDevice}/events?token=${token}`, { time: bad }, 'time'],
        ['POST', `/api/devices/${fileDevice}/events/lpr?token=${token}`, { plate_number: 'AB12CDE', capture_time: bad }, 'capture_time'],
      ];
      for (const [method, url, payload, field] of asks) {
        const res = await r.app.inject({ method: method as 'GET' | 'POST', url, headers: admin, ...(payload ? { payload } : {}) });
        expect(res.statusCode, `${url} ${bad}`).toBe(400);
        expect(res.json().code).toBe('VALIDATION_ERROR');
        expect(res.json().message, url).toContain(field);
      }
    }
  });
});

describe('no input gets a 5xx', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

  it('refuses a deeply nested JSON body with 400', async () => {
    const res = await r.app.inject({
      method: 'POST',
      url: `/api/devices/${fileDevice}/events`,
      headers: { ...admin, 'content-type': 'application/json' },
      payload: deepObject(5000),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
  });

  it('answers every route below 500 whatever the body, query or path', async () => {
    const doc = (await r.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const bodies = [
      deep(5000),
      deepObject(5000),
      deepObject(40),
      '{',
      '[]',
      '"x"',
      '123',
      'null',
      JSON.stringify({ name: 5, type: [], time: {}, path: 'x'.repeat(10_000) }),
    ];
    const huge = JSON.stringify({ name: 'x'.repeat(r.config.bodyLimit + 10) });
    const failures: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops).map((m) => m.toUpperCase()) as ('GET' | 'POST' | 'PUT' | 'DELETE')[]) {
        // Logging out would end the admin's token, and deleting the device would end the other tests' subject.
        if (method === 'DELETE' && path === '/api/users/login') continue;
        for (const id of method === 'DELETE'
          ? ['%E0%A4%A', 'x'.repeat(300), '..%2F..%2Fetc', 'nope']
          : [fileDevice, '%E0%A4%A', 'x'.repeat(300), '..%2F..%2Fetc']) {
          const url = path.replace(/\{[a-z_]+\}/g, id);
          const queries = ['?start_date=%ZZ&end_date=%E0&time=%&duration=NaN&page=abc&page_size=-1&pos=1', '?token=%ZZ&stream=nope&method=x'];
          for (const q of queries) {
            const res = await r.app.inject({ method, url: url + q, headers: admin });
            if (res.statusCode >= 500) failures.push(`${method} ${url}${q} → ${res.statusCode} ${res.body.slice(0, 200)}`);
          }
          if (method === 'POST' || method === 'PUT') {
            for (const payload of [...bodies, huge]) {
              const res = await r.app.inject({ method, url, headers: { ...admin, 'content-type': 'application/json' }, payload });
              if (res.statusCode >= 500) failures.push(`${method} ${url} body ${payload.slice(0, 40)} → ${res.statusCode} ${res.body.slice(0, 200)}`);
              if (payload === huge && id === fileDevice) expect(res.statusCode, `${method} ${url}`).toBe(413);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('answers a snapshot of a recording ffmpeg cannot decode with 503, not 500', async () => {
    const id = (await addDevice({ ...fileSource(r.video), name: 'Broken' })).json().id as string;
    const rel = join(id, 'main', 'broken.ts');
    execFileSync('mkdir', ['-p', join(r.config.storageRoot, id, 'main')]);
    copyFileSync(join(r.config.mediaDir, 'notes.txt'), join(r.config.storageRoot, rel));
    const run = await r.app.recorder.index.openRun(id, 'main', new Date('2026-01-01T00:00:00Z'));
    await r.app.recorder.index.add({
      device_id: id,
      stream: 'main',
      run_id: run,
      start_date: '2026-01-01T00:00:00.000Z',
      end_date: '2026-01-01T00:00:04.000Z',
      duration_ms: 4000,
      path: rel,
      size: 5,
    });
    for (const q of ['', '?time=2026-01-01T00:00:01Z', '?time=2026-01-01T00:00:01Z&method=precise']) {
      const res = await r.app.inject({ method: 'GET', url: `/api/devices/${id}/snapshot${q}`, headers: admin });
      expect(res.statusCode, q).toBe(503);
      expect(res.json().code).toBe('SERVICE_UNAVAILABLE');
    }
  });
});

describe('sign-in throttling', () => {
  it('answers 429 with Retry-After after repeated wrong passwords, even to the right one, for that account only', async () => {
    await r.app.recorder.users.create({ email: 'target@example.com', password: 'right-password-1', role: 'user' });
    const login = (username: string, password: string) => r.app.inject({ method: 'POST', url: '/api/users/login', payload: { username, password } });
    for (let i = 0; i < 5; i++) expect((await login('target@example.com', 'wrong-password')).statusCode).toBe(401);
    const blocked = await login('target@example.com', 'right-password-1');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json().code).toBe('TOO_MANY_REQUESTS');
    expect((await login('viewer@example.com', 'password-123')).statusCode).toBe(200);
  });
});
