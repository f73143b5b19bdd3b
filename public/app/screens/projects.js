// The person's projects: each card shows the latest recorded frame of one of its cameras (the picture
// now when nothing is recorded yet), its status and how many of its cameras are online, and leads to
// its cameras. Anyone signed in may start a project (they become its owner).
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, get, imageUrl } from '../lib/api.js';
import { messageFor, SelectField, TextField, useFieldErrors } from '../lib/fields.js';
import { html } from '../lib/html.js';
import { useApi } from '../lib/hooks.js';
import { href } from '../lib/router.js';
import { timeZoneOptions } from '../lib/time-zones.js';
import { ErrorNote, Loaded, Screen } from '../lib/ui.js';

export const PROJECT_STATUSES = ['To Start', 'In Progress', 'Completed'];
const UP = ['online', 'recording'];
const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Cameras asked for a recorded frame: enough for a card, few enough for a long list of projects. */
const ASKED = 6;

/**
 * The picture of a project: the latest recorded frame among its first cameras, else the picture now of
 * its first online camera (or its first camera). { src, camera, done }.
 */
function useProjectPicture(cameras) {
  const [state, setState] = useState({ src: null, camera: null, done: false });
  const key = cameras?.map((c) => `${c.exid}:${c.status}`).join(',');
  useEffect(() => {
    if (!cameras) return undefined;
    if (cameras.length === 0) {
      setState({ src: null, camera: null, done: true });
      return undefined;
    }
    const controller = new AbortController();
    const signal = controller.signal;
    let url = null;
    const path = (c) => `/v2/cameras/${encodeURIComponent(c.exid)}`;
    // Asked first, so a camera with nothing recorded costs no failed image request.
    const latest = (c) =>
      get(`${path(c)}/recordings/snapshots?limit=1`, { signal }).then(
        (page) => ({ camera: c, at: page.data[0]?.created_at ?? null }),
        () => ({ camera: c, at: null }),
      );
    Promise.all(cameras.slice(0, ASKED).map(latest))
      .then((found) => {
        const newest = found.filter((f) => f.at).sort((a, b) => b.at.localeCompare(a.at))[0];
        const camera = newest?.camera ?? cameras.find((c) => UP.includes(c.status)) ?? cameras[0];
        return imageUrl(`${path(camera)}/${newest ? 'thumbnail' : 'live/snapshot.jpg'}`, { signal }).then((src) => ({ src, camera }));
      })
      .then(
        ({ src, camera }) => {
          url = src;
          if (signal.aborted) URL.revokeObjectURL(src);
          else setState({ src, camera, done: true });
        },
        () => signal.aborted || setState({ src: null, camera: null, done: true }),
      );
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [key]);
  return state;
}

function ProjectCard({ project }) {
  const refs = useApi(`/v2/projects/${encodeURIComponent(project.exid)}/camera_refs`);
  const picture = useProjectPicture(refs.data);
  const online = (refs.data ?? []).filter((c) => UP.includes(c.status)).length;
  const offline = (refs.data ?? []).filter((c) => c.status === 'offline').length;
  const count = project.camera_count;
  return html`
    <li class="card project-card" data-exid=${project.exid}>
      <a class="project-link" href=${href('projects', project.exid)}>
        ${
          picture.src
            ? html`<img class="project-picture" src=${picture.src} alt=${`Latest picture from ${picture.camera.name}`} />`
            : html`<div class="project-picture placeholder"><span>${!picture.done ? 'Loading the picture…' : count === 0 ? 'No camera yet' : 'No picture yet'}</span></div>`
        }
        <span class="project-name">${project.name}</span>
      </a>
      <p class="project-meta">
        <span class="project-status">${project.status}</span>
        <span class="project-cameras">${count === 1 ? '1 camera' : `${count} cameras`}${refs.data && count > 0 ? `, ${online} online` : ''}${offline > 0 ? `, ${offline} offline` : ''}</span>
        ${project.role ? html`<span class="muted">You are ${project.role}</span>` : null}
      </p>
    </li>
  `;
}

function NewProject({ onCancel }) {
  const [name, setName] = useState('');
  const [timezone, setTimezone] = useState(localZone());
  const [status, setStatus] = useState('In Progress');
  const [local, setLocal, edited] = useFieldErrors();
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const first = useRef(null);
  useEffect(() => first.current?.querySelector('input')?.focus(), []);

  const submit = async (event) => {
    event.preventDefault();
    setError(null);
    if (!name.trim()) return setLocal({ name: 'Give the project a name, as people on site call it.' });
    setLocal(null);
    setBusy(true);
    try {
      const created = await api('POST', '/v2/projects', { name: name.trim(), timezone, status });
      location.hash = href('projects', created.exid);
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  const nameError = messageFor(local, error, 'name');
  const zoneError = messageFor(local, error, 'timezone');
  const other = error && !nameError && !zoneError ? error : null;
  return html`
    <form class="card setup-form new-project" onSubmit=${submit} noValidate aria-labelledby="new-project-title">
      <h2 id="new-project-title">New project</h2>
      <p class="muted">You become its owner; you then add its cameras and invite people.</p>
      <div class="setup-fields" ref=${first}>
        <${TextField} id="project-name" label="Name" value=${name} onValue=${edited('name', setName)} error=${nameError} maxLength="200" autocomplete="off" />
        <${SelectField} id="project-timezone" label="Time zone" value=${timezone} onValue=${setTimezone} options=${timeZoneOptions(timezone)} error=${zoneError}
          hint="Where the site is: recording schedules and days follow it." />
        <${SelectField} id="project-status" label="Status" value=${status} onValue=${setStatus} options=${PROJECT_STATUSES.map((s) => [s, s])} />
      </div>
      <div class="form-buttons">
        <button type="submit" disabled=${busy}>${busy ? 'Creating…' : 'Create project'}</button>
        <button type="button" class="secondary" onClick=${onCancel}>Cancel</button>
      </div>
      <${ErrorNote} error=${other} />
    </form>
  `;
}

export function Projects() {
  const projects = useApi('/v2/projects');
  const [creating, setCreating] = useState(false);
  const opener = useRef(null);
  const cancel = () => {
    setCreating(false);
    setTimeout(() => opener.current?.focus(), 0);
  };
  return html`
    <${Screen} title="Projects" actions=${creating ? null : html`<button type="button" ref=${opener} onClick=${() => setCreating(true)}>New project</button>`}>
      ${creating ? html`<${NewProject} onCancel=${cancel} />` : null}
      <${Loaded} result=${projects}>
        ${(list) =>
          list.length === 0
            ? html`<p>You are not a member of any project yet. Start one with “New project”, or ask a project’s owner to add you.</p>`
            : html`<ul class="cards project-cards">
                ${list.map((p) => html`<${ProjectCard} key=${p.exid} project=${p} />`)}
              </ul>`}
      <//>
    <//>
  `;
}
