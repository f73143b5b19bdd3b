// WebRTC live view over WHEP, with a real WebRTC client (werift) on the other end: it offers to
// receive video, gets an answer and H.264 RTP from a `file` device within seconds, and ends the
// session with DELETE on the Location it was given. Bad offers 400, no token 401, unknown device 404.
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RTCPeerConnection, RTCRtpCodecParameters } from 'werift';
import { buildTestRecorder, eventually, type TestRecorder } from '../../helpers/recorder.js';

let r: TestRecorder;
let deviceId: string;

const h264 = new RTCRtpCodecParameters({
  mimeType: 'video/H264',
  clockRate: 90000,
  rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }],
  parameters: 'profile-level-id=42e01f;packetization-mode=1;level-asymmetry-allowed=1',
});

/** A receive-only viewer, as a browser would be: it offers, with its candidates gathered. */
async function viewer() {
  const pc = new RTCPeerConnection({ codecs: { video: [h264] } });
  const packets: { nal: number }[] = [];
  const stream: Buffer[] = [];
  const transceiver = pc.addTransceiver('video', { direction: 'recvonly' });
  transceiver.onTrack.subscribe((track) => {
    track.onReceiveRtp.subscribe((rtp) => {
      // NAL unit types: a fragmentation unit (28) names its own in the next byte, an aggregation (24) holds several.
      const p = rtp.payload;
      const type = p[0]! & 0x1f;
      const start = Buffer.from([0, 0, 0, 1]);
      // The byte stream starts at the first parameter sets (an aggregation packet, or a lone SPS).
      if (stream.length === 0 && !(type === 7 || (type === 24 && (p[3]! & 0x1f) === 7))) {
        if (type === 28) packets.push({ nal: p[1]! & 0x1f });
        else packets.push({ nal: type });
        return;
      }
      if (type === 28) {
        packets.push({ nal: p[1]! & 0x1f });
        // Depacketized to an H.264 byte stream, to check that it decodes.
        if (p[1]! & 0x80) stream.push(start, Buffer.from([(p[0]! & 0xe0) | (p[1]! & 0x1f)]));
        stream.push(p.subarray(2));
      } else if (type !== 24) {
        packets.push({ nal: type });
        stream.push(start, p);
      } else {
        for (let i = 1; i + 2 < p.length; i += 2 + p.readUInt16BE(i)) {
          packets.push({ nal: p[i + 2]! & 0x1f });
          stream.push(start, p.subarray(i + 2, i + 2 + p.readUInt16BE(i)));
        }
      }
    });
  });
  await pc.setLocalDescription(await pc.createOffer());
  return { pc, packets, stream, offer: pc.localDescription!.sdp };
}

const post = (id: string, sdp: string, headers: Record<string, string> = r.bearer(r.userToken)) =>
  r.app.inject({ method: 'POST', url: `/api/devices/${id}/webrtc`, headers: { ...headers, 'content-type': 'application/sdp' }, payload: sdp });

beforeAll(async () => {
  r = await buildTestRecorder({ OVERLOOK_RECORDER_SEGMENT_SECONDS: '60' });
  const res = await r.app.inject({
    method: 'POST',
    url: '/api/devices',
    headers: r.bearer(r.adminToken),
    payload: { name: 'Loop', type: 'file', stream_config: { path: r.video } },
  });
  deviceId = res.json().id;
  await eventually(async () => r.app.recorder.rtp.live(deviceId, 'main'), 15_000, 'the device to stream');
});
afterAll(() => r.close());

describe('WHEP', () => {
  it('a viewer gets an SDP answer and H.264 video (a keyframe with its parameter sets) within seconds; DELETE ends it', async () => {
    const v = await viewer();
    let location = '';
    let ended = false;
    try {
      const res = await post(deviceId, v.offer);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.headers['content-type']).toContain('application/sdp');
      location = String(res.headers.location);
      expect(location).toMatch(new RegExp(`^/api/devices/${deviceId}/webrtc\\?session=[0-9a-f]{32}$`));
      expect(res.body).toMatch(/^v=0/);
      expect(res.body).toMatch(/a=sendonly/);
      expect(res.body).toMatch(/a=rtpmap:\d+ H264\/90000/i);
      expect(res.body).toMatch(/a=candidate:/);

      const t0 = Date.now();
      await v.pc.setRemoteDescription({ type: 'answer', sdp: res.body });
      // SPS (7) and an IDR slice (5): a decoder can start from what arrived.
      await eventually(async () => v.packets.some((p) => p.nal === 7) && v.packets.some((p) => p.nal === 5), 15_000, 'a keyframe over WebRTC');
      expect(Date.now() - t0).toBeLessThan(15_000);
      expect(r.app.recorder.whep.count).toBe(1);
      // What arrived is H.264 a decoder reads without an error, from its first keyframe on.
      // A whole keyframe's fragments; a busy machine's UDP may drop one, and the next keyframe is a GOP away.
      await eventually(async () => v.packets.filter((p) => p.nal === 5).length > 20, 30_000, 'more video');
      const file = join(r.dir, 'webrtc.h264');
      writeFileSync(file, Buffer.concat(v.stream));
      const decoded = spawnSync('ffmpeg', ['-v', 'error', '-f', 'h264', '-i', file, '-f', 'null', '-'], { encoding: 'utf8' });
      expect(decoded.stderr).toBe('');
      const frames = execFileSync('ffprobe', ['-v', 'error', '-count_frames', '-show_entries', 'stream=nb_read_frames', '-of', 'csv=p=0', file], {
        encoding: 'utf8',
      });
      expect(Number(frames.trim())).toBeGreaterThan(5);

      expect((await r.app.inject({ method: 'DELETE', url: location, headers: r.bearer(r.userToken) })).statusCode).toBe(204);
      ended = true;
      expect(r.app.recorder.whep.count).toBe(0);
      expect((await r.app.inject({ method: 'DELETE', url: location, headers: r.bearer(r.userToken) })).statusCode).toBe(404);
    } finally {
      // A failure above leaves no session behind to fail the next test's count.
      if (location && !ended) await r.app.inject({ method: 'DELETE', url: location, headers: r.bearer(r.userToken) });
      await v.pc.close();
    }
  });

  it('refuses: a bad offer 400, no token or ?token= 401, an unknown device 404, another content type 415', async () => {
    const v = await viewer();
    const bad = await post(deviceId, 'hello');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'body' }] });
    // An offer with no H.264 to receive.
    const vp8Only = v.offer.replace(/H264\/90000/g, 'VP8/90000');
    expect((await post(deviceId, vp8Only)).statusCode).toBe(400);
    expect((await post(deviceId, v.offer, {})).statusCode).toBe(401);
    const byQuery = await r.app.inject({
      method: 'POST',
      url: `/api/devices/${deviceId}/webrtc?token=${r.userToken}`,
      headers: { 'content-type': 'application/sdp' },
      payload: v.offer,
    });
    expect(byQuery.statusCode).toBe(401);
    expect((await post('no-such-device', v.offer)).statusCode).toBe(404);
    const json = await r.app.inject({ method: 'POST', url: `/api/devices/${deviceId}/webrtc`, headers: r.bearer(r.userToken), payload: { sdp: v.offer } });
    expect([400, 415]).toContain(json.statusCode);
    expect((await r.app.inject({ method: 'DELETE', url: `/api/devices/${deviceId}/webrtc?session=nope`, headers: r.bearer(r.userToken) })).statusCode).toBe(
      400,
    );
    expect(r.app.recorder.whep.count).toBe(0);
    await v.pc.close();
  });
});
