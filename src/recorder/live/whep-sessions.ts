// WebRTC viewers (WHEP, RFC 9725): the viewer offers, the recorder answers with every ICE candidate
// in the answer (no trickle), and forwards the device's H.264 RTP to the viewer untouched. A session
// ends on DELETE, when the viewer's connection fails or closes, or when it never connects.
import { randomBytes } from 'node:crypto';
import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters } from 'werift';
import { ApiError, validation } from '../../lib/errors.js';
import type { RtpFeeds } from './rtp-feeds.js';

/** Viewers one recorder serves at once: each costs a DTLS-SRTP encryption of the whole stream. */
const MAX_WHEP_SESSIONS = 32;
/** Viewers one recorder user holds at once: a wall of a few cameras, not the whole cap. */
const MAX_WHEP_SESSIONS_PER_USER = 8;
/** A session whose viewer has not connected by then is dropped. */
const CONNECT_TIMEOUT_MS = 30_000;

interface Session {
  deviceId: string;
  userId: string;
  pc: RTCPeerConnection;
  unsubscribe: () => void;
  timer: NodeJS.Timeout;
}

const h264 = () =>
  new RTCRtpCodecParameters({
    mimeType: 'video/H264',
    clockRate: 90000,
    rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }, { type: 'goog-remb' }],
    parameters: 'profile-level-id=42e01f;packetization-mode=1;level-asymmetry-allowed=1',
  });

/** ffmpeg sends H.264 in fragmentation units (packetization mode 1): prefer the offer's codecs that say so. */
const mode1First = (codecs: RTCRtpCodecParameters[]) =>
  [...codecs].sort((a, b) => Number(/packetization-mode=1/.test(b.parameters ?? '')) - Number(/packetization-mode=1/.test(a.parameters ?? '')));

/** At most this many media sections in an offer: a viewer needs one video section, a browser offers a few. */
const MAX_MEDIA_SECTIONS = 4;

/** Why an offer cannot be a viewer's (RFC 8839 ICE credentials, RFC 8122 fingerprint), or null. */
export function offerFault(offer: string): string | null {
  if (!/^v=0\r?\n/.test(offer) || !/^m=video /m.test(offer)) return 'must be an SDP offer (application/sdp) with a video media section';
  if ((offer.match(/^m=/gm) ?? []).length > MAX_MEDIA_SECTIONS) return `must have at most ${MAX_MEDIA_SECTIONS} media sections`;
  if (!/^a=ice-ufrag:[A-Za-z0-9+/]{4,256}\s*$/m.test(offer) || !/^a=ice-pwd:[A-Za-z0-9+/]{22,256}\s*$/m.test(offer))
    return 'must carry ICE credentials (a=ice-ufrag of 4 to 256 characters, a=ice-pwd of 22 to 256)';
  if (!/^a=fingerprint:[A-Za-z0-9-]+ [0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){15,}\s*$/m.test(offer)) return 'must carry a DTLS fingerprint (a=fingerprint)';
  return null;
}

export class WhepSessions {
  private readonly sessions = new Map<string, Session>();
  /** Offers being answered: they hold a place under the cap before the first await, so concurrent offers cannot overshoot it. */
  private answering = 0;
  private readonly answeringFor = new Map<string, number>();

  constructor(
    private readonly feeds: Pick<RtpFeeds, 'live' | 'subscribe'>,
    private readonly max = MAX_WHEP_SESSIONS,
    private readonly maxPerUser = MAX_WHEP_SESSIONS_PER_USER,
  ) {}

  get count(): number {
    return this.sessions.size;
  }

  /** Answers a viewer's SDP offer for the device's live video; the session id names it for DELETE. */
  async create(deviceId: string, offer: string, userId: string): Promise<{ id: string; answer: string }> {
    const fault = offerFault(offer);
    if (fault) throw validation('body', fault);
    if (this.sessions.size + this.answering >= this.max)
      throw new ApiError('TOO_MANY_REQUESTS', `This recorder serves at most ${this.max} WebRTC viewers at once`);
    const held = [...this.sessions.values()].filter((s) => s.userId === userId).length + (this.answeringFor.get(userId) ?? 0);
    if (held >= this.maxPerUser) throw new ApiError('TOO_MANY_REQUESTS', `A recorder user watches at most ${this.maxPerUser} WebRTC streams at once`);
    this.answering++;
    this.answeringFor.set(userId, (this.answeringFor.get(userId) ?? 0) + 1);
    try {
      return await this.answer(deviceId, offer, userId);
    } finally {
      this.answering--;
      const left = (this.answeringFor.get(userId) ?? 1) - 1;
      if (left > 0) this.answeringFor.set(userId, left);
      else this.answeringFor.delete(userId);
    }
  }

  private async answer(deviceId: string, offer: string, userId: string): Promise<{ id: string; answer: string }> {
    if (!(await this.feeds.live(deviceId, 'main'))) throw new ApiError('CONFLICT', 'The device is not streaming now: no live video to send');

    const pc = new RTCPeerConnection({ codecs: { video: [h264()], audio: [] } });
    const track = new MediaStreamTrack({ kind: 'video' });
    let answer: string;
    try {
      await pc.setRemoteDescription({ type: 'offer', sdp: offer });
      const transceiver = pc.getTransceivers().find((t) => t.kind === 'video');
      if (!transceiver) throw new Error('no video');
      // werift answers an offer it shares no codec with rather than refusing it: check for H.264 here.
      if (!transceiver.codecs.some((c) => c.mimeType.toLowerCase() === 'video/h264')) throw new Error('no common codec');
      transceiver.codecs = mode1First(transceiver.codecs);
      await transceiver.sender.replaceTrack(track);
      transceiver.setDirection('sendonly');
      await pc.setLocalDescription(await pc.createAnswer());
      answer = pc.localDescription?.sdp ?? '';
    } catch (err) {
      await pc.close().catch(() => {});
      const noH264 = err instanceof Error && /codec/i.test(err.message);
      throw validation('body', noH264 ? 'the offer accepts no H.264 video, the only codec the recorder sends' : 'not an SDP offer the recorder can answer');
    }

    const id = randomBytes(16).toString('hex');
    const unsubscribe = await this.feeds.subscribe(deviceId, 'main', (packet) => track.writeRtp(packet));
    const timer = setTimeout(() => {
      if (pc.connectionState !== 'connected') void this.end(id);
    }, CONNECT_TIMEOUT_MS);
    timer.unref();
    this.sessions.set(id, { deviceId, userId, pc, unsubscribe, timer });
    pc.connectionStateChange.subscribe((state) => {
      if (state === 'failed' || state === 'closed') void this.end(id);
    });
    return { id, answer };
  }

  /** Ends a session of this device; false when there is none by that id. */
  async delete(deviceId: string, id: string): Promise<boolean> {
    if (this.sessions.get(id)?.deviceId !== deviceId) return false;
    await this.end(id);
    return true;
  }

  private async end(id: string): Promise<void> {
    const s = this.sessions.get(id);
    if (!s) return;
    this.sessions.delete(id);
    clearTimeout(s.timer);
    s.unsubscribe();
    await s.pc.close().catch(() => {});
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.end(id)));
  }
}
