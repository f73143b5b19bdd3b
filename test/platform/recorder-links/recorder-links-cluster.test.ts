// The site link on two nodes (docs/site-link.md, Several nodes), PostgreSQL only: the recorder holds its
// link on node A; live view and snapshots asked of node B reach A through the signed node relay, and
// when the recorder connects to B instead, those asked of A reach B; its frames are read on either
// node; a forged relay request is refused; revoking through B closes the connection on A within 1 s.
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloseCode, PAIR_PATH } from '../../../src/lib/site-link/protocol.js';
import { buildPeerNode, type TestNode } from '../../helpers/cluster.js';
import { testDialect } from '../../helpers/db.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { FakeRecorder, waitFor } from './fake-recorder.js';

describe.skipIf(testDialect() !== 'postgres')('site links on two nodes (PostgreSQL)', () => {
  let tp: TestPlatform;
  let b: TestNode;
  let owner: Person;
  let project: { exid: string };
  let aUrl: string;
  let bUrl: string;
  let r: FakeRecorder;
  let credential: string;
  let linkId: string;
  let jpeg: Buffer;

  beforeAll(async () => {
    tp = await buildTestPlatform();
    owner = await tp.person('cluster-link-owner');
    project = await tp.project(owner, 'Two-node site');
    b = await buildPeerNode(tp);
    await tp.app.listen({ host: '127.0.0.1', port: 0 });
    await b.app.listen({ host: '127.0.0.1', port: 0 });
    aUrl = `http://127.0.0.1:${(tp.app.server.address() as AddressInfo).port}`;
    bUrl = `http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`;
    jpeg = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#333' } })
      .jpeg()
      .toBuffer();
    const made = await b.app.inject({ method: 'POST', url: `/v2/projects/${project.exid}/recorder-links`, headers: owner.auth, payload: {} });
    linkId = made.json().id;
    const paired = await b.app.inject({ method: 'POST', url: PAIR_PATH, payload: { code: made.json().pairing_code } });
    expect(paired.statusCode, paired.body).toBe(200);
    credential = paired.json().credential;
    r = await recorderOn(aUrl);
  });
  afterAll(async () => {
    for (const one of recorders) one.close();
    await b?.close();
    await tp?.close();
  });

  const recorders: FakeRecorder[] = [];
  /** The recorder connected to one node, answering snapshots and live view as a real one does. */
  const recorderOn = async (url: string) => {
    const one = new FakeRecorder(url, credential);
    recorders.push(one);
    await waitFor('welcome', () => one.last('welcome'));
    one.answer = (req) => {
      if (req.what === 'snapshot') return { status: 200, content_type: 'image/jpeg', body: jpeg };
      if (req.what === 'live_playlist') return { status: 200, body: Buffer.from('#EXTM3U\n#EXTINF:2.0,\nseg_7.ts\n') };
      if (req.what === 'live_segment') return { status: 200, content_type: 'video/mp2t', body: Buffer.from(`segment ${req.name}`) };
      return null;
    };
    return one;
  };
  /** A snapshot and a live segment of the camera, asked of one node. */
  const viewThrough = async (node: TestPlatform['app'], cameraExid: string) => {
    const shot = await node.inject({ method: 'GET', url: `/v2/cameras/${cameraExid}/live/snapshot.jpg`, headers: owner.auth });
    expect(shot.statusCode, shot.body).toBe(200);
    expect(shot.rawPayload.equals(jpeg)).toBe(true);
    const master = await node.inject({ method: 'GET', url: `/v2/cameras/${cameraExid}/hls?format=json`, headers: owner.auth });
    expect(master.statusCode, master.body).toBe(200);
    const url = new URL(master.json().playlist_url);
    const playlist = await node.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(playlist.statusCode, playlist.body).toBe(200);
    const seg = playlist.body.split('\n').find((l) => l.startsWith('seg_7.ts?token='))!;
    const segment = await node.inject({ method: 'GET', url: `/v2/cameras/${cameraExid}/hls/${seg}` });
    expect(segment.statusCode, segment.body).toBe(200);
    expect(segment.body).toBe('segment seg_7.ts');
  };

  const linkedCamera = () =>
    waitFor('the linked camera', async () => {
      const res = await b.app.inject({ method: 'GET', url: `/v2/projects/${project.exid}/cameras`, headers: owner.auth });
      const body = res.json();
      const cams = (Array.isArray(body) ? body : body.cameras) as { exid: string; name: string }[];
      return cams.find((c) => c.name === 'Yard');
    });

  it('answers snapshots and live view of a camera whose link node A holds, through node B', async () => {
    r.devices([{ id: 'yard', name: 'Yard', state: 'streaming', timezone: 'UTC' }]);
    const cam = await linkedCamera();
    const asked = r.requests.length;
    await viewThrough(b.app, cam.exid);
    expect(r.requests.length).toBeGreaterThan(asked);
    // Through A, the same answers come straight from the link.
    await viewThrough(tp.app, cam.exid);
  });

  it('answers through A once the recorder connects to B, and stores its frames for either node to read', async () => {
    const cam = await linkedCamera();
    const onB = await recorderOn(bUrl);
    await waitFor('the connection on A replaced', () => r.closeCode !== null);
    expect(r.closeCode).toBe(CloseCode.REPLACED);
    onB.devices([{ id: 'yard', name: 'Yard', state: 'streaming', timezone: 'UTC' }]);
    const asked = onB.requests.length;
    await viewThrough(tp.app, cam.exid);
    expect(onB.requests.length).toBeGreaterThan(asked);
    await viewThrough(b.app, cam.exid);

    const takenAt = '2026-11-20T10:00:00.250Z';
    onB.frame(1, 'yard', takenAt, jpeg);
    await waitFor('ack 1', () => onB.acked(1));
    for (const node of [tp.app, b.app]) {
      const frame = await node.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/recordings/snapshots/${takenAt}?view=true`, headers: owner.auth });
      expect(frame.statusCode, frame.body).toBe(200);
      expect(frame.rawPayload.equals(jpeg)).toBe(true);
    }
    // Back to A for what follows.
    r = await recorderOn(aUrl);
    await waitFor('the connection on B replaced', () => onB.closeCode !== null);
  });

  it('refuses relay requests that no node signed', async () => {
    const cam = await linkedCamera();
    const forged = await tp.app.inject({
      method: 'GET',
      url: `/v2/recorder-links/relay/${cam.exid}/snapshot`,
      headers: { 'x-overlook-relay': `${Date.now()}.${'0'.repeat(64)}` },
    });
    expect(forged.statusCode).toBe(401);
    const none = await tp.app.inject({ method: 'GET', url: `/v2/recorder-links/relay/${cam.exid}/snapshot` });
    expect(none.statusCode).toBe(401);
  });

  it('closes the connection on A within 1 s of a revocation through B', async () => {
    const started = Date.now();
    const res = await b.app.inject({ method: 'DELETE', url: `/v2/projects/${project.exid}/recorder-links/${linkId}`, headers: owner.auth });
    expect(res.statusCode).toBe(204);
    await waitFor('closed on A', () => r.closeCode !== null, 1000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(r.closeCode).toBe(CloseCode.REVOKED);
    const cam = await linkedCamera();
    expect((await b.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/live/snapshot`, headers: owner.auth })).statusCode).toBe(503);
  });
});
