// Live view of a REAL RTSP camera: rtsp-server-perl on loopback, ffmpeg publishing H.264 High 320x240
// to it, and a small HTTP server for the snapshot URL. The platform's HLS must copy the camera's video
// (same codec, profile and size: no re-encode), share one ffmpeg among viewers, stop when idle, and
// never show the camera's credentials.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { decodes, play, probeFile, processesWith, scratchDir, startRtspRig, type RtspRig } from './media-helpers.js';
import { eventually } from '../../helpers/eventually.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

/** The fake cameras listen on 127.0.0.1: opted in as a site's LAN would be (docs/security.md, Outbound connections). */
const LOCAL_CAMERAS = { OVERLOOK_ALLOWED_NETWORKS: '127.0.0.1/32' };

const PASSWORD = 'pa:ss@w0rd/secret';
let tp: TestPlatform;
let rig: RtspRig;
let owner: Person;
let project: { exid: string };
let camExid: string;
let snapServer: Server;
const scratch = scratchDir();

beforeAll(async () => {
  tp = await buildTestPlatform({ ...LOCAL_CAMERAS, OVERLOOK_HLS_IDLE_SECONDS: '3' });
  rig = await startRtspRig();
  const jpeg = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#225588' } })
    .jpeg()
    .toBuffer();
  snapServer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg));
  await new Promise<void>((r) => snapServer.listen(0, '127.0.0.1', r));
  owner = await tp.person('owner');
  project = await tp.project(owner);
  const res = await tp.app.inject({
    method: 'POST',
    url: '/v2/cameras',
    headers: owner.auth,
    payload: {
      name: 'Crane camera',
      project_exid: project.exid,
      rtsp_url: rig.url,
      snapshot_url: `http://127.0.0.1:${(snapServer.address() as AddressInfo).port}/snap.jpg`,
      username: 'viewer',
      password: PASSWORD,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  camExid = res.json().exid;
});

afterAll(async () => {
  snapServer?.close();
  const dataDir = tp.t.dataDir;
  await tp.close();
  expect(processesWith('live.m3u8', dataDir)).toEqual([]);
  await rig?.stop();
  for (const pid of rig?.pids ?? []) expect(existsSync(`/proc/${pid}/cmdline`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z')).toBe(false);
  scratch.remove();
});

describe('a real RTSP camera', () => {
  it('snapshots come from its snapshot URL', async () => {
    const res = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${camExid}/live/snapshot.jpg`, headers: owner.auth });
    expect(res.statusCode).toBe(200);
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 320, height: 240 });
  });

  it('streaming details are read from the stream, without credentials', async () => {
    const res = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${camExid}/streaming`, headers: owner.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      rtsp_url: rig.url,
      rtmp_url: null,
      source: 'rtsp',
      codec: 'h264',
      profile: 'High',
      width: 320,
      height: 240,
      fps: 15,
      source_error: null,
    });
    expect(res.body).not.toContain('viewer@');
    expect(res.body).not.toContain(encodeURIComponent(PASSWORD));
  });

  it('HLS copies the camera’s H.264, is shared by viewers, and stops when idle', async () => {
    const masterUrl = `/v2/cameras/${camExid}/hls`;
    const m1 = await tp.app.inject({ method: 'GET', url: masterUrl, headers: owner.auth });
    expect(m1.statusCode).toBe(200);
    expect(m1.body).toContain('RESOLUTION=320x240');
    expect(m1.body).toContain('CODECS="avc1.640028"');
    const p1 = await play(tp.app, masterUrl, m1.body, scratch.dir);
    // Copied, not re-encoded: the published profile and size (the platform encodes Main only).
    expect(await probeFile(p1.segmentFile)).toEqual(rig.published);
    await decodes(p1.segmentFile);
    const stream = servicesOf(tp.app).liveView.streams.get(camExid)!;
    expect(stream.spec.mode).toBe('copy');
    const pids = processesWith('live.m3u8', tp.t.dataDir);
    expect(pids).toEqual([stream.pid]);
    // The credentials went to ffmpeg only.
    expect(readFileSync(`/proc/${stream.pid}/cmdline`, 'utf8')).toContain(`viewer:${encodeURIComponent(PASSWORD)}@`);
    for (const body of [m1.body, p1.mediaPlaylist]) expect(body).not.toContain('viewer:');

    const key = await tp.key(owner, { projects: [project.exid], scopes: ['camera:live_view'] });
    const m2 = await tp.app.inject({ method: 'GET', url: masterUrl, headers: key.headers });
    const p2 = await play(tp.app, masterUrl, m2.body, scratch.dir);
    expect(await probeFile(p2.segmentFile)).toEqual(rig.published);
    expect(processesWith('live.m3u8', tp.t.dataDir)).toEqual([stream.pid]);
    const details = (await tp.app.inject({ method: 'GET', url: `/v2/cameras/${camExid}/streaming`, headers: owner.auth })).json();
    expect(details.hls).toEqual({ running: true, viewers: 2, mode: 'copy' });

    await eventually(() => servicesOf(tp.app).liveView.streams.get(camExid) === null, 'the idle stream to stop', 20_000);
    await eventually(() => !existsSync(stream.dir) && processesWith('live.m3u8', tp.t.dataDir).length === 0, 'ffmpeg to end and its folder to go', 10_000);
  });

  it('a camera sending another codec is encoded to H.264', async () => {
    const url = await rig.publish(['-c:v', 'mpeg4', '-q:v', '5', '-g', '15'], '352x288');
    const res = await tp.app.inject({
      method: 'POST',
      url: '/v2/cameras',
      headers: owner.auth,
      payload: { name: 'Old camera', project_exid: project.exid, rtsp_url: url },
    });
    const exid = res.json().exid;
    const details = (await tp.app.inject({ method: 'GET', url: `/v2/cameras/${exid}/streaming`, headers: owner.auth })).json();
    expect(details).toMatchObject({ codec: 'mpeg4', width: 352, height: 288 });
    const masterUrl = `/v2/cameras/${exid}/hls`;
    const m = await tp.app.inject({ method: 'GET', url: masterUrl, headers: owner.auth });
    const played = await play(tp.app, masterUrl, m.body, scratch.dir);
    expect(await probeFile(played.segmentFile)).toEqual({ codec: 'h264', profile: 'Main', width: 352, height: 288 });
    await decodes(played.segmentFile);
    expect(servicesOf(tp.app).liveView.streams.status(exid)).toMatchObject({ running: true, mode: 'encode' });
  });

  it('a camera whose RTSP server is gone answers 502 with a clear message', async () => {
    const dead = rig.url.replace(/:\d+\//, ':1/');
    const res = await tp.app.inject({
      method: 'POST',
      url: '/v2/cameras',
      headers: owner.auth,
      payload: { name: 'Gone', project_exid: project.exid, rtsp_url: dead },
    });
    const exid = res.json().exid;
    const m = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${exid}/hls?format=json`, headers: owner.auth });
    const u = new URL(m.json().playlist_url);
    const media = await tp.app.inject({ method: 'GET', url: u.pathname + u.search });
    expect(media.statusCode).toBe(502);
    expect(media.json().message).toContain('refused the connection');
    const details = (await tp.app.inject({ method: 'GET', url: `/v2/cameras/${exid}/streaming`, headers: owner.auth })).json();
    expect(details).toMatchObject({ source: 'rtsp', codec: null, source_error: 'the camera refused the connection' });
    // No snapshot URL: the frame comes from the stream, which is not there.
    const snap = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${exid}/live/snapshot`, headers: owner.auth });
    expect(snap.statusCode).toBe(502);
  });

  it('a camera with only an RTSP URL gets its snapshot from a frame of the stream', async () => {
    const res = await tp.app.inject({
      method: 'POST',
      url: '/v2/cameras',
      headers: owner.auth,
      payload: { name: 'Stream only', project_exid: project.exid, rtsp_url: rig.url },
    });
    const snap = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${res.json().exid}/live/snapshot.jpg`, headers: owner.auth });
    expect(snap.statusCode, snap.body).toBe(200);
    expect(await sharp(snap.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 320, height: 240 });
  });
});
