// A camera's live view: the stream (hls.js with media tokens, lib/live-player.js), what stands in for it
// when the platform refuses or the camera has no stream (the reason, a "Try again", the picture now),
// and the pan-tilt-zoom panel (lib/ptz-pad.js).
import { useRef, useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import { useApi } from '../lib/hooks.js';
import { isBusy, useLivePlayer } from '../lib/live-player.js';
import { CameraPicture, useLiveSnapshot } from '../lib/live-snapshot.js';
import { PtzPanel } from '../lib/ptz-pad.js';
import { href } from '../lib/router.js';
import { cameraTabs } from '../lib/tabs.js';
import { Loaded, Screen } from '../lib/ui.js';

/** Roles that may move a camera (docs/access-model.md: PTZ control is the editor's). */
const CONTROLLERS = ['editor', 'admin', 'owner'];

function LiveFallback({ camera, error, retry }) {
  const shot = useLiveSnapshot(camera.exid, 10_000);
  const canRetry = !(error?.status === 404);
  return html`
    <div class="live-fallback">
      <div class="error live-error" role="alert">
        <p>${isBusy(error) ? 'The live view cannot start right now.' : 'No live view.'} ${error?.message ?? ''}</p>
      </div>
      ${canRetry ? html`<button type="button" onClick=${retry}>Try again</button>` : null}
      <figure class="live-snapshot">
        <${CameraPicture} name=${camera.name} shot=${shot} />
        <figcaption class="muted">Instead: the picture now, refreshed every 10 seconds.</figcaption>
      </figure>
    </div>
  `;
}

function LiveView({ camera }) {
  const video = useRef(null);
  const [attempt, setAttempt] = useState(0);
  const live = useLivePlayer(camera.exid, video, attempt);
  const failed = live.phase === 'failed';
  return html`
    <section class="live" aria-labelledby="live-heading">
      <h2 id="live-heading" class="visually-hidden">Live view</h2>
      <div class=${`live-frame${failed ? ' gone' : ''}`}>
        <video ref=${video} class="live-video" muted autoplay playsinline controls aria-label=${`Live video from ${camera.name}`}></video>
        ${live.phase === 'starting' ? html`<p class="live-note" role="status">Starting the live view…</p>` : null}
        ${live.phase === 'playing' ? html`<span class="live-badge">Live</span>` : null}
      </div>
      ${failed ? html`<${LiveFallback} camera=${camera} error=${live.error} retry=${() => setAttempt((a) => a + 1)} />` : null}
    </section>
  `;
}

export function CameraLive({ camera }) {
  const cam = useApi(`/v2/cameras/${encodeURIComponent(camera)}`);
  const projectExid = cam.data?.project_exid ?? null;
  const project = useApi(projectExid && `/v2/projects/${encodeURIComponent(projectExid)}`, [projectExid]);
  const role = project.data?.role;
  const canControl = project.data ? CONTROLLERS.includes(role) : undefined;
  const back = cam.data ? html`<a class="back-link" href=${href('projects', cam.data.project_exid)}>All cameras of ${cam.data.project.name}</a>` : null;
  return html`
    <${Screen} title=${cam.data?.name ?? 'Camera'} tabs=${cameraTabs(camera, 'live')} actions=${back}>
      <${Loaded} result=${cam}>
        ${(c) => html`
          <div class="live-layout">
            <${LiveView} camera=${c} />
            <${PtzPanel} camera=${c} canControl=${canControl} />
          </div>
        `}
      <//>
    <//>
  `;
}
