// A PTZ camera's presets (saved positions): go to one, save the current position as a new one, and
// remove one after a confirmation that says what removing does (lib/confirm-dialog.js).
import { useRef, useState } from 'preact/hooks';
import { api } from './api.js';
import { useConfirm } from './confirm-dialog.js';
import { html } from './html.js';
import { useApi } from './hooks.js';
import { ErrorNote, Loaded } from './ui.js';

/** `run(done, method, path)` is the panel's move: it shows where the camera points afterwards. */
export function PtzPresets({ base, canControl, run }) {
  const presets = useApi(`${base}/presets`);
  const [name, setName] = useState('');
  const [error, setError] = useState(null);
  const [said, setSaid] = useState('');
  const [confirm, confirmDialog] = useConfirm();
  const heading = useRef(null);

  const create = async (e) => {
    e.preventDefault();
    setError(null);
    const clean = name.trim();
    if (!clean) return setError(new Error('Give the preset a name first.'));
    try {
      const p = await api('POST', `${base}/presets/create`, { name: clean });
      setName('');
      setSaid(`Preset “${p.name}” saved at the current position.`);
      presets.reload();
    } catch (err) {
      setError(err);
    }
  };
  const remove = async (p) => {
    const yes = await confirm({
      title: `Remove the preset “${p.name}”?`,
      body: 'The camera forgets this saved position, so nobody can go to it any more. The camera does not move, and the other presets stay.',
      confirmLabel: 'Remove preset',
      cancelLabel: 'Keep it',
    });
    if (!yes) return;
    setError(null);
    try {
      await api('DELETE', `${base}/presets/${encodeURIComponent(p.token)}/remove`);
      setSaid(`Preset “${p.name}” removed.`);
      presets.reload();
    } catch (err) {
      setError(err);
    }
    // The button that opened the dialog is gone with its preset: start again at the list.
    heading.current?.focus();
  };

  return html`
    <h3 tabindex="-1" ref=${heading}>Presets</h3>
    <p class="visually-hidden" role="status">${said}</p>
    <${ErrorNote} error=${error} />
    <${Loaded} result=${presets}>
      ${({ presets: list }) =>
        list.length === 0
          ? html`<p class="muted">No presets yet.</p>`
          : html`<ul class="ptz-presets">
              ${list.map(
                (p) => html`
                  <li key=${p.token}>
                    <span class="preset-name">${p.name}</span>
                    ${
                      canControl
                        ? html`<span class="preset-actions">
                          <button type="button" class="secondary" aria-label=${`Go to preset ${p.name}`} onClick=${() => run(`Went to preset “${p.name}”`, 'POST', `/presets/go/${encodeURIComponent(p.token)}`)}>
                            Go to
                          </button>
                          <button type="button" class="secondary danger-text" aria-label=${`Remove preset ${p.name}`} onClick=${() => remove(p)}>Remove</button>
                        </span>`
                        : null
                    }
                  </li>
                `,
              )}
            </ul>`}
    <//>
    ${
      canControl
        ? html`<form class="ptz-new-preset" onSubmit=${create}>
          <label for="ptz-preset-name">Save where the camera points now as a preset</label>
          <div class="inline-field">
            <input id="ptz-preset-name" maxlength="64" autocomplete="off" placeholder="Name, e.g. Gate" value=${name} onInput=${(e) => setName(e.currentTarget.value)} />
            <button type="submit">Save preset</button>
          </div>
        </form>`
        : null
    }
    ${confirmDialog}
  `;
}
