// Adding a camera to a project (admins and the owner): the built-in simulated camera, or a real one by
// its snapshot and stream addresses and login. Once saved, the platform tries the camera at once
// (POST …/settings/connection/check) and the screen says whether it answered, with its first picture,
// so a wrong address shows before anyone relies on the camera.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { CheckResult, ConnectionFields, connectionBody, connectionProblems } from '../lib/camera-connection.js';
import { messageFor, RadioField, SelectField, TextField, useFieldErrors } from '../lib/fields.js';
import { html } from '../lib/html.js';
import { useApi } from '../lib/hooks.js';
import { CameraPicture, useLiveSnapshot } from '../lib/live-snapshot.js';
import { roleAllows } from '../lib/roles.js';
import { href } from '../lib/router.js';
import { projectTabs } from '../lib/tabs.js';
import { timeZoneOptions } from '../lib/time-zones.js';
import { ErrorNote, Loaded, Screen } from '../lib/ui.js';

const EMPTY = { snapshot_url: '', rtsp_url: '', username: '', password: '' };
const KINDS = [
  ['ip', 'A camera on the site (by its addresses)'],
  ['simulated', 'The simulated camera (to try the platform)'],
];

function Added({ camera, check, project }) {
  const shot = useLiveSnapshot(camera.exid, 0);
  const heading = useRef(null);
  // The form is gone: keyboard and screen-reader users continue from the result.
  useEffect(() => heading.current?.focus(), []);
  return html`
    <section class="card camera-added" aria-labelledby="camera-added-title">
      <h2 id="camera-added-title" tabindex="-1" ref=${heading}>${camera.name} is added</h2>
      <${CheckResult} result=${check} />
      ${check === null ? html`<p class="loading" role="status">Checking the connection…</p>` : null}
      <figure class="camera-added-picture">
        <${CameraPicture} name=${camera.name} shot=${shot} />
        <figcaption class="muted">Its first picture.</figcaption>
      </figure>
      ${
        check && check.status !== 'online'
          ? html`<p>Correct its addresses or login in its settings and check it again there; a camera added by mistake can be deleted there too.</p>`
          : null
      }
      <p class="muted">It records nothing until cloud recording is turned on in its settings.</p>
      <ul class="link-list">
        <li><a href=${href('cameras', camera.exid, 'settings')}>Camera settings and recording schedule</a></li>
        <li><a href=${href('cameras', camera.exid)}>Live view</a></li>
        <li><a href=${href('projects', project)}>Back to the cameras</a></li>
      </ul>
    </section>
  `;
}

function AddForm({ project, onAdded }) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState('ip');
  const [timezone, setTimezone] = useState(project.timezone);
  const [connection, setConnection] = useState(EMPTY);
  const [local, setLocal, edited] = useFieldErrors();
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event) => {
    event.preventDefault();
    setError(null);
    const problems = kind === 'ip' ? connectionProblems(connection) : {};
    if (!name.trim()) problems.name = 'Give the camera a name, such as where it looks: “Gate”, “Crane 2”.';
    if (Object.keys(problems).length > 0) {
      setLocal(problems);
      document.getElementById(problems.name ? 'camera-name' : `camera-${Object.keys(problems)[0].replace('_url', '')}`)?.focus();
      return;
    }
    setLocal(null);
    setBusy(true);
    try {
      const body = { name: name.trim(), project_exid: project.exid, timezone, ...(kind === 'simulated' ? { simulated: true } : connectionBody(connection)) };
      onAdded(await api('POST', '/v2/cameras', body));
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  const errors = Object.fromEntries(['name', 'timezone', 'snapshot_url', 'rtsp_url', 'username', 'password'].map((f) => [f, messageFor(local, error, f)]));
  const other = error && !Object.values(errors).some(Boolean) ? error : null;
  return html`
    <form class="card setup-form" onSubmit=${submit} noValidate aria-labelledby="camera-add-title">
      <h2 id="camera-add-title">The camera</h2>
      <div class="setup-fields">
        <${TextField} id="camera-name" label="Name" value=${name} onValue=${edited('name', setName)} error=${errors.name} maxLength="200" autocomplete="off" />
        <${SelectField} id="camera-timezone" label="Time zone" value=${timezone} onValue=${setTimezone} options=${timeZoneOptions(timezone)} error=${errors.timezone}
          hint="The project’s unless the camera is elsewhere." />
      </div>
      <${RadioField} name="camera-kind" legend="Which camera" value=${kind} onValue=${setKind} options=${KINDS} />
      ${
        kind === 'ip'
          ? html`
            <h3>How the platform reaches it</h3>
            <p class="muted">The addresses must be reachable from the platform. The platform tries the camera as soon as it is added.</p>
            <${ConnectionFields} prefix="camera" fields=${connection} set=${setConnection} errors=${errors} edited=${edited} />
          `
          : html`<p class="muted">The simulated camera draws a moving site scene, can pan, tilt and zoom, and needs no address.</p>`
      }
      <div class="form-buttons">
        <button type="submit" disabled=${busy}>${busy ? 'Adding…' : 'Add camera and check it'}</button>
        <a class="button secondary" href=${href('projects', project.exid)}>Cancel</a>
      </div>
      <${ErrorNote} error=${other} />
    </form>
  `;
}

export function CameraAdd({ project }) {
  const info = useApi(`/v2/projects/${encodeURIComponent(project)}`);
  const [added, setAdded] = useState(null);
  const [check, setCheck] = useState(null);
  const name = info.data?.name ?? 'Project';

  const onAdded = async (camera) => {
    setAdded(camera);
    setCheck(null);
    try {
      setCheck(await api('POST', `/v2/cameras/${encodeURIComponent(camera.exid)}/settings/connection/check`, {}));
    } catch (error) {
      setCheck({ error });
    }
  };

  return html`
    <${Screen} title=${`Add a camera · ${name}`} heading=${`Add a camera to ${name}`} tabs=${projectTabs(project, 'cameras')}>
      <${Loaded} result=${info}>
        ${(p) =>
          !roleAllows(p.role, 'admin')
            ? html`<p class="muted">Your role here is ${p.role}: admins and the owner add cameras.</p>`
            : added
              ? html`<${Added} camera=${added} check=${check} project=${project} />`
              : html`<${AddForm} project=${p} onAdded=${onAdded} />`}
      <//>
    <//>
  `;
}
