// One <video>, three ways to fill it: live over WebRTC (WHEP), live over HLS, or recorded footage over
// HLS from a moment (`pos`). Live tries WebRTC first, because it shows the camera with well under a
// second of delay; when the recorder refuses the offer, the connection does not come up within
// CONNECT_WAIT_MS, or no frame arrives within FRAME_WAIT_MS of connecting, it falls back to the HLS
// playlist (a few seconds behind, but it works through any proxy).
import Hls from '/ui/vendor/hls.mjs';

/** How long a connected WebRTC session may take to show its first frame. */
const FRAME_WAIT_MS = 3000;
/** How long ICE and DTLS may take to connect before that (a busy recorder or a slow network). */
const CONNECT_WAIT_MS = 4000;
const ICE_WAIT_MS = 2000;
const RETRY_MS = 2000;

class Unauthorized extends Error {}

/** Resolves true once the video shows a frame, false after `ms`. */
function firstFrame(video, ms) {
  return new Promise((resolve) => {
    const start = video.currentTime;
    const timer = setTimeout(() => finish(false), ms);
    const poll = setInterval(() => {
      if (video.videoWidth > 0 && (video.currentTime > start || video.readyState >= 2)) finish(true);
    }, 100);
    function finish(ok) {
      clearTimeout(timer);
      clearInterval(poll);
      resolve(ok);
    }
  });
}

/** Resolves true once the peer connection is connected, false when it fails or after `ms`. */
function connected(pc, ms) {
  return new Promise((resolve) => {
    const check = () => {
      if (pc.connectionState === 'connected') finish(true);
      else if (pc.connectionState === 'failed' || pc.connectionState === 'closed') finish(false);
    };
    const timer = setTimeout(() => finish(false), ms);
    function finish(ok) {
      clearTimeout(timer);
      pc.removeEventListener('connectionstatechange', check);
      resolve(ok);
    }
    pc.addEventListener('connectionstatechange', check);
    check();
  });
}

function iceGathered(pc, ms) {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      if (pc.iceGatheringState !== 'complete') return;
      pc.removeEventListener('icegatheringstatechange', done);
      resolve();
    };
    pc.addEventListener('icegatheringstatechange', done);
    // Host candidates on the local network come at once; do not wait for slow ones forever.
    setTimeout(resolve, ms);
  });
}

export class Player {
  /**
   * @param {HTMLVideoElement} video
   * @param {{ token: () => string, onTransport: (label: string) => void, onProblem: (text: string) => void, onUnauthorized: () => void }} hooks
   */
  constructor(video, hooks) {
    this.video = video;
    this.hooks = hooks;
    this.generation = 0;
    this.hls = null;
    this.pc = null;
    this.whepResource = null;
    this.retry = null;
  }

  /** Stops whatever plays; a WHEP session is ended on the recorder too. */
  stop() {
    this.generation++;
    clearTimeout(this.retry);
    this.hls?.destroy();
    this.hls = null;
    if (this.pc) {
      this.pc.close();
      this.pc = null;
    }
    if (this.whepResource) {
      // keepalive: the DELETE still goes out when the tab is closing.
      fetch(this.whepResource, { method: 'DELETE', headers: this.auth(), keepalive: true }).catch(() => {});
      this.whepResource = null;
    }
    this.video.srcObject = null;
    this.video.removeAttribute('src');
    this.video.removeAttribute('poster');
    this.video.load();
  }

  auth() {
    return { authorization: `Bearer ${this.hooks.token()}` };
  }

  async live(deviceId) {
    this.stop();
    const gen = this.generation;
    // The newest recorded frame stands in while the live stream connects.
    this.video.poster = `/api/devices/${encodeURIComponent(deviceId)}/snapshot?token=${encodeURIComponent(this.hooks.token())}`;
    this.hooks.onTransport('connecting…');
    try {
      if (await this.webrtc(deviceId, gen)) return;
    } catch (err) {
      if (err instanceof Unauthorized) return this.hooks.onUnauthorized();
      console.info('WebRTC live view failed; playing HLS instead:', err);
    }
    if (gen !== this.generation) return;
    this.liveHls(deviceId, gen);
  }

  liveHls(deviceId, gen) {
    this.closeWebrtc();
    this.hooks.onTransport('connecting…');
    this.hlsPlay(`/api/devices/${encodeURIComponent(deviceId)}/hls/index.m3u8`, gen, true);
  }

  recorded(deviceId, at) {
    this.stop();
    const q = new URLSearchParams({ pos: at.toISOString() });
    this.hlsPlay(`/api/devices/${encodeURIComponent(deviceId)}/hls/index.m3u8?${q}`, this.generation, false);
  }

