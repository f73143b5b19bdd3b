// Live view (camera:live_view) on the simulated camera: access rules, snapshots, the HLS
// stream ffmpeg makes (followed like a header-less player), the media tokens' own checks, stream
// details, the idle stop, and no ffmpeg left behind.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_AUDIENCE } from '../../../src/platform/live-view/media-tokens.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { checkEndpointAccess, type EndpointSpec } from '../../helpers/access.js';
import { decodes, jpegScene, lastFrameScene, play, probeFile, processesWith, sceneDifference, scratchDir, uris } from './media-helpers.js';
import { eventually } from '../../helpers/eventually.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

/** The fake cameras listen on 127.0.0.1: opted in as a site's LAN would be (docs/security.md, Outbound connections). */
const LOCAL_CAMERAS = { OVERLOOK_ALLOWED_NETWORKS: '127.0.0.1/32' };

let tp: TestPlatform;
let owner: Person;
let project: { exid: string };
let cam: { exid: string; name: string };
const scratch = scratchDir();
let badCam: Server;
let badCamUrl: string;

beforeAll(async () => {
  tp = await buildTestPlatform({ ...LOCAL_CAMERAS, OVERLOOK_HLS_IDLE_SECONDS: '3' });
  owner = await tp.person('owner');
  project = await tp.project(owner);
  cam = await tp.camera(owner, project.exid, 'Gate: north');
  // A camera whose snapshot URL fails.
  badCam = createServer((_req, res) => res.writeHead(500).end('boom'));
  await new Promise<void>((r) => badCam.listen(0, '127.0.0.1', r));
  badCamUrl = `http://127.0.0.1:${(badCam.address() as AddressInfo).port}/snap.jpg`;
});

afterAll(async () => {
  badCam.close();
  const dataDir = tp.t.dataDir;
  await tp.close();
  // Closing the app stops every stream it started.
  expect(processesWith('live.m3u8', dataDir)).toEqual([]);
  scratch.remove();
});

const url = (path: string) => (w: { cameraExid: string }) => `/v2/cameras/${w.cameraExid}${path}`;
const other = (path: string) => (w: { otherCameraExid: string }) => `/v2/cameras/${w.otherCameraExid}${path}`;
const spec = (path: string): EndpointSpec => ({
  method: 'GET',
  url: url(path),
  otherUrl: other(path),
  scopes: ['camera:live_view'],
  role: 'viewer',
  okStatus: 200,
});

describe('access (camera:live_view, viewer)', () => {
  it('GET live/snapshot', () => checkEndpointAccess(tp, spec('/live/snapshot')));
  it('GET live/snapshot.jpg', () => checkEndpointAccess(tp, spec('/live/snapshot.jpg')));
  it('GET hls', () => checkEndpointAccess(tp, spec('/hls')));
  it('GET streaming', () => checkEndpointAccess(tp, spec('/streaming')));
});

describe('snapshots', () => {
  it('JSON with a data URI of a JPEG that decodes, taken now', async () => {
    const before = Date.now();
    const res = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/live/snapshot`, headers: owner.auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['created_at', 'data']);
    expect(Date.parse(body.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(body.data).toMatch(/^data:image\/jpeg;base64,/);
    const meta = await sharp(Buffer.from(body.data.split(',')[1], 'base64')).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 640, height: 360 });
  });

  it('the JPEG itself, with its time in x-snapshot-date and no caching', async () => {
    const res = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/live/snapshot.jpg`, headers: owner.auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(Number.isNaN(Date.parse(String(res.headers['x-snapshot-date'])))).toBe(false);
    expect((await sharp(res.rawPayload).metadata()).format).toBe('jpeg');
  });

  it('a camera that fails answers 502 with a clear message; an unknown camera 404', async () => {
    const res = await tp.app.inject({
      method: 'POST',
      url: '/v2/cameras',
      headers: owner.auth,
      payload: { name: 'Broken', project_exid: project.exid, snapshot_url: badCamUrl },
    });
    expect(res.statusCode).toBe(201);
    for (const path of ['live/snapshot', 'live/snapshot.jpg']) {
      const r = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${res.json().exid}/${path}`, headers: owner.auth });
      expect(r.statusCode).toBe(502);
      expect(r.json().code).toBe('BAD_GATEWAY');
      expect(r.json().message).toContain('HTTP 500');
    }
    // Without an RTSP URL it has no live stream.
    const hls = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${res.json().exid}/hls`, headers: owner.auth });
    expect(hls.statusCode).toBe(404);
    const none = await tp.app.inject({ method: 'GET', url: '/v2/cameras/no-such-camera/live/snapshot', headers: owner.auth });
    expect(none.statusCode).toBe(404);
  });
});

