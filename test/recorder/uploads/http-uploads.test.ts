// Uploads to an HTTP storage: a receiver in the test (127.0.0.1, port 0) answers 503 for a while; the
// recorder backs off (2 s, then longer), shows the error on the storage, and once the receiver accepts,
// every segment and snapshot arrives, each stored once, with its headers. A segment deleted before its
// upload (as the full-drive rule does) is skipped. Bad storage input is a 400 that stores nothing.
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecorder, eventually, type TestRecorder } from '../../helpers/recorder.js';

interface Received {
  at: number;
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  md5: string;
  status: number;
}

let r: TestRecorder;
let admin: { authorization: string };
let receiver: Server;
let base: string;
let failing = true;
const requests: Received[] = [];

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const storageState = async (id: string) => (await r.app.inject({ method: 'GET', url: `/api/remote_storages/${id}`, headers: admin })).json();

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      // Under /guarded the receiver wants its own credential.
      const refused = req.url!.startsWith('/guarded') && req.headers.authorization !== 'Bearer right';
      const status = failing ? 503 : refused ? 401 : 201;
      requests.push({ at: Date.now(), method: req.method!, path: req.url!, headers: req.headers, md5: md5(Buffer.concat(chunks)), status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // Waits between attempts double from 2 s to at most 4 s here.
  r = await buildTestRecorder({ OVERLOOK_RECORDER_UPLOAD_RETRY_MAX_SECONDS: '4' });
  admin = r.bearer(r.adminToken);
});
afterAll(async () => {
  await r?.close();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('uploads to an HTTP storage', () => {
  it('a receiver answering 503 for a while still gets every segment and snapshot once, with back-off in between', async () => {
    const storage = await r.app.inject({
      method: 'POST',
      url: '/api/remote_storages',
      headers: admin,
      payload: {
        name: 'Receiver',
        type: 'http',
        url: `${base}/upload/`,
        config: { method: 'PUT', headers: { authorization: 'Bearer receiver-secret' }, snapshot_interval_seconds: 2 },
      },
    });
    expect(storage.statusCode, storage.body).toBe(201);
    expect(storage.json().config).toMatchObject({ method: 'PUT', snapshot_interval_seconds: 2, header_names: ['authorization'] });
    expect(storage.body).not.toContain('receiver-secret');
    const storageId = storage.json().id as string;
    const device = await r.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: admin,
      payload: { name: 'Crane', type: 'file', stream_config: { path: r.video } },
    });
    expect(device.statusCode, device.body).toBe(201);
    const deviceId = device.json().id as string;

    // Four refused attempts: 2 s, then 4 s (the most here) between them.
    await eventually(async () => requests.length >= 4, 40_000, 'four refused attempts');
    const refused = requests.slice(0, 4);
    for (let i = 1; i < refused.length; i++) expect(refused[i]!.at - refused[i - 1]!.at, `wait before attempt ${i + 1}`).toBeGreaterThanOrEqual(1900);
    expect(refused[3]!.at - refused[2]!.at).toBeGreaterThanOrEqual(3900);
    const during = (await storageState(storageId)).uploads;
    expect(during.pending).toBeGreaterThanOrEqual(3);
    expect(during.last_error).toBe('HTTP PUT answered 503');
    expect(during.last_success_at).toBeNull();

    // A queued segment deleted before its upload (what the full-drive rule does) is skipped.
    const [doomed] = await r.db.kysely
      .selectFrom('uploads')
      .innerJoin('segments', 'segments.id', 'uploads.segment_id')
      .select(['segments.id', 'segments.path', 'uploads.object_key'])
      .where('uploads.storage_id', '=', storageId)
      .orderBy('uploads.start_date', 'desc')
      .limit(1)
      .execute();
    expect(doomed).toBeDefined();
    rmSync(join(r.config.storageRoot, doomed!.path));
    await r.app.recorder.index.remove(doomed!.id);

    // The receiver accepts again; the device stops so the set of segments is final.
    failing = false;
    const stopped = await r.app.inject({
      method: 'PUT',
      url: `/api/devices/${deviceId}`,
      headers: admin,
      payload: { storage_config: { recording_mode: 'never' } },
    });
    expect(stopped.statusCode).toBe(200);
    await eventually(async () => (await storageState(storageId)).uploads.pending === 0, 60_000, 'the queue drained');
    expect((await storageState(storageId)).uploads).toMatchObject({ pending: 0, last_error: 'HTTP PUT answered 503' });
    expect((await storageState(storageId)).uploads.last_success_at).not.toBeNull();

    const stored = requests.filter((q) => q.status === 201);
    const byKey = new Map<string, Received[]>();
    for (const q of stored) byKey.set(q.headers['x-overlook-key'] as string, [...(byKey.get(q.headers['x-overlook-key'] as string) ?? []), q]);
    // Each object stored once.
    for (const [key, list] of byKey) expect(list, key).toHaveLength(1);
    // Every remaining segment, byte for byte, at <url>/<key>; the deleted one never.
    const segments = await r.db.kysely.selectFrom('segments').selectAll().where('device_id', '=', deviceId).execute();
    expect(segments.length).toBeGreaterThanOrEqual(3);
    for (const s of segments) {
      const start = new Date(s.start_date);
      const key = `${deviceId}/main/${start.toISOString().slice(0, 13).replace(/[-T]/g, '/')}/${start.getTime() * 1000}.ts`;
      const got = byKey.get(key)?.[0];
      expect(got, key).toBeDefined();
      expect(got!.method).toBe('PUT');
      expect(got!.path).toBe(`/upload/${key}`);
      expect(got!.md5).toBe(md5(readFileSync(join(r.config.storageRoot, s.path))));
      expect(got!.headers).toMatchObject({
        authorization: 'Bearer receiver-secret',
        'content-type': 'video/mp2t',
        'idempotency-key': key,
        'x-overlook-kind': 'segment',
        'x-overlook-device-id': deviceId,
        'x-overlook-start-date': s.start_date,
        'x-overlook-end-date': s.end_date,
      });
    }
    expect(byKey.has(doomed!.object_key)).toBe(false);
    const snapshots = stored.filter((q) => q.headers['x-overlook-kind'] === 'snapshot');
    expect(snapshots.length).toBeGreaterThanOrEqual(1);
    for (const q of snapshots) {
      expect(q.headers['content-type']).toBe('image/jpeg');
      expect(q.headers['x-overlook-key']).toMatch(new RegExp(`^${deviceId}/snapshots/\\d{4}/\\d\\d/\\d\\d/\\d\\d/\\d+000000\\.jpg$`));
    }
    // Nothing but segments and snapshots, and nothing else was stored.
    expect(byKey.size).toBe(segments.length + snapshots.length);
  });

  it('POST sends each object to the URL itself, named in its headers', async () => {
    const storage = await r.app.inject({
      method: 'POST',
      url: '/api/remote_storages',
      headers: admin,
      payload: { name: 'Poster', type: 'http', url: `${base}/ingest?site=north` },
    });
    expect(storage.statusCode, storage.body).toBe(201);
    const device = await r.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: admin,
      payload: { name: 'Hoist', type: 'file', stream_config: { path: r.video } },
    });
    const deviceId = device.json().id as string;
    const posted = () => requests.filter((q) => q.method === 'POST' && q.headers['x-overlook-device-id'] === deviceId);
    await eventually(async () => posted().length >= 2, 30_000, 'two segments posted');
    await r.app.inject({ method: 'PUT', url: `/api/devices/${deviceId}`, headers: admin, payload: { storage_config: { recording_mode: 'never' } } });
    for (const q of posted()) {
      expect(q.path).toBe('/ingest?site=north');
      expect(q.status).toBe(201);
      const segment = await r.db.kysely
        .selectFrom('segments')
        .selectAll()
        .where('device_id', '=', deviceId)
        .where('start_date', '=', q.headers['x-overlook-start-date'] as string)
        .executeTakeFirstOrThrow();
      expect(q.md5).toBe(md5(readFileSync(join(r.config.storageRoot, segment.path))));
      expect(q.headers['x-overlook-key']).toMatch(new RegExp(`^${deviceId}/main/.+\\.ts$`));
    }
    expect((await r.app.inject({ method: 'DELETE', url: `/api/remote_storages/${storage.json().id}`, headers: admin })).statusCode).toBe(204);
  });

  it('a storage refusing the credential shows it, and the queue is sent as soon as the credential is fixed', async () => {
    const storage = await r.app.inject({
      method: 'POST',
      url: '/api/remote_storages',
      headers: admin,
      payload: { name: 'Guarded', type: 'http', url: `${base}/guarded`, config: { method: 'PUT', headers: { authorization: 'Bearer wrong' } } },
    });
    const id = storage.json().id as string;
    const device = await r.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: admin,
      payload: { name: 'Gate 2', type: 'file', stream_config: { path: r.video } },
    });
    const deviceId = device.json().id as string;
    await eventually(async () => (await storageState(id)).uploads.last_error === 'HTTP PUT answered 401', 30_000, 'the refusal shown');
    await r.app.inject({ method: 'PUT', url: `/api/devices/${deviceId}`, headers: admin, payload: { storage_config: { recording_mode: 'never' } } });
    const fixed = await r.app.inject({
      method: 'PUT',
      url: `/api/remote_storages/${id}`,
      headers: admin,
      payload: { config: { headers: { authorization: 'Bearer right' } } },
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    await eventually(async () => (await storageState(id)).uploads.pending === 0, 30_000, 'the queue sent with the new credential');
    const guarded = requests.filter((q) => q.path.startsWith('/guarded/') && q.status === 201);
    const segments = await r.db.kysely.selectFrom('segments').select('id').where('device_id', '=', deviceId).execute();
    expect(guarded).toHaveLength(segments.length);
    for (const q of guarded) expect(q.headers.authorization).toBe('Bearer right');
    expect((await r.app.inject({ method: 'DELETE', url: `/api/remote_storages/${id}`, headers: admin })).statusCode).toBe(204);
  });

  it('bad storage input is 400 naming the field, and nothing is stored or changed', async () => {
    const post = (payload: object) => r.app.inject({ method: 'POST', url: '/api/remote_storages', headers: admin, payload });
    const s3 = { name: 'S3', type: 's3', url: 'https://s3.example.com', config: { bucket: 'footage', access_key_id: 'AKIA1', secret_access_key: 'secret' } };
    const http = { name: 'Hook', type: 'http', url: 'https://upload.example.com/in' };
    const before = (await r.app.inject({ method: 'GET', url: '/api/remote_storages', headers: admin })).json().length;
    const cases: [object, string][] = [
      [{ ...s3, config: { ...s3.config, access_key_id: undefined } }, 'config.access_key_id'],
      [{ ...s3, config: { ...s3.config, secret_access_key: undefined } }, 'config.secret_access_key'],
      [{ ...s3, config: { ...s3.config, bucket: 'Not_A_Bucket' } }, 'config.bucket'],
      [{ ...s3, config: { ...s3.config, region: 'EU West' } }, 'config.region'],
      [{ ...s3, config: { ...s3.config, path_style: 'yes' } }, 'path_style'],
      [{ ...s3, url: 'https://s3.example.com/?x=1' }, 'url'],
      [{ ...http, url: 'https://user:pass@upload.example.com/in' }, 'url'],
      [{ ...http, url: 'not a url' }, 'url'],
      [{ ...http, config: { method: 'GET' } }, 'method'],
      [{ ...http, config: { headers: { 'bad name': 'x' } } }, 'config.headers'],
      [{ ...http, config: { headers: { 'x-token': 'a\r\nInjected: 1' } } }, 'config.headers'],
      [{ ...http, config: { headers: { 'Content-Type': 'text/plain' } } }, 'config.headers'],
      [{ ...http, config: { headers: { 'X-Overlook-Key': 'mine' } } }, 'config.headers'],
      [{ ...http, config: { snapshot_interval_seconds: 0 } }, 'snapshot_interval_seconds'],
      [{ ...http, config: { snapshot_interval_seconds: 1.5 } }, 'snapshot_interval_seconds'],
      [{ ...http, config: { snapshot_interval_seconds: 86_401 } }, 'snapshot_interval_seconds'],
      [{ ...http, config: { recordings: 'sometimes' } }, 'recordings'],
      [{ ...http, config: { interval: 5 } }, 'interval'],
    ];
    for (const [payload, field] of cases) {
      const res = await post(payload);
      expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(res.body, JSON.stringify(payload)).toContain(field);
    }
    expect((await r.app.inject({ method: 'GET', url: '/api/remote_storages', headers: admin })).json()).toHaveLength(before);

    // A storage changed with bad input keeps what it had.
    const ok = await post({ ...http, config: { snapshot_interval_seconds: 60, recordings: false } });
    expect(ok.statusCode, ok.body).toBe(201);
    const id = ok.json().id as string;
    for (const config of [{ snapshot_interval_seconds: -1 }, { headers: { host: 'elsewhere' } }, { method: 'DELETE' }]) {
      const res = await r.app.inject({ method: 'PUT', url: `/api/remote_storages/${id}`, headers: admin, payload: { config } });
      expect(res.statusCode, res.body).toBe(400);
    }
    const changeType = await r.app.inject({ method: 'PUT', url: `/api/remote_storages/${id}`, headers: admin, payload: { type: 's3' } });
    expect(changeType.statusCode).toBe(400);
    expect(changeType.body).toContain('config.bucket');
    const kept = await storageState(id);
    expect(kept).toMatchObject({ type: 'http', url: http.url, config: { snapshot_interval_seconds: 60, recordings: false } });
    expect(kept.config.method).toBeUndefined();
    expect((await r.app.inject({ method: 'DELETE', url: `/api/remote_storages/${id}`, headers: admin })).statusCode).toBe(204);
  });
});