  /** The recorder's WHEP endpoint: our offer, its answer; true once a frame shows. */
  async webrtc(deviceId, gen) {
    if (typeof RTCPeerConnection !== 'function') return false;
    const pc = new RTCPeerConnection();
    this.pc = pc;
    pc.addTransceiver('video', { direction: 'recvonly' });
    pc.addEventListener('track', (e) => {
      this.video.srcObject = e.streams[0] ?? new MediaStream([e.track]);
      this.video.play().catch(() => {});
    });
    await pc.setLocalDescription(await pc.createOffer());
    await iceGathered(pc, ICE_WAIT_MS);
    if (gen !== this.generation) return false; // stop() closed this pc already
    const res = await fetch(`/api/devices/${encodeURIComponent(deviceId)}/webrtc`, {
      method: 'POST',
      headers: { ...this.auth(), 'content-type': 'application/sdp' },
      body: pc.localDescription.sdp,
    });
    if (res.status === 401) throw new Unauthorized();
    if (res.status !== 201) {
      console.info(`The recorder answered the WebRTC offer with ${res.status}; playing HLS instead`);
      return false;
    }
    const location = res.headers.get('location');
    const resource = location ? new URL(location, window.location.href).href : null;
    const answer = await res.text();
    if (gen !== this.generation) {
      // The person moved on while the recorder answered: end the session it just made.
      if (resource) fetch(resource, { method: 'DELETE', headers: this.auth() }).catch(() => {});
      return false;
    }
    this.whepResource = resource;
    await pc.setRemoteDescription({ type: 'answer', sdp: answer });
    if (gen !== this.generation) return false;
    const ok = (await connected(pc, CONNECT_WAIT_MS)) && (await firstFrame(this.video, FRAME_WAIT_MS));
    if (!ok) console.info(`No WebRTC frame within ${FRAME_WAIT_MS} ms (connection ${pc.connectionState}); playing HLS instead`);
    if (!ok || gen !== this.generation) return false;
    this.hooks.onTransport('WebRTC');
    // A WebRTC connection that breaks later (network change, recorder restart) continues over HLS.
    pc.addEventListener('connectionstatechange', () => {
      if (pc.connectionState === 'failed' && gen === this.generation && this.pc === pc) this.liveHls(deviceId, gen);
    });
    return true;
  }

  closeWebrtc() {
    const resource = this.whepResource;
    this.pc?.close();
    this.pc = null;
    this.whepResource = null;
    this.video.srcObject = null;
    if (resource) fetch(resource, { method: 'DELETE', headers: this.auth() }).catch(() => {});
  }

  hlsPlay(path, gen, live) {
    const withToken = `${path}${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(this.hooks.token())}`;
    const video = this.video;
    if (!Hls.isSupported()) {
      // Safari plays HLS itself.
      video.src = withToken;
      video.play().catch(() => {});
      firstFrame(video, 15000).then((ok) => ok && gen === this.generation && this.hooks.onTransport('HLS'));
      return;
    }
    // No worker: it would be a blob: script, which the page's Content-Security-Policy refuses.
    const hls = new Hls({ enableWorker: false, liveSyncDurationCount: 2, manifestLoadingMaxRetry: 2 });
    this.hls = hls;
    // The video gets hls.js's MediaSource only once there is a playlist to play: one that answers 404
    // (nothing recorded yet, retried every few seconds) never hands the element a blob: URL that is
    // revoked while it loads (which the browser reports as a failed load).
    hls.on(Hls.Events.MANIFEST_PARSED, () => {
      if (!hls.media) hls.attachMedia(video);
      video.play().catch(() => {});
    });
    hls.on(Hls.Events.FRAG_BUFFERED, () => {
      if (gen === this.generation) this.hooks.onTransport('HLS');
    });
    hls.on(Hls.Events.ERROR, (_e, data) => {
      if (gen !== this.generation) return;
      if (data.response?.code === 401) return this.hooks.onUnauthorized();
      if (!data.fatal) return;
      hls.destroy();
      if (data.response?.code === 404) {
        this.hooks.onProblem(live ? 'Nothing recorded yet; waiting for the first video…' : 'Nothing was recorded at or after that moment.');
      } else {
        this.hooks.onProblem(`The video could not be played (${data.details}); trying again…`);
      }
      if (live || data.response?.code !== 404) this.retry = setTimeout(() => gen === this.generation && this.hlsPlay(path, gen, live), RETRY_MS);
    });
    hls.loadSource(withToken);
  }

  /** The wall-clock time of the frame on screen (recorded HLS carries it), or null. */
  playingDate() {
    return this.hls?.playingDate ?? null;
  }
}
