// A project's site recorders (docs/site-link.md): owners and admins link a recorder (the screen shows the
// single-use code and the exact command to type on the recorder), see each link's state and the cameras
// its devices became, and revoke a link. Other members are told the screen is for admins.
import { useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useConfirm } from '../lib/confirm-dialog.js';
import { useApi } from '../lib/hooks.js';
import { html } from '../lib/html.js';
import { href } from '../lib/router.js';
import { projectTabs } from '../lib/tabs.js';
import { dateTime, ErrorNote, Loaded, Screen } from '../lib/ui.js';

const STATUS = { pending: 'Waiting for the recorder', connected: 'Connected', disconnected: 'Disconnected', revoked: 'Revoked' };

export function SiteRecorders({ project }) {
  const base = `/v2/projects/${encodeURIComponent(project)}`;
  const info = useApi(base);
  const links = useApi(`${base}/recorder-links`);
  const [made, setMade] = useState(null);
  const [name, setName] = useState('');
  const [actionError, setActionError] = useState(null);
  const [confirm, confirmDialog] = useConfirm();
  const title = info.data?.name ?? project;

  const create = async (event) => {
    event.preventDefault();
    setActionError(null);
    try {
      setMade(await api('POST', `${base}/recorder-links`, name.trim() ? { name: name.trim() } : {}));
      setName('');
      links.reload();
    } catch (e) {
      setActionError(e);
    }
  };

  const revoke = async (link) => {
    const yes = await confirm({
      title: `Revoke ${link.name}?`,
      body: 'The recorder is disconnected at once and cannot connect again. Its cameras and their recordings stay.',
      confirmLabel: 'Revoke',
    });
    if (!yes) return;
    setActionError(null);
    try {
      await api('DELETE', `${base}/recorder-links/${encodeURIComponent(link.id)}`);
      links.reload();
    } catch (e) {
      setActionError(e);
    }
  };

  const command = made ? `overlook recorder link --platform ${location.origin} --code ${made.pairing_code}` : '';

  return html`
    <${Screen} title=${`Site recorders · ${title}`} heading=${`Site recorders of ${title}`} tabs=${projectTabs(project, 'recorders')}>
      <${ErrorNote} error=${actionError} />
      <${Loaded} result=${links}>
        ${(list) => html`
          <form class="recorders-new" onSubmit=${create}>
            <label>Name <input value=${name} maxlength="200" placeholder="Site recorder" onInput=${(e) => setName(e.currentTarget.value)} /></label>
            <button type="submit">Link a recorder</button>
          </form>
          ${
            made
              ? html`<div class="recorders-code" role="status">
                  <p>Pairing code (works once, until ${dateTime(made.expires_at)}): <strong><code>${made.pairing_code}</code></strong></p>
                  <p>On the recorder, run:</p>
                  <pre><code>${command}</code></pre>
                </div>`
              : null
          }
          <table class="recorders-table">
            <caption class="visually-hidden">Site recorders</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">State</th><th scope="col">Last seen</th><th scope="col">Cameras</th><th scope="col">Actions</th></tr></thead>
            <tbody>
              ${list.data.map(
                (l) => html`<tr key=${l.id}>
                  <th scope="row">${l.name}${l.recorder_name ? html` <span class="muted">(${l.recorder_name})</span>` : null}</th>
                  <td>${STATUS[l.status] ?? l.status}</td>
                  <td>${dateTime(l.last_seen_at)}</td>
                  <td>${l.cameras.length ? l.cameras.map((c, i) => html`${i ? ', ' : ''}<a href=${href('cameras', c.exid)}>${c.name}</a> (${c.status})`) : '—'}</td>
                  <td>${l.status === 'revoked' ? null : html`<button type="button" onClick=${() => revoke(l)}>Revoke</button>`}</td>
                </tr>`,
              )}
            </tbody>
          </table>
        `}
      <//>
      ${confirmDialog}
    <//>
  `;
}
