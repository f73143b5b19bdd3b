// A project's cameras: a grid of cards, each with the camera's picture now (refreshed every 10 s while
// the screen is open), its status, and a link to its live view.
import { html } from '../lib/html.js';
import { useApi } from '../lib/hooks.js';
import { CameraPicture, timeOfDay, useLiveSnapshot } from '../lib/live-snapshot.js';
import { href } from '../lib/router.js';
import { roleAllows } from '../lib/roles.js';
import { projectTabs } from '../lib/tabs.js';
import { dateTime, Loaded, Screen } from '../lib/ui.js';

const REFRESH_MS = 10_000;

/** The status the platform's health check last recorded (docs/cameras.md), in words. */
const STATUS = {
  online: 'Online',
  offline: 'Offline',
  waiting: 'Not checked yet',
};

function CameraCard({ camera }) {
  const shot = useLiveSnapshot(camera.exid, REFRESH_MS);
  const status = STATUS[camera.status] ?? camera.status;
  return html`
    <li class="card camera-card">
      <a class="camera-link" href=${href('cameras', camera.exid)}>
        <${CameraPicture} name=${camera.name} shot=${shot} />
        <span class="camera-name">${camera.name}</span>
      </a>
      <p class="camera-meta">
        <span class=${`camera-status status-${camera.status}`}>${status}</span>
        ${shot.takenAt ? html`<span class="muted">Picture at ${timeOfDay(shot.takenAt)}</span>` : null}
      </p>
      ${
        camera.status === 'offline' && camera.last_online_at ? html`<p class="muted camera-last-seen">Last online ${dateTime(camera.last_online_at)}</p>` : null
      }
    </li>
  `;
}

export function ProjectCameras({ project }) {
  const info = useApi(`/v2/projects/${encodeURIComponent(project)}`);
  const cameras = useApi(`/v2/projects/${encodeURIComponent(project)}/cameras`);
  const name = info.data?.name ?? 'Project';
  // Adding cameras is the admin's (docs/access-model.md).
  const canAdd = roleAllows(info.data?.role, 'admin');
  const add = canAdd ? html`<a class="button" href=${href('projects', project, 'cameras', 'new')}>Add a camera</a>` : null;
  return html`
    <${Screen} title=${name} tabs=${projectTabs(project, 'cameras')} actions=${add}>
      <${Loaded} result=${cameras}>
        ${(list) =>
          list.length === 0
            ? html`<p class="empty">This project has no cameras yet.</p>`
            : html`
                <h2 class="visually-hidden">Cameras</h2>
                <ul class="camera-grid">
                  ${list.map((c) => html`<${CameraCard} key=${c.exid} camera=${c} />`)}
                </ul>
              `}
      <//>
    <//>
  `;
}
