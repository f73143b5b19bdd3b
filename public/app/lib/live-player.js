// The camera's live stream in a <video>, with hls.js (native HLS where the browser has it). The player
// cannot send the Authorization header, so it uses the media-token URL `GET /v2/cameras/{id}/hls?format=json`
// gives (docs/cameras.md, Live view): the token rides in the playlist URL and the platform writes a token
// into every segment URI. The playlist URL's token expires (`expires_at`), so playlist reloads ask for a
// fresh URL shortly before. Everything stops when the screen goes: the platform then ends the stream
// once nobody fetches from it.
import Hls from 'hls.js';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, get } from './api.js';

/** Ask for a fresh playlist URL a minute before the token in the current one expires (sooner for short-lived tokens). */
const RENEW_BEFORE_MS = 60_000;

/** The API names its public address; the app fetches from its own origin (the one its policy allows). */
const sameOrigin = (url) => {
  const u = new URL(url, location.href);
  return u.pathname + u.search;
};

/** The API's refusal carried in a failed XHR of hls.js, as an ApiError with the server's message. */
function refusalOf(data) {
  const xhr = data.networkDetails;
  const status = data.response?.code ?? xhr?.status ?? 0;
  let body = null;
  try {
    body = xhr && typeof xhr.responseText === 'string' ? JSON.parse(xhr.responseText) : null;
  } catch {
    body = null;
  }
  return status ? new ApiError(status, body) : null;
}

/** Whether the platform refused for load (too many streams on the node, or the person started too many). */
export const isBusy = (error) => error instanceof ApiError && (error.status === 429 || error.status === 503);

/**
 * Plays camera `camera` in the video element `videoRef` points to. `attempt` starts again when it
 * changes (a "Try again" button). Returns { phase: 'starting' | 'playing' | 'failed', error }.
 */
export function useLivePlayer(camera, videoRef, attempt = 0) {
  const [state, setState] = useState({ phase: 'starting', error: null });
  useEffect(() => {
    const video = videoRef.current;
    if (!video || !camera) return undefined;
    const controller = new AbortController();
    let stopped = false;
    let hls = null;
    let entry = null;
    const fail = (error) => {
      if (stopped) return;
      hls?.destroy();
      hls = null;
      setState({ phase: 'failed', error });
    };
    const fresh = async () => {
      const e = await get(`/v2/cameras/${encodeURIComponent(camera)}/hls?format=json`, { signal: controller.signal });
      const expires = Date.parse(e.expires_at);
      entry = { url: sameOrigin(e.playlist_url), renewAt: expires - Math.min(RENEW_BEFORE_MS, (expires - Date.now()) / 4) };
      return entry.url;
    };
    const current = async () => (entry && Date.now() < entry.renewAt ? entry.url : fresh());
    const onPlaying = () => stopped || setState({ phase: 'playing', error: null });
    const onNativeError = () => fail(new Error('The live stream stopped'));
    video.addEventListener('playing', onPlaying);

    setState({ phase: 'starting', error: null });
    (async () => {
      const url = await fresh();
      // The first fetch of the playlist starts the camera's stream; when the platform refuses (503, 429)
      // its answer says why, which the person should read rather than a player's error code.
      const res = await fetch(url, { cache: 'no-store', signal: controller.signal });
      if (!res.ok) throw new ApiError(res.status, await res.json().catch(() => null));
      if (stopped) return;
      if (Hls.isSupported()) {
        hls = new Hls({
          enableWorker: false,
          // Playlist reloads carry a token that is still valid; segment URIs come with their own.
          xhrSetup: async (xhr, target) => {
            if (new URL(target, location.href).pathname.endsWith('/live.m3u8')) xhr.open('GET', await current(), true);
          },
        });
        let recovered = false;
        hls.on(Hls.Events.ERROR, (_event, data) => {
          if (!data.fatal) return;
          if (data.type === Hls.ErrorTypes.MEDIA_ERROR && !recovered) {
            recovered = true;
            hls.recoverMediaError();
            return;
          }
          fail(refusalOf(data) ?? new Error(`The live stream stopped (${data.details})`));
        });
        hls.loadSource(url);
        hls.attachMedia(video);
      } else if (video.canPlayType('application/vnd.apple.mpegurl')) {
        video.addEventListener('error', onNativeError);
        video.src = url;
      } else {
        throw new Error('This browser cannot play live video; the picture below is refreshed instead.');
      }
      video.play().catch(() => undefined);
    })().catch((error) => {
      if (error?.name !== 'AbortError') fail(error);
    });

    return () => {
      stopped = true;
      controller.abort();
      video.removeEventListener('playing', onPlaying);
      video.removeEventListener('error', onNativeError);
      hls?.destroy();
      video.removeAttribute('src');
      video.load();
    };
  }, [camera, attempt]);
  return state;
}
