// The WebRTC viewer cap holds under concurrent offers, and offers that could not become a viewer
// (no ICE credentials, no fingerprint, a flood of media sections) are refused before they cost a peer
// connection. A real werift viewer makes the offer; the device feed is a stand-in that answers slowly,
// so every offer is in flight at once.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { RTCPeerConnection, RTCRtpCodecParameters } from 'werift';
import { offerFault, WhepSessions } from '../../../src/recorder/live/whep-sessions.js';

const h264 = new RTCRtpCodecParameters({ mimeType: 'video/H264', clockRate: 90000, parameters: 'profile-level-id=42e01f;packetization-mode=1' });

async function viewerOffer(): Promise<string> {
  const pc = new RTCPeerConnection({ codecs: { video: [h264] } });
  pc.addTransceiver('video', { direction: 'recvonly' });
  await pc.setLocalDescription(await pc.createOffer());
  const sdp = pc.localDescription!.sdp;
  await pc.close();
  return sdp;
}

const sessions = new WhepSessions(
  {
    live: async () => {
      await sleep(50);
      return true;
    },
    subscribe: async () => () => {},
  },
  3,
  2,
);
afterAll(() => sessions.closeAll());

describe('WHEP cap and offers', () => {
  it('answers at most the cap of offers made at the same time', async () => {
    const offer = await viewerOffer();
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => sessions.create('d1', offer, `user-${i % 5}`)));
    const answered = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code);
    expect(answered).toHaveLength(3);
    expect(sessions.count).toBe(3);
    expect(new Set(refused)).toEqual(new Set(['TOO_MANY_REQUESTS']));
  });

  it('holds each user to their own cap, also under concurrency', async () => {
    await sessions.closeAll();
    const offer = await viewerOffer();
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => sessions.create('d1', offer, 'one-user')));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect((await sessions.create('d1', offer, 'another-user')).answer).toMatch(/^v=0/);
    await sessions.closeAll();
  });

  it('finds what is wrong with an offer that cannot become a viewer', async () => {
    const offer = await viewerOffer();
    expect(offerFault(offer)).toBeNull();
    expect(offerFault(offer.replace(/^a=ice-ufrag:.*$/m, ''))).toMatch(/ICE credentials/);
    expect(offerFault(offer.replace(/^a=ice-pwd:.*$/m, 'a=ice-pwd:short'))).toMatch(/ICE credentials/);
    expect(offerFault(offer.replace(/^a=fingerprint:.*$/m, 'a=fingerprint:sha-256 '))).toMatch(/fingerprint/);
    const section = offer.slice(offer.indexOf('m=video'));
    expect(offerFault(offer + section.repeat(49))).toMatch(/media sections/);
    expect(offerFault('hello')).toMatch(/SDP offer/);
  });
});
