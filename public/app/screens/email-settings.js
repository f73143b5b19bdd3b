// Account settings: which e-mails the person receives (GET/PUT /v2/users/me/email-preferences). Says
// so when the platform sends no e-mail at all.
import { useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useApi } from '../lib/hooks.js';
import { html } from '../lib/html.js';
import { ErrorNote, Loaded, Screen } from '../lib/ui.js';

const LABELS = {
  camera_status: 'A camera of my projects goes offline or comes back',
  picture_faults: 'A camera of my projects shows a black, frozen, blurred or moved picture, and when it is right again',
  media_items: 'A clip or timelapse I made is ready, or failed',
  key_leaks: 'One of my API keys was revoked after a leak report',
  webhooks: 'A webhook of a project I own was disabled',
  progress_photos: 'Progress photos I am a recipient of',
  project_added: 'Someone adds me to a project',
};

export function EmailSettings() {
  const result = useApi('/v2/users/me/email-preferences');
  const [saved, setSaved] = useState(null);
  const [error, setError] = useState(null);
  const toggle = async (kind, on) => {
    setError(null);
    setSaved(null);
    try {
      await api('PUT', '/v2/users/me/email-preferences', { [kind]: on });
      result.reload();
      setSaved(on ? 'Turned on.' : 'Turned off.');
    } catch (e) {
      setError(e);
    }
  };
  return html`
    <${Screen} title="E-mail settings">
      <${Loaded} result=${result}>
        ${(data) => html`
          ${data.email_enabled ? null : html`<p class="card error" role="alert">This platform sends no e-mail at the moment: none of these arrive until an administrator sets it up.</p>`}
          <fieldset class="card">
            <legend>E-mail me at ${data.email} when…</legend>
            ${Object.entries(LABELS).map(
              ([kind, label]) => html`
                <p><label><input type="checkbox" checked=${data.preferences[kind]} onChange=${(e) => toggle(kind, e.currentTarget.checked)} /> ${label}</label></p>
              `,
            )}
          </fieldset>
          <p role="status">${saved}</p>
          <${ErrorNote} error=${error} />
        `}
      <//>
    <//>
  `;
}
