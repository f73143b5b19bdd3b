// The site link, platform end (docs/site-link.md): pairing, the connection with a real WebSocket client
// acting as the recorder against a listening platform, devices becoming cameras, frames and events
// stored once, schedules, live view and snapshots relayed over the link, revocation.
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CloseCode, CONNECT_PATH, PAIR_PATH } from '../../../src/lib/site-link/protocol.js';
import { recordingCameras } from '../../../src/platform/recordings/recording-settings-repository.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { FakeRecorder, waitFor } from './fake-recorder.js';

describe('site links', () => {
  let tp: TestPlatform;
  let owner: Person;
  let admin: Person;
  let viewer: Person;
  let project: { exid: string; id: string };
  let base: string;
  let jpeg: Buffer;
  const recorders: FakeRecorder[] = [];

  beforeAll(async () => {
    tp = await buildTestPlatform();
    owner = await tp.person('link-owner');
    admin = await tp.person('link-admin');
    viewer = await tp.person('link-viewer');
    project = await tp.project(owner, 'Linked site');
    await tp.addMember(owner, project.exid, admin, 'admin');
    await tp.addMember(owner, project.exid, viewer, 'viewer');
    await tp.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(tp.app.server.address() as AddressInfo).port}`;
    jpeg = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#468' } })
      .jpeg()
      .toBuffer();
  });
  afterAll(async () => {
    for (const r of recorders) r.close();
    await tp?.close();
  });

  const links = (p: Person = owner) => tp.app.inject({ method: 'GET', url: `/v2/projects/${project.exid}/recorder-links`, headers: p.auth });
  const createLink = async (p: Person = owner, name = 'Gate recorder') => {
    const res = await tp.app.inject({ method: 'POST', url: `/v2/projects/${project.exid}/recorder-links`, headers: p.auth, payload: { name } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; pairing_code: string; expires_at: string };
  };
  const pair = (code: string, ip = '127.0.0.9') =>
    tp.app.inject({ method: 'POST', url: PAIR_PATH, payload: { code, recorder_name: 'site-nvr' }, remoteAddress: ip });
  const linkedRecorder = async () => {
    const link = await createLink();
    const res = await pair(link.pairing_code);
    expect(res.statusCode, res.body).toBe(200);
    const { credential } = res.json() as { credential: string };
    const r = new FakeRecorder(base, credential);
    recorders.push(r);
    await waitFor('welcome', () => r.last('welcome'));
    return { link, credential, r };
  };
  const cameraOf = async (name: string) =>
    waitFor(`camera ${name}`, async () => {
      const res = await tp.app.inject({ method: 'GET', url: `/v2/projects/${project.exid}/cameras`, headers: owner.auth });
      const list = res.json() as
        | { exid: string; name: string; kind: string; status: string }[]
        | { cameras: { exid: string; name: string; kind: string; status: string }[] };
      const cams = Array.isArray(list) ? list : list.cameras;
      return cams.find((c) => c.name === name);
    });
  const statusOf = async (exid: string) => (await tp.app.inject({ method: 'GET', url: `/v2/cameras/${exid}`, headers: owner.auth })).json().status as string;

  describe('pairing', () => {
    it('gives a short, typeable code once; stores only hashes; a used, wrong or expired code is refused', async () => {
      const link = await createLink();
      expect(link.pairing_code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
      expect(Date.parse(link.expires_at) - Date.now()).toBeLessThanOrEqual(3600_000);
      // Typed in lower case without dashes still works.
      const res = await pair(link.pairing_code.replace(/-/g, '').toLowerCase());
      expect(res.statusCode, res.body).toBe(200);
      const answer = res.json();
      expect(answer).toMatchObject({ link_id: link.id, project_exid: project.exid });
      expect(answer.credential).toMatch(/^orl_[A-Za-z0-9_-]{40,}$/);
      const again = await pair(link.pairing_code);
      expect(again.statusCode).toBe(400);
      expect(again.json().code).toBe('PAIRING_CODE_INVALID');
      const wrong = await pair('ZZZZ-ZZZZ-ZZZZ-ZZZZ');
      expect(wrong.json().code).toBe('PAIRING_CODE_INVALID');

      const rows = await tp.t.db.kysely.selectFrom('recorder_links').selectAll().execute();
      const text = JSON.stringify(rows);
      expect(text).not.toContain(answer.credential);
      expect(text).not.toContain(link.pairing_code.replace(/-/g, ''));
      expect(rows.find((r) => r.id === link.id)!.credential_hash).toMatch(/^[0-9a-f]{64}$/);

      const listed = (await links()).json().data.find((l: { id: string }) => l.id === link.id);
      expect(listed).toMatchObject({ name: 'Gate recorder', status: 'disconnected', recorder_name: 'site-nvr', last_seen_at: null });
    });

    it('refuses a code past its hour', async () => {
      const link = await createLink();
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(Date.now() + 3600_000 + 1000);
        const res = await pair(link.pairing_code, '127.0.0.10');
        expect(res.statusCode).toBe(400);
        expect(res.json().code).toBe('PAIRING_CODE_EXPIRED');
      } finally {
        vi.useRealTimers();
      }
      expect((await links()).json().data.find((l: { id: string }) => l.id === link.id).status).toBe('pending');
    });

    it('throttles guessing from one address', async () => {
      const codes: number[] = [];
      for (let i = 0; i < 11; i++) codes.push((await pair(`AAAA-AAAA-AAAA-AA${String(i).padStart(2, '0')}`, '127.0.0.77')).statusCode);
      expect(codes.slice(0, 9).every((c) => c === 400)).toBe(true);
      expect(codes.at(-1)).toBe(429);
      // Another address is not affected.
      expect((await pair('AAAA-AAAA-AAAA-AAAA', '127.0.0.78')).statusCode).toBe(400);
    });

    it('answers bad input with 4xx, and keeps viewers and API keys out', async () => {
      const bad = [
        await tp.app.inject({ method: 'POST', url: `/v2/projects/${project.exid}/recorder-links`, headers: owner.auth, payload: { name: '' } }),
        await tp.app.inject({ method: 'POST', url: `/v2/projects/${project.exid}/recorder-links`, headers: owner.auth, payload: { name: 'x', extra: 1 } }),
        await tp.app.inject({ method: 'POST', url: PAIR_PATH, payload: {} }),
        await tp.app.inject({ method: 'POST', url: PAIR_PATH, payload: { code: 'x'.repeat(41) } }),
        await tp.app.inject({ method: 'GET', url: '/v2/cameras/nope/recorder-events?from=yesterday', headers: owner.auth }),
      ];
      for (const res of bad) expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      for (const res of bad) expect(res.statusCode, res.body).toBeLessThan(500);
      expect((await tp.app.inject({ method: 'DELETE', url: `/v2/projects/${project.exid}/recorder-links/nope`, headers: owner.auth })).statusCode).toBe(404);
      expect((await links(admin)).statusCode).toBe(200);
      expect((await links(viewer)).statusCode).toBe(403);
      const key = await tp.key(owner, { projects: [project.exid], scopes: ['project:settings', 'cameras:read'] });
      const byKey = await tp.app.inject({ method: 'GET', url: `/v2/projects/${project.exid}/recorder-links`, headers: key.headers });
      expect(byKey.statusCode).toBe(403);
      expect(byKey.json().code).toBe('ENDPOINT_CLOSED_TO_KEYS');
    });
  });

  describe('the connection', () => {
    it('is 401 without a credential or with an unknown one, before any upgrade', async () => {
      expect((await tp.app.inject({ method: 'GET', url: CONNECT_PATH })).statusCode).toBe(401);
      expect((await tp.app.inject({ method: 'GET', url: CONNECT_PATH, headers: { authorization: 'Bearer orl_madeup' } })).statusCode).toBe(401);
      const r = new FakeRecorder(base, 'orl_madeup');
      await waitFor('refusal', () => r.closeCode !== null);
      expect(r.opened).toBe(false);
    });

    it('refuses a link credential on every other route with 403, valid or made up', async () => {
      const { credential } = await linkedRecorder();
      for (const token of [credential, 'orl_madeup']) {
        for (const url of [
          `/v2/projects/${project.exid}`,
          '/v2/cameras',
          `/v2/projects/${project.exid}/recorder-links`,
          '/v2/cameras/x/hls/live.m3u8?token=y',
        ]) {
          const res = await tp.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
          expect(res.statusCode, url).toBe(403);
          expect(res.json().code).toBe('LINK_CREDENTIAL_NOT_ACCEPTED');
        }
        const login = await tp.app.inject({
          method: 'POST',
          url: '/v2/auth/login',
          headers: { authorization: `Bearer ${token}` },
          payload: { username: owner.email, password: owner.password },
        });
        expect(login.statusCode).toBe(403);
      }
    });

    it('turns devices into cameras with their status, stores frames once, and acknowledges them', async () => {
      const { link, r } = await linkedRecorder();
      r.devices([
        { id: 'dev-a', name: 'North gate', state: 'recording', timezone: 'Europe/Dublin' },
        { id: 'dev-b', name: 'Crane', state: 'streaming', timezone: 'Nowhere/Else' },
      ]);
      const north = await cameraOf('North gate');
      const crane = await cameraOf('Crane');
      expect(north.kind).toBe('linked');
      await waitFor('statuses', async () => (await statusOf(north.exid)) === 'recording' && (await statusOf(crane.exid)) === 'online');
      const rec = (await tp.app.inject({ method: 'GET', url: `/v2/cameras/${north.exid}`, headers: owner.auth })).json();
      expect(rec).toMatchObject({ kind: 'linked', timezone: 'Europe/Dublin' });
      const listed = (await links()).json().data.find((l: { id: string }) => l.id === link.id);
      expect(listed.status).toBe('connected');
      expect(listed.cameras.map((c: { exid: string }) => c.exid).sort()).toEqual([north.exid, crane.exid].sort());

      const at = '2026-11-20T10:00:00.123Z';
      r.frame(1, 'dev-a', at, jpeg);
      r.frame(2, 'dev-a', at, jpeg);
      await waitFor('ack 2', () => r.acked(2));
      const snaps = await tp.app.inject({
        method: 'GET',
        url: `/v2/cameras/${north.exid}/recordings/snapshots?from=2026-11-20T00:00:00Z&to=2026-11-21T00:00:00Z`,
        headers: viewer.auth,
      });
      expect(snaps.statusCode, snaps.body).toBe(200);
      const body = snaps.json();
      const items = (body.snapshots ?? body.data) as { created_at?: string; taken_at?: string }[];
      expect(items).toHaveLength(1);
      const one = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${north.exid}/recordings/snapshots/${at}`, headers: viewer.auth });
      expect(one.statusCode, one.body).toBe(200);
    });

    it('keeps events, turns plate reads into ANPR events once, and acknowledges them', async () => {
      const { r } = await linkedRecorder();
      r.devices([{ id: 'anpr-1', name: 'Plate cam', state: 'streaming', timezone: 'UTC' }]);
      const cam = await cameraOf('Plate cam');
      const plate = {
        type: 'event' as const,
        seq: 1,
        device_id: 'anpr-1',
        kind: 'plate',
        at: '2026-11-20T11:00:00.000Z',
        data: { plate: 'AB12 CDE', direction: 'in', confidence: 0.9 },
      };
      r.send(plate);
      r.send({ ...plate, seq: 2 });
      r.send({ type: 'event', seq: 3, device_id: 'anpr-1', kind: 'motion', at: '2026-11-20T11:00:01.000Z', data: { area: 'yard' } });
      await waitFor('ack 3', () => r.acked(3));
      const events = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/recorder-events`, headers: viewer.auth });
      expect(events.statusCode, events.body).toBe(200);
      expect(events.json().data.map((e: { kind: string }) => e.kind)).toEqual(['motion', 'plate']);
      const anpr = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/anpr`, headers: viewer.auth });
      expect(anpr.statusCode, anpr.body).toBe(200);
      const reads = (anpr.json().data ?? anpr.json().events) as { plate_number?: string; plate?: string }[];
      expect(reads).toHaveLength(1);
      expect(events.json().data.find((e: { kind: string }) => e.kind === 'plate').anpr_event_id).toBeTruthy();
    });

    it('stores a plate read’s crop as its ANPR event’s image, once; a crop that is no JPEG leaves the read without one', async () => {
      const { r } = await linkedRecorder();
      r.devices([{ id: 'anpr-2', name: 'Crop cam', state: 'streaming', timezone: 'UTC' }]);
      const cam = await cameraOf('Crop cam');
      const crop = await sharp({ create: { width: 96, height: 32, channels: 3, background: '#fd0' } })
        .jpeg()
        .toBuffer();
      const read = (seq: number, plate: string, at: string) =>
        ({ type: 'event', seq, device_id: 'anpr-2', kind: 'plate', at, data: { plate, confidence: 0.8, has_plate_image: true } }) as const;
      r.send(read(1, 'CR0P 1', '2026-11-20T12:00:00.000Z'), crop);
      // Sent again after a reconnection: the same read, the same image.
      r.send(read(2, 'CR0P 1', '2026-11-20T12:00:00.000Z'), crop);
      r.send(read(3, 'BAD 1', '2026-11-20T12:00:01.000Z'), Buffer.from('not a jpeg at all'));
      await waitFor('ack 3', () => r.acked(3));
      const list = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/anpr?sort=asc`, headers: viewer.auth });
      expect(list.statusCode, list.body).toBe(200);
      const reads = list.json().data as { id: string; plate: string; has_plate_image: boolean; metadata: Record<string, unknown> }[];
      expect(reads.map((e) => [e.plate, e.has_plate_image])).toEqual([
        ['CR0P1', true],
        ['BAD1', false],
      ]);
      expect(reads[0]!.metadata).not.toHaveProperty('has_plate_image');
      const image = await tp.app.inject({
        method: 'GET',
        url: `/v2/cameras/${cam.exid}/anpr/${reads[0]!.id}`,
        headers: { ...viewer.auth, accept: 'image/jpeg' },
      });
      expect(image.statusCode, image.body).toBe(200);
      expect(image.headers['content-type']).toBe('image/jpeg');
      expect(image.rawPayload.equals(crop)).toBe(true);
      const json = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/anpr/${reads[0]!.id}`, headers: viewer.auth });
      expect(json.json().plate_image).toBe(`data:image/jpeg;base64,${crop.toString('base64')}`);
      const none = await tp.app.inject({
        method: 'GET',
        url: `/v2/cameras/${cam.exid}/anpr/${reads[1]!.id}`,
        headers: { ...viewer.auth, accept: 'image/jpeg' },
      });
      expect(none.statusCode).toBe(404);
    });

    it('sends the schedules on connect and again when recording settings change', async () => {
      const { r } = await linkedRecorder();
      r.devices([{ id: 'sched-1', name: 'Schedule cam', state: 'streaming', timezone: 'UTC' }]);
      const cam = await cameraOf('Schedule cam');
      await waitFor('first schedules', () => r.last('schedules')?.schedules.some((s) => s.device_id === 'sched-1'));
      expect(r.last('schedules')!.schedules[0]).toMatchObject({ camera_exid: cam.exid, frequency: 0 });
      const res = await tp.app.inject({
        method: 'PATCH',
        url: `/v2/cameras/${cam.exid}/settings/recording`,
        headers: owner.auth,
        payload: { status: 'on', frequency: 6, schedule: { monday: ['08:00-17:00'] } },
      });
      expect(res.statusCode, res.body).toBe(200);
      const s = await waitFor('new schedules', () => r.last('schedules')?.schedules.find((x) => x.device_id === 'sched-1' && x.frequency === 6));
      expect(s.schedule).toMatchObject({ monday: ['08:00-17:00'] });
      // Recording is on, yet the platform's own cloud-recording loop never fetches it: it has no URL.
      expect((await recordingCameras(tp.t.db)).map((c) => c.exid)).not.toContain(cam.exid);
    });

    it('relays live playlists, segments and snapshots over the link, and counts the viewer', async () => {
      const { r } = await linkedRecorder();
      r.devices([{ id: 'live-1', name: 'Live cam', state: 'streaming', timezone: 'UTC' }]);
      const cam = await cameraOf('Live cam');
      const segment = Buffer.from('a fake MPEG-TS segment');
      r.answer = (req) => {
        if (req.what === 'snapshot') return { status: 200, content_type: 'image/jpeg', body: jpeg };
        if (req.what === 'live_playlist')
          return {
            status: 200,
            content_type: 'application/vnd.apple.mpegurl',
            body: Buffer.from('#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n/hls/live-1/seg_1.ts?x=1\n'),
          };
        if (req.what === 'live_segment' && req.name === 'seg_1.ts') return { status: 200, content_type: 'video/mp2t', body: segment };
        return { status: 404, message: 'no such segment' };
      };
      const shot = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/live/snapshot.jpg`, headers: viewer.auth });
      expect(shot.statusCode, shot.body).toBe(200);
      expect(shot.rawPayload.equals(jpeg)).toBe(true);
      expect(r.requests.filter((q) => q.what === 'live_playlist')).toHaveLength(0);

      const master = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/hls?format=json`, headers: viewer.auth });
      expect(master.statusCode, master.body).toBe(200);
      const playlistUrl = new URL(master.json().playlist_url);
      const [p1, p2] = await Promise.all([
        tp.app.inject({ method: 'GET', url: `${playlistUrl.pathname}${playlistUrl.search}` }),
        tp.app.inject({ method: 'GET', url: `${playlistUrl.pathname}${playlistUrl.search}` }),
      ]);
      expect(p1.statusCode, p1.body).toBe(200);
      const bare = (text: string) => text.replace(/\?token=\S+/g, '');
      expect(bare(p2.body)).toBe(bare(p1.body));
      // Two viewers at once, one question to the recorder.
      expect(r.requests.filter((q) => q.what === 'live_playlist')).toHaveLength(1);
      const segLine = p1.body.split('\n').find((l) => l.startsWith('seg_1.ts?token='))!;
      expect(segLine).toBeTruthy();
      const seg = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/hls/${segLine}` });
      expect(seg.statusCode, seg.body).toBe(200);
      expect(seg.rawPayload.equals(segment)).toBe(true);
      const missing = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/hls/seg_9.ts?${segLine.split('?')[1]}` });
      expect(missing.statusCode).toBe(404);
      const streaming = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/streaming`, headers: viewer.auth });
      expect(streaming.json()).toMatchObject({ source: 'linked', hls: { running: true, viewers: 1, mode: 'linked' } });
    });

    it('marks cameras offline and tells the members when a device stops or the link drops; revoking closes within 1 s', async () => {
      const { link, r } = await linkedRecorder();
      r.devices([{ id: 'off-1', name: 'Offline cam', state: 'streaming', timezone: 'UTC' }]);
      const cam = await cameraOf('Offline cam');
      await waitFor('online', async () => (await statusOf(cam.exid)) === 'online');
      r.devices([{ id: 'off-1', name: 'Offline cam', state: 'failed', timezone: 'UTC' }]);
      await waitFor('offline', async () => (await statusOf(cam.exid)) === 'offline');
      // The members are told just after the status changes.
      const mine = await waitFor('the status notification', async () => {
        const notes = await tp.app.inject({ method: 'GET', url: '/v2/notifications', headers: viewer.auth });
        const found = notes
          .json()
          .data.filter((n: { type: string; context: { camera_exid?: string } }) => n.type === 'camera_status_changed' && n.context.camera_exid === cam.exid);
        return found.length > 0 && found;
      });
      expect(mine.length).toBeGreaterThanOrEqual(1);
      // The change is an event for webhooks, MQTT and e-mail too, recorded with it.
      const events = await tp.t.db.kysely
        .selectFrom('outbox_events')
        .select(['type', 'data'])
        .where('camera_exid', '=', cam.exid)
        .where('type', '=', 'camera.status_changed')
        .execute();
      expect(events.map((e) => (typeof e.data === 'string' ? JSON.parse(e.data) : e.data))).toContainEqual(
        expect.objectContaining({ status: 'offline', previous_status: 'online' }),
      );
      r.devices([{ id: 'off-1', name: 'Offline cam', state: 'streaming', timezone: 'UTC' }]);
      await waitFor('back online', async () => (await statusOf(cam.exid)) === 'online');

      const started = Date.now();
      const res = await tp.app.inject({ method: 'DELETE', url: `/v2/projects/${project.exid}/recorder-links/${link.id}`, headers: admin.auth });
      expect(res.statusCode).toBe(204);
      await waitFor('closed', () => r.closeCode !== null, 1000);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(r.closeCode).toBe(CloseCode.REVOKED);
      await waitFor('offline after revoke', async () => (await statusOf(cam.exid)) === 'offline');
      expect((await links()).json().data.find((l: { id: string }) => l.id === link.id).status).toBe('revoked');
      // Live view of its cameras now says the link is gone.
      const shot = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/live/snapshot`, headers: owner.auth });
      expect(shot.statusCode).toBe(503);
    });

    it('marks the cameras offline when the link drops, and closes a connection that breaks the protocol', async () => {
      const { link, r } = await linkedRecorder();
      r.devices([{ id: 'drop-1', name: 'Dropping cam', state: 'recording', timezone: 'UTC' }]);
      const cam = await cameraOf('Dropping cam');
      await waitFor('recording', async () => (await statusOf(cam.exid)) === 'recording');
      r.close();
      await waitFor('offline', async () => (await statusOf(cam.exid)) === 'offline');
      expect((await links()).json().data.find((l: { id: string }) => l.id === link.id).status).toBe('disconnected');
      const shot = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/live/snapshot`, headers: owner.auth });
      expect(shot.statusCode).toBe(503);

      const { r: bad } = await linkedRecorder();
      bad.send({ type: 'frame', seq: 0 } as never);
      await waitFor('protocol error', () => bad.closeCode !== null);
      expect(bad.closeCode).toBe(CloseCode.PROTOCOL_ERROR);
    });

    it('closes a revoked credential with REVOKED, and a second connection replaces the first', async () => {
      const { link, credential, r } = await linkedRecorder();
      const second = new FakeRecorder(base, credential);
      recorders.push(second);
      await waitFor('second welcome', () => second.last('welcome'));
      await waitFor('first replaced', () => r.closeCode !== null);
      expect(r.closeCode).toBe(CloseCode.REPLACED);
      await tp.app.inject({ method: 'DELETE', url: `/v2/projects/${project.exid}/recorder-links/${link.id}`, headers: owner.auth });
      await waitFor('second revoked', () => second.closeCode !== null);
      const third = new FakeRecorder(base, credential);
      recorders.push(third);
      await waitFor('third closed', () => third.closeCode !== null);
      expect(third.closeCode).toBe(CloseCode.REVOKED);
    });
  });
});
