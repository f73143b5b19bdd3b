// A project's number-plate watch list (GET/POST/DELETE /v2/projects/{exid}/anpr/watchlist): every
// member reads it; admins and the owner add and remove plates (the API refuses others with 403).
import { useState } from 'preact/hooks';
import { api } from './api.js';
import { useConfirm } from './confirm-dialog.js';
import { fieldMessage } from './form-errors.js';
import { html } from './html.js';
import { dateTime, Loaded } from './ui.js';

/** The form the API compares plates in: upper case, no spaces, dashes or dots (src/platform/anpr/plate.ts). */
const normalisePlate = (raw) =>
  raw
    .normalize('NFKC')
    .replace(/[\s\-‐‑‒–—―−.·]+/gu, '')
    .toUpperCase();

/** Whether the text is a plate the API takes: 1 to 20 letters and digits once normalised. */
export const isPlate = (raw) => /^[\p{L}\p{N}]{1,20}$/u.test(normalisePlate(raw));

export function Watchlist({ project, result, canManage }) {
  const base = `/v2/projects/${encodeURIComponent(project)}/anpr/watchlist`;
  const [status, setStatus] = useState('');
  const [error, setError] = useState(null);
  const [confirm, confirmDialog] = useConfirm();

  const added = (entry) => {
    setStatus(`${entry.plate} is on the watch list.`);
    result.reload();
  };

  const remove = async (entry) => {
    const yes = await confirm({
      title: `Stop watching for ${entry.plate}?`,
      body: `Its reads stay in every camera’s list; they are just no longer marked “${entry.label}”. You can add the plate again later.`,
      confirmLabel: 'Stop watching',
    });
    if (!yes) return;
    setError(null);
    try {
      await api('DELETE', `${base}/${encodeURIComponent(entry.plate)}`);
      setStatus(`${entry.plate} is no longer watched for.`);
      result.reload();
    } catch (e) {
      setError(e);
    }
  };

  return html`
    <section class="anpr-watchlist" aria-labelledby="watchlist-title">
      <h2 id="watchlist-title">Watch list</h2>
      <p class="muted">Plates this project looks out for, on all its cameras. Reads of them are marked in the list above.</p>
      <p class="anpr-status" role="status">${status}</p>
      ${error ? html`<p class="error" role="alert">${error.message}</p>` : null}
      <${Loaded} result=${result.error?.status === 403 ? { data: null } : result}>
        ${(list) =>
          list === null
            ? html`<p class="muted">Your role on this project does not show its watch list.</p>`
            : list.length === 0
              ? html`<p class="anpr-watch-empty">No plate is on the watch list.</p>`
              : html`
                  <ul class="anpr-watch-items">
                    ${list.map(
                      (w) => html`
                        <li key=${w.plate} class="card anpr-watch-item" data-plate=${w.plate}>
                          <span><strong class="anpr-plate">${w.plate}</strong> ${w.label}</span>
                          <span class="muted anpr-watch-added">added ${dateTime(w.created_at)}</span>
                          ${
                            canManage
                              ? html`<button type="button" class="secondary" onClick=${() => remove(w)} aria-label=${`Stop watching for ${w.plate}`}>Stop watching</button>`
                              : null
                          }
                        </li>
                      `,
                    )}
                  </ul>
                `}
      <//>
      ${canManage ? html`<${AddPlate} base=${base} onAdded=${added} />` : html`<p class="muted">Admins and the project’s owner add and remove plates.</p>`}
      ${confirmDialog}
    </section>
  `;
}

function AddPlate({ base, onAdded }) {
  const [plate, setPlate] = useState('');
  const [label, setLabel] = useState('');
  const [error, setError] = useState(null);
  const mine = (field) => (error?.field === field ? error.message : fieldMessage(error, field));
  const [plateError, labelError] = [mine('plate'), mine('label')];
  const other = error && !plateError && !labelError ? error : null;

  const submit = async (event) => {
    event.preventDefault();
    if (!plate.trim()) return setError({ field: 'plate', message: 'Type the plate to watch for.' });
    if (!isPlate(plate)) return setError({ field: 'plate', message: 'A plate is 1 to 20 letters and digits (spaces and dashes do not matter).' });
    if (!label.trim()) return setError({ field: 'label', message: 'Say why it is watched (for example “Site delivery”).' });
    setError(null);
    try {
      const entry = await api('POST', base, { plate: plate.trim(), label: label.trim() });
      setPlate('');
      setLabel('');
      onAdded(entry);
    } catch (e) {
      setError(e);
    }
  };

  return html`
    <form class="card anpr-watch-add" onSubmit=${submit} noValidate>
      <h3>Watch for a plate</h3>
      <div class="anpr-fields">
        <div>
          <label for="watch-plate">Plate</label>
          <input id="watch-plate" autocomplete="off" maxlength="64" value=${plate} onInput=${(e) => setPlate(e.currentTarget.value)}
            aria-invalid=${plateError ? 'true' : undefined} aria-describedby=${plateError ? 'watch-plate-error' : undefined} />
          ${plateError ? html`<p id="watch-plate-error" class="error" role="alert">${plateError}</p>` : null}
        </div>
        <div>
          <label for="watch-label">Why (shown with each read)</label>
          <input id="watch-label" autocomplete="off" maxlength="200" value=${label} onInput=${(e) => setLabel(e.currentTarget.value)}
            aria-invalid=${labelError ? 'true' : undefined} aria-describedby=${labelError ? 'watch-label-error' : undefined} />
          ${labelError ? html`<p id="watch-label-error" class="error" role="alert">${labelError}</p>` : null}
        </div>
      </div>
      <button type="submit">Add to watch list</button>
      ${other ? html`<p class="error" role="alert">${other.message}</p>` : null}
    </form>
  `;
}
