// A video wall live (docs/web-app.md, Video wall): its grid of cameras filling the screen, each tile the
// camera's live stream (lib/live-player.js). Only a tile on screen streams: one scrolled out of view, or
// every tile while the tab is hidden, stops its stream, so the platform ends ffmpeg for a camera nobody
// watches. A tile the platform refuses (its stream limits) shows the camera's picture instead and asks
// again a little later. On a narrow screen the grid becomes one column, scrolled.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import { useApi } from '../lib/hooks.js';
import { isBusy, useLivePlayer } from '../lib/live-player.js';
import { CameraPicture, useLiveSnapshot } from '../lib/live-snapshot.js';
import { href } from '../lib/router.js';
import { ErrorNote, Loading } from '../lib/ui.js';

/** How long a tile the platform refused for load waits before it asks again. */
const BUSY_RETRY_MS = 20_000;

/** Whether the element is on screen (partly is enough) while the page itself is visible. */
function useOnScreen(ref) {
  const [inView, setInView] = useState(false);
  const [pageShown, setPageShown] = useState(!document.hidden);
  useEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    const observer = new IntersectionObserver((entries) => setInView(entries.some((e) => e.isIntersecting && e.intersectionRatio > 0)));
    observer.observe(el);
    const onVisibility = () => setPageShown(!document.hidden);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      observer.disconnect();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, []);
  return inView && pageShown;
}

/** The picture now, refreshed, standing in for a stream that could not start. */
function TileFallback({ tile, error, retry }) {
  const shot = useLiveSnapshot(tile.camera_exid, 10_000);
  return html`
    <div class="wall-fallback">
      <${CameraPicture} name=${tile.camera_name} shot=${shot} />
      <p class="wall-reason" role="status">
        ${isBusy(error) ? 'Live view paused: ' : 'No live view: '}${error?.message ?? 'the stream stopped'}
      </p>
      ${error?.status === 404 ? null : html`<button type="button" class="wall-retry" onClick=${retry}>Try again<span class="visually-hidden"> ${tile.camera_name}</span></button>`}
    </div>
  `;
}

function WallTile({ tile }) {
  const box = useRef(null);
  const video = useRef(null);
  const [attempt, setAttempt] = useState(0);
  const shown = useOnScreen(box);
  const live = useLivePlayer(shown ? tile.camera_exid : null, video, attempt);
  const phase = shown ? live.phase : 'paused';
  // A wall runs unattended: a tile refused for load tries again by itself once streams may have stopped.
  const busy = phase === 'failed' && isBusy(live.error);
  useEffect(() => {
    if (!busy) return undefined;
    const timer = setTimeout(() => setAttempt((a) => a + 1), BUSY_RETRY_MS);
    return () => clearTimeout(timer);
  }, [busy, attempt]);
  return html`
    <li class=${`wall-tile tile-row-${tile.row} tile-col-${tile.column}`} ref=${box} data-camera=${tile.camera_exid} data-phase=${phase}>
      <video ref=${video} class=${`wall-video${phase === 'failed' ? ' gone' : ''}`} muted autoplay playsinline aria-label=${`Live video from ${tile.camera_name}`}></video>
      ${phase === 'failed' ? html`<${TileFallback} tile=${tile} error=${live.error} retry=${() => setAttempt((a) => a + 1)} />` : null}
      <div class="wall-caption">
        <a href=${href('cameras', tile.camera_exid)}>${tile.camera_name}</a>
        ${phase === 'playing' ? html`<span class="wall-badge">Live</span>` : null}
        ${phase === 'starting' ? html`<span class="wall-badge starting">Starting…</span>` : null}
        ${phase === 'paused' ? html`<span class="wall-badge starting">Paused off screen</span>` : null}
      </div>
    </li>
  `;
}

/** Full screen for the wall's element; follows the browser's own way out (Escape). */
function useFullScreen(ref) {
  const [full, setFull] = useState(false);
  useEffect(() => {
    const onChange = () => setFull(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const toggle = () => {
    if (document.fullscreenElement) document.exitFullscreen().catch(() => undefined);
    else ref.current?.requestFullscreen().catch(() => undefined);
  };
  return { full, toggle, supported: !!document.fullscreenEnabled };
}

function Wall({ wall }) {
  const frame = useRef(null);
  const h1 = useRef(null);
  const screen = useFullScreen(frame);
  useEffect(() => {
    document.title = `${wall.name} · Overlook`;
    h1.current?.focus({ preventScroll: true });
  }, [wall.name]);
  const tiles = [...wall.tiles].sort((a, b) => a.row - b.row || a.column - b.column);
  return html`
    <section class="wall" ref=${frame} aria-labelledby="wall-heading">
      <div class="wall-bar">
        <h1 id="wall-heading" tabindex="-1" ref=${h1}>${wall.name}</h1>
        <p class="wall-count">${tiles.length === 1 ? '1 camera' : `${tiles.length} cameras`}</p>
        <div class="actions">
          ${screen.supported ? html`<button type="button" onClick=${screen.toggle} aria-pressed=${screen.full}>Full screen</button>` : null}
          <a class="wall-back" href=${href('projects', wall.project_exid)}>Back to the project</a>
        </div>
      </div>
      ${
        tiles.length === 0
          ? html`<p class="wall-empty">This wall has no cameras yet. An editor of the project can add them.</p>`
          : html`
              <ul class=${`wall-grid wall-rows-${wall.rows} wall-cols-${wall.columns}`} aria-label=${`Cameras of ${wall.name}`}>
                ${tiles.map((t) => html`<${WallTile} key=${`${t.row}:${t.column}:${t.camera_exid}`} tile=${t} />`)}
              </ul>
            `
      }
    </section>
  `;
}

export function LiveWall({ wall }) {
  const result = useApi(`/v2/video-walls/${encodeURIComponent(wall)}`);
  if (result.error) {
    return html`<section class="screen"><h1>Video wall</h1><${ErrorNote} error=${result.error} /><p><a href="#/">Back to your projects</a></p></section>`;
  }
  if (result.data === undefined) return html`<${Loading} what="Loading the wall" />`;
  return html`<${Wall} wall=${result.data} />`;
}
