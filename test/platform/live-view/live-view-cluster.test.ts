// Live view on several nodes (docs/deploy.md, Live view on several nodes), PostgreSQL only: two nodes on
// one schema, the simulated camera. One ffmpeg per camera across the nodes, under the camera's
// `live:<exid>` lease; the playlist and segments asked of the node without the stream are passed to
// the node running it (its address recorded with the lease), tokens issued by either node working on
// both; nothing else is passed on, nor a request already passed; and when the running node dies
// (heartbeat and streams stopped, nothing released) the other one starts its own stream once the lease
// has expired.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import { FORWARDED_HEADER, liveUrl } from '../../../src/platform/live-view/live-proxy.js';
import { liveLease } from '../../../src/platform/live-view/live-view-service.js';
import { buildPeerNode, type TestNode } from '../../helpers/cluster.js';
import { testDialect } from '../../helpers/db.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { play, probeFile, processesWith, scratchDir, uris } from './media-helpers.js';
import { eventually } from '../../helpers/eventually.js';

describe.skipIf(testDialect() !== 'postgres')('live view on two nodes (PostgreSQL)', () => {
  let tp: TestPlatform;
  let b: TestNode;
  let owner: Person;
  let cam: { exid: string };
  let aUrl: string;
  let dataDir: string;
  const scratch = scratchDir();
  const LEASE_SECONDS = 2;

  beforeAll(async () => {
    tp = await buildTestPlatform({ OVERLOOK_HLS_IDLE_SECONDS: '60', OVERLOOK_WORK_LEASE_SECONDS: String(LEASE_SECONDS) });
    dataDir = tp.t.dataDir;
    owner = await tp.person('live-owner');
    const project = await tp.project(owner, 'Live site');
    cam = await tp.camera(owner, project.exid, 'Live cam');
    b = await buildPeerNode(tp);
    // A listens, so B can reach it; with no OVERLOOK_NODE_URL its address is the one it listens on.
    await tp.app.listen({ host: '127.0.0.1', port: 0 });
    aUrl = `http://127.0.0.1:${(tp.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await b?.close();
    await tp?.close();
    // Closing the nodes stops every stream they started.
    expect(processesWith('live.m3u8', dataDir)).toEqual([]);
    scratch.remove();
  });

  /** ffmpeg processes of live streams, on either node (they share the data dir here). */
  const ffmpegs = () => processesWith('live.m3u8', dataDir);
  const masterUrl = () => `/v2/cameras/${cam.exid}/hls`;
  const master = async (node: { app: TestPlatform['app'] }) => {
    const res = await node.app.inject({ method: 'GET', url: masterUrl(), headers: owner.auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  };

  it('a stream started by A is served through B: its playlist and segments, with one ffmpeg for both nodes', async () => {
    const onA = await play(tp.app, masterUrl(), await master(tp), scratch.dir);
    expect(await servicesOf(tp.app).workLeases.holder(liveLease(cam.exid))).toEqual({ nodeId: servicesOf(tp.app).workLeases.nodeId, url: aUrl });

    // A's playlist URL (A's token) asked of B: A's answer, passed through.
    const playlist = await b.app.inject({ method: 'GET', url: onA.mediaUrl });
    expect(playlist.statusCode, playlist.body).toBe(200);
    expect(playlist.headers['content-type']).toContain('application/vnd.apple.mpegurl');
    expect(playlist.headers['cache-control']).toBe('no-store');
    expect(playlist.body).toContain('#EXTM3U');
    const names = uris(playlist.body).map((u) => u.split('?')[0]);
    expect(names.length).toBeGreaterThan(0);
    for (const n of names) expect(n).toMatch(/^seg_\d+\.ts$/);

    // A segment of that playlist asked of B.
    const [first] = uris(playlist.body);
    const seg = await b.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/hls/${first}` });
    expect(seg.statusCode, seg.body).toBe(200);
    expect(seg.headers['content-type']).toBe('video/mp2t');
    expect(seg.headers['cache-control']).toBe('private, max-age=60');
    const file = join(scratch.dir, 'via-b.ts');
    writeFileSync(file, seg.rawPayload);
    expect(await probeFile(file)).toMatchObject({ codec: 'h264' });

    // A viewer who starts on B (B's tokens) plays A's stream too.
    await play(b.app, masterUrl(), await master(b), scratch.dir);
    expect(servicesOf(b.app).liveView.streams.get(cam.exid)).toBeNull();
    expect(servicesOf(tp.app).liveView.streams.get(cam.exid)).not.toBeNull();
    expect(ffmpegs()).toHaveLength(1);
  }, 60_000);

  it('passes on only the live playlist and segments, to an http(s) address, and never a request already passed on', async () => {
    expect(liveUrl(aUrl, cam.exid, 'live.m3u8', 'a.b.c').toString()).toBe(`${aUrl}/v2/cameras/${cam.exid}/hls/live.m3u8?token=a.b.c`);
    expect(liveUrl(`${aUrl}/overlook/`, cam.exid, 'seg_000001.ts', 't').pathname).toBe(`/overlook/v2/cameras/${cam.exid}/hls/seg_000001.ts`);
    for (const file of ['../live.m3u8', 'secret.key', 'seg_1.ts/../x', '']) expect(() => liveUrl(aUrl, cam.exid, file, 't')).toThrow();
    for (const bad of ['file:///etc/passwd', 'ftp://127.0.0.1/', 'http://user:pw@127.0.0.1/', 'not a url']) {
      expect(() => liveUrl(bad, cam.exid, 'live.m3u8', 't')).toThrow();
    }
    // A request marked as passed on is answered by B itself: it does not run the stream, so 503 (no loop).
    const onB = await play(b.app, masterUrl(), await master(b), scratch.dir);
    const again = await b.app.inject({ method: 'GET', url: onB.mediaUrl, headers: { [FORWARDED_HEADER]: '1' } });
    expect(again.statusCode, again.body).toBe(503);
    const seg = await b.app.inject({ method: 'GET', url: onB.segmentUrls[0]!, headers: { [FORWARDED_HEADER]: '1' } });
    expect(seg.statusCode, seg.body).toBe(404);
    expect(ffmpegs()).toHaveLength(1);
  }, 60_000);

  it('when A dies, B starts its own stream once A’s lease has expired', async () => {
    const a = servicesOf(tp.app);
    const bNode = servicesOf(b.app);
    const mediaUrl = (await play(b.app, masterUrl(), await master(b), scratch.dir)).mediaUrl;
    // What a killed node does: no more renewals, its ffmpeg gone, nothing released.
    a.workLeases.halt();
    const died = Date.now();
    expect(await bNode.workLeases.holder(liveLease(cam.exid))).toMatchObject({ nodeId: a.workLeases.nodeId });
    await a.liveView.streams.close();
    await eventually(() => ffmpegs().length === 0, 'A’s ffmpeg to end', 10_000);

    const res = await eventually(
      async () => {
        const r = await b.app.inject({ method: 'GET', url: mediaUrl });
        return r.statusCode === 200 ? r : false;
      },
      'B to serve the playlist from a stream of its own',
      20_000,
    );
    // Not before the lease ran out: at least the lease time after A's last renewal (a third of it before dying).
    expect(Date.now() - died).toBeGreaterThanOrEqual(((LEASE_SECONDS * 1000) / 3) * 2 - 100);
    expect(res.body).toContain('#EXTM3U');
    expect(bNode.liveView.streams.get(cam.exid)).not.toBeNull();
    expect(await bNode.workLeases.holder(liveLease(cam.exid))).toEqual({ nodeId: bNode.workLeases.nodeId, url: null });
    expect(ffmpegs()).toHaveLength(1);
    const [first] = uris(res.body);
    const seg = await b.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/hls/${first}` });
    expect(seg.statusCode, seg.body).toBe(200);
  }, 60_000);
});
