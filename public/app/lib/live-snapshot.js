// A camera's picture now (GET /v2/cameras/{id}/live/snapshot.jpg, docs/cameras.md), refreshed while the
// screen shows it: the camera grid's thumbnails and the live view's fallback when no stream plays.
// Unlike useImage it keeps the reason a picture could not be had and the time the frame was taken.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, signOut, token } from './api.js';
import { html } from './html.js';

const snapshotPath = (camera) => `/v2/cameras/${encodeURIComponent(camera)}/live/snapshot.jpg`;

/**
 * { src, takenAt, error, loading } for the camera's live snapshot, fetched again every `everyMs`
 * (skipped while the tab is hidden). `src` is an object URL (an <img> cannot send the Authorization header).
 */
export function useLiveSnapshot(camera, everyMs = 10_000) {
  const [state, setState] = useState({ src: null, takenAt: null, error: null, loading: true });
  useEffect(() => {
    if (!camera) return undefined;
    const controller = new AbortController();
    const urls = [];
    let stopped = false;
    let busy = false;
    const load = async () => {
      if (busy || (document.hidden && urls.length > 0)) return;
      busy = true;
      try {
        const res = await fetch(snapshotPath(camera), {
          headers: { authorization: `Bearer ${token()}`, accept: 'image/jpeg' },
          cache: 'no-store',
          signal: controller.signal,
        });
        if (res.status === 401) signOut();
        if (!res.ok) throw new ApiError(res.status, await res.json().catch(() => null));
        const src = URL.createObjectURL(await res.blob());
        if (stopped) return URL.revokeObjectURL(src);
        // The picture shown until now is released one refresh later, once the new one has replaced it.
        urls.push(src);
        while (urls.length > 2) URL.revokeObjectURL(urls.shift());
        setState({ src, takenAt: res.headers.get('x-snapshot-date'), error: null, loading: false });
      } catch (error) {
        if (!stopped) setState({ src: null, takenAt: null, error, loading: false });
      } finally {
        busy = false;
      }
    };
    load();
    const timer = everyMs ? setInterval(load, everyMs) : undefined;
    return () => {
      stopped = true;
      controller.abort();
      clearInterval(timer);
      for (const u of urls) URL.revokeObjectURL(u);
    };
  }, [camera, everyMs]);
  return state;
}

export const timeOfDay = (iso) => (iso ? new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' }) : '');

/** The picture of `useLiveSnapshot`, or what stands in for it: loading, or "no image" with the reason. */
export function CameraPicture({ name, shot }) {
  if (shot.src) {
    return html`<img class="camera-picture" src=${shot.src} alt=${`The picture from ${name}${shot.takenAt ? ` at ${timeOfDay(shot.takenAt)}` : ''}`} />`;
  }
  if (shot.loading) return html`<div class="camera-picture placeholder"><span>Loading the picture…</span></div>`;
  return html`
    <div class="camera-picture placeholder no-image">
      <strong>No image</strong>
      <span>${name} cannot be reached${shot.error?.message ? `: ${shot.error.message}` : ''}</span>
    </div>
  `;
}