describe('HLS of the simulated camera', () => {
  it('a header-less player plays it: H.264 640x360 made by ffmpeg, one ffmpeg for every viewer, stopped when idle', async () => {
    const streaming = async () => (await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/streaming`, headers: owner.auth })).json();
    expect((await streaming()).hls).toEqual({ running: false, viewers: 0, mode: null });

    const masterUrl = `/v2/cameras/${cam.exid}/hls`;
    const m1 = await tp.app.inject({ method: 'GET', url: masterUrl, headers: owner.auth });
    expect(m1.statusCode).toBe(200);
    expect(m1.headers['content-type']).toContain('application/vnd.apple.mpegurl');
    expect(m1.body).toMatch(/^#EXTM3U\n/);
    expect(m1.body).toContain('RESOLUTION=640x360');
    // The master playlist alone starts nothing.
    expect((await streaming()).hls.running).toBe(false);

    const p1 = await play(tp.app, masterUrl, m1.body, scratch.dir);
    expect(await probeFile(p1.segmentFile)).toMatchObject({ codec: 'h264', width: 640, height: 360 });
    await decodes(p1.segmentFile);
    const first = servicesOf(tp.app).liveView.streams.get(cam.exid)!;
    expect(first.pid).toBeGreaterThan(0);
    expect(processesWith('live.m3u8', tp.t.dataDir)).toEqual([first.pid]);

    // A second viewer (an API key) shares the one ffmpeg.
    const key = await tp.key(owner, { projects: [project.exid], scopes: ['camera:live_view'] });
    const m2 = await tp.app.inject({ method: 'GET', url: masterUrl, headers: key.headers });
    expect(m2.statusCode).toBe(200);
    const p2 = await play(tp.app, masterUrl, m2.body, scratch.dir);
    expect(servicesOf(tp.app).liveView.streams.get(cam.exid)!.pid).toBe(first.pid);
    expect(processesWith('live.m3u8', tp.t.dataDir)).toEqual([first.pid]);
    const details = await streaming();
    expect(details.hls).toEqual({ running: true, viewers: 2, mode: 'simulated' });
    // Different viewers, different tokens.
    expect(p1.mediaUrl).not.toBe(p2.mediaUrl);

    // Nobody fetches anything: the stream stops and its folder is removed.
    const dir = first.dir;
    expect(existsSync(dir)).toBe(true);
    await eventually(async () => !(await streaming()).hls.running, 'the idle stream to stop', 20_000);
    await eventually(() => !existsSync(dir) && processesWith('live.m3u8', tp.t.dataDir).length === 0, 'ffmpeg to end and its folder to go', 10_000);
    // A segment of the stopped stream is gone; the media playlist starts a new stream.
    const gone = await tp.app.inject({ method: 'GET', url: p1.segmentUrls[0]! });
    expect(gone.statusCode).toBe(404);
    const again = await tp.app.inject({ method: 'GET', url: p1.mediaUrl });
    expect(again.statusCode).toBe(200);
    expect(servicesOf(tp.app).liveView.streams.get(cam.exid)!.pid).not.toBe(first.pid);
  });

  it('?format=json hands out the media playlist URL and when its token expires', async () => {
    const before = Date.now();
    const res = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/hls?format=json`, headers: owner.auth });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['expires_at', 'playlist_url']);
    expect(body.playlist_url).toMatch(new RegExp(`/v2/cameras/${cam.exid}/hls/live\\.m3u8\\?token=`));
    const ttl = Date.parse(body.expires_at) - before;
    expect(ttl).toBeGreaterThan(590_000);
    expect(ttl).toBeLessThan(602_000);
    const u = new URL(body.playlist_url);
    const media = await tp.app.inject({ method: 'GET', url: u.pathname + u.search });
    expect(media.statusCode).toBe(200);
    expect(uris(media.body).length).toBeGreaterThan(0);
    const bad = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/hls?format=xml`, headers: owner.auth });
    expect(bad.statusCode).toBe(400);
  });
});

describe('the simulated camera live', () => {
  /** The scene of the newest segment's last frame, from a segment begun after `after` (a segment number). */
  const newestScene = async (mediaUrl: string, after: number): Promise<{ scene: Buffer; n: number }> => {
    let found: { url: string; n: number } | null = null;
    await eventually(
      async () => {
        const res = await tp.app.inject({ method: 'GET', url: mediaUrl });
        if (res.statusCode !== 200) return false;
        const last = uris(res.body).at(-1);
        const n = Number(/seg_(\d+)\.ts/.exec(last ?? '')?.[1] ?? -1);
        if (n <= after) return false;
        const u = new URL(last!, `http://overlook.test${mediaUrl}`);
        found = { url: u.pathname + u.search, n };
        return true;
      },
      'a new segment',
      20_000,
    );
    const { url: segUrl, n } = found!;
    const seg = await tp.app.inject({ method: 'GET', url: segUrl });
    expect(seg.statusCode).toBe(200);
    const file = join(scratch.dir, `scene-${n}-${Date.now()}.ts`);
    writeFileSync(file, seg.rawPayload);
    return { scene: await lastFrameScene(file), n };
  };

  it('streams the scene of its snapshots, and the picture follows a PTZ move', async () => {
    const ptzCam = await tp.camera(owner, project.exid, 'Crane: south');
    const masterUrl = `/v2/cameras/${ptzCam.exid}/hls`;
    const m = await tp.app.inject({ method: 'GET', url: masterUrl, headers: owner.auth });
    const p = await play(tp.app, masterUrl, m.body, scratch.dir);
    const snapshot = async () =>
      jpegScene((await tp.app.inject({ method: 'GET', url: `/v2/cameras/${ptzCam.exid}/live/snapshot.jpg`, headers: owner.auth })).rawPayload);

    // The simulated truck stands elsewhere each minute: a segment is compared with a snapshot taken right
    // after it, and one that ends a minute before its snapshot begins is read again from a later segment.
    let seen = -1;
    const liveLikeSnapshot = (what: string) =>
      eventually(
        async () => {
          const next = await newestScene(p.mediaUrl, seen);
          seen = next.n;
          const snap = await snapshot();
          return sceneDifference(next.scene, snap) < 8 ? { ...next, snap } : undefined;
        },
        what,
        30_000,
      );

    // Before the move: what the live stream shows is what a snapshot shows.
    const before = await liveLikeSnapshot('a live segment showing the snapshot’s scene');
    const snapBefore = before.snap;

    const moved = await tp.app.inject({
      method: 'POST',
      url: `/v2/cameras/${ptzCam.exid}/ptz/relative`,
      headers: owner.auth,
      payload: { pan: 0.3, tilt: 0.2, zoom: 0.2 },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const snapAfter = await snapshot();
    expect(sceneDifference(snapBefore, snapAfter)).toBeGreaterThan(15);

    // The live picture moves with the camera, to the snapshot's new scene: in a segment begun after the
    // move, or a later one (the scene is drawn twice a second and encoded in segments, so on a busy
    // machine the first segment after the move may still show part of the old picture).
    seen = (await newestScene(p.mediaUrl, -1)).n;
    const after = await liveLikeSnapshot('a live segment showing the moved scene');
    // And it is not the old picture: nearer the moved snapshot than the old one, and far from the
    // picture before the move (two frames of one scene differ by under 8 here; the move, by about 15).
    expect(sceneDifference(after.scene, snapBefore)).toBeGreaterThan(sceneDifference(after.scene, after.snap));
    expect(sceneDifference(before.scene, after.scene)).toBeGreaterThan(11);
  });
});

