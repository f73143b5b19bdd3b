// A project's settings: name, status and time zone. Admins and the owner change them; everyone else
// sees them read-only (docs/access-model.md: project settings are the admin's).
import { useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { messageFor, SelectField, TextField, useFieldErrors } from '../lib/fields.js';
import { html } from '../lib/html.js';
import { useApi } from '../lib/hooks.js';
import { roleAllows } from '../lib/roles.js';
import { projectTabs } from '../lib/tabs.js';
import { timeZoneOptions } from '../lib/time-zones.js';
import { ErrorNote, Loaded, Screen } from '../lib/ui.js';
import { PROJECT_STATUSES } from './projects.js';

function SettingsForm({ project, onSaved }) {
  const [name, setName] = useState(project.name);
  const [timezone, setTimezone] = useState(project.timezone);
  const [status, setStatus] = useState(project.status);
  const [local, setLocal, edited] = useFieldErrors();
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState('');

  const submit = async (event) => {
    event.preventDefault();
    setError(null);
    setSaved('');
    if (!name.trim()) return setLocal({ name: 'The project needs a name.' });
    setLocal(null);
    const changes = {};
    if (name.trim() !== project.name) changes.name = name.trim();
    if (timezone !== project.timezone) changes.timezone = timezone;
    if (status !== project.status) changes.status = status;
    if (Object.keys(changes).length === 0) return setSaved('Nothing changed.');
    setBusy(true);
    try {
      const next = await api('PATCH', `/v2/projects/${encodeURIComponent(project.exid)}`, changes);
      setSaved('Saved.');
      onSaved(next);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const nameError = messageFor(local, error, 'name');
  const zoneError = messageFor(local, error, 'timezone');
  const statusError = messageFor(local, error, 'status');
  const other = error && !nameError && !zoneError && !statusError ? error : null;
  return html`
    <form class="card setup-form" onSubmit=${submit} noValidate aria-labelledby="project-settings-title">
      <h2 id="project-settings-title">General</h2>
      <div class="setup-fields">
        <${TextField} id="project-name" label="Name" value=${name} onValue=${edited('name', setName)} error=${nameError} maxLength="200" autocomplete="off" />
        <${SelectField} id="project-timezone" label="Time zone" value=${timezone} onValue=${setTimezone} options=${timeZoneOptions(timezone)} error=${zoneError}
          hint="New cameras take it; each camera keeps its own, in its settings." />
        <${SelectField} id="project-status" label="Status" value=${status} onValue=${setStatus} options=${PROJECT_STATUSES.map((s) => [s, s])} error=${statusError} />
      </div>
      <div class="form-buttons">
        <button type="submit" disabled=${busy}>${busy ? 'Saving…' : 'Save settings'}</button>
        <p class="saved" role="status">${saved}</p>
      </div>
      <${ErrorNote} error=${other} />
    </form>
  `;
}

export function ProjectSettings({ project }) {
  const info = useApi(`/v2/projects/${encodeURIComponent(project)}`);
  const name = info.data?.name ?? 'Project';
  return html`
    <${Screen} title=${`Settings · ${name}`} heading=${`Settings of ${name}`} tabs=${projectTabs(project, 'settings')}>
      <${Loaded} result=${info}>
        ${(p) =>
          roleAllows(p.role, 'admin')
            ? html`<${SettingsForm} project=${p} onSaved=${() => info.reload()} />`
            : html`
                <dl class="card settings-readonly">
                  <dt>Name</dt><dd>${p.name}</dd>
                  <dt>Time zone</dt><dd>${p.timezone}</dd>
                  <dt>Status</dt><dd>${p.status}</dd>
                  <dt>Owner</dt><dd>${p.owner?.email ?? '—'}</dd>
                </dl>
                <p class="muted">Your role here is ${p.role}: you can see the settings. Admins and the owner change them.</p>
              `}
      <//>
    <//>
  `;
}