describe('media tokens', () => {
  let token: string;
  let otherCam: { exid: string };
  const media = (exid: string, t?: string) => `/v2/cameras/${exid}/hls/live.m3u8${t === undefined ? '' : `?token=${encodeURIComponent(t)}`}`;
  const segment = (exid: string, name: string, t: string) => `/v2/cameras/${exid}/hls/${name}?token=${encodeURIComponent(t)}`;

  beforeAll(async () => {
    otherCam = await tp.camera(owner, project.exid, 'Other');
    const res = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/hls?format=json`, headers: owner.auth });
    token = new URL(res.json().playlist_url).searchParams.get('token')!;
  });

  const expect401 = async (u: string, headers: Record<string, string> = {}) => {
    const res = await tp.app.inject({ method: 'GET', url: u, headers });
    expect(res.statusCode, `${u}: ${res.body}`).toBe(401);
    expect(res.json().code).toBe('UNAUTHORIZED');
    expect(res.headers['www-authenticate']).toContain('Token realm="overlook"');
  };

  it('refuses a missing, tampered, expired or foreign token, and a JWT in its place', async () => {
    await expect401(media(cam.exid));
    await expect401(media(cam.exid, ''));
    const [h, p, s] = token.split('.');
    await expect401(media(cam.exid, `${h}.${p}.${s!.slice(0, -2)}${s!.endsWith('AA') ? 'BB' : 'AA'}`));
    // Claims swapped to another camera without re-signing.
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), cam: otherCam.exid })).toString('base64url');
    await expect401(media(otherCam.exid, `${h}.${forged}.${s}`));
    // A valid token of camera A opens nothing of camera B.
    await expect401(media(otherCam.exid, token));
    await expect401(segment(otherCam.exid, 'seg_000001.ts', token));
    // Expired.
    const expired = await servicesOf(tp.app).signer.signFor(
      MEDIA_AUDIENCE,
      { sub: `user:${owner.id}`, uid: owner.id, cam: cam.exid, vid: 'v' },
      new Date(Date.now() - 60_000),
    );
    await expect401(media(cam.exid, expired));
    // The person's JWT is not a media token, in the query or as a header.
    await expect401(media(cam.exid, owner.token));
    await expect401(media(cam.exid), owner.auth);
    await expect401(segment(cam.exid, 'seg_000001.ts', owner.token));
    // Garbage.
    await expect401(media(cam.exid, 'not-a-token'));
  });

  it('a token stops working when its person loses access to the project', async () => {
    const member = await tp.person('viewer');
    await tp.addMember(owner, project.exid, member, 'viewer');
    const res = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/hls?format=json`, headers: member.auth });
    const u = new URL(res.json().playlist_url);
    expect((await tp.app.inject({ method: 'GET', url: u.pathname + u.search })).statusCode).toBe(200);
    const removed = await tp.app.inject({ method: 'DELETE', url: `/v2/projects/${project.exid}/members/${member.id}`, headers: owner.auth });
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    await expect401(u.pathname + u.search);
  });

  it('a media token is not a JWT: it opens no other endpoint', async () => {
    const res = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}`, headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(401);
    const hls = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/hls?token=${encodeURIComponent(token)}` });
    expect(hls.statusCode).toBe(401);
  });

  it('an API key on the token routes: 403 ENDPOINT_CLOSED_TO_KEYS', async () => {
    const key = await tp.key(owner, { projects: [project.exid], scopes: ['camera:live_view'] });
    for (const u of [media(cam.exid), segment(cam.exid, 'seg_000001.ts', 'x')]) {
      const res = await tp.app.inject({ method: 'GET', url: u, headers: key.headers });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('ENDPOINT_CLOSED_TO_KEYS');
    }
  });

  it('segment names are checked strictly: nothing outside the stream folder is served', async () => {
    const ok = await tp.app.inject({ method: 'GET', url: media(cam.exid, token) });
    expect(ok.statusCode).toBe(200);
    for (const name of ['..%2F..%2Fjwt-signing-key.pem', '..%2Flive.m3u8', 'live.m3u8.tmp', 'seg_1.ts', 'seg_000001.ts%00', 'seg_000001.TS', 'name.txt']) {
      const res = await tp.app.inject({ method: 'GET', url: segment(cam.exid, name, token) });
      expect([400, 404], `${name}: ${res.statusCode}`).toContain(res.statusCode);
      expect(res.body).not.toContain('PRIVATE KEY');
    }
    const long = await tp.app.inject({ method: 'GET', url: segment(cam.exid, `seg_${'0'.repeat(100)}.ts`, token) });
    expect(long.statusCode).toBe(400);
    // Dot segments are resolved by the router before routing (to another route, which refuses); never a file.
    for (const path of ['../../../jwt-signing-key.pem', '%2E%2E', '%2E%2E/%2E%2E/jwt-signing-key.pem']) {
      const raw = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/hls/${path}?token=${encodeURIComponent(token)}` });
      expect(raw.statusCode, path).toBeGreaterThanOrEqual(400);
      expect(raw.statusCode, path).toBeLessThan(500);
      expect(raw.body).not.toContain('PRIVATE KEY');
    }
  });
});

describe('streaming details', () => {
  it('the simulated camera reports what it makes; no RTSP or RTMP URL', async () => {
    const res = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/streaming`, headers: owner.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      hls_url: expect.stringMatching(new RegExp(`/v2/cameras/${cam.exid}/hls$`)),
      rtsp_url: null,
      rtmp_url: null,
      source: 'simulated',
      codec: 'h264',
      width: 640,
      height: 360,
      fps: 15,
      source_error: null,
    });
  });
});
