// A project's video walls: a grid (up to 8 × 8) of tiles, each one of the project's cameras. Everyone
// sees the list; editors, admins and the owner create walls, change their layout and cameras, and
// delete them (docs/access-model.md: video walls are the editor's).
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useConfirm } from '../lib/confirm-dialog.js';
import { messageFor, SelectField, TextField, useFieldErrors } from '../lib/fields.js';
import { html } from '../lib/html.js';
import { useApi } from '../lib/hooks.js';
import { roleAllows } from '../lib/roles.js';
import { projectTabs } from '../lib/tabs.js';
import { dateTime, ErrorNote, Loaded, Screen } from '../lib/ui.js';

const MAX = 8;
const SIZES = Array.from({ length: MAX }, (_, i) => [String(i + 1), String(i + 1)]);
const cellKey = (r, c) => `${r}:${c}`;
const cameraWord = (n) => (n === 1 ? '1 camera' : `${n} cameras`);

function WallForm({ project, cameras, wall, onSaved, onCancel }) {
  const [name, setName] = useState(wall?.name ?? '');
  const [rows, setRows] = useState(String(wall?.rows ?? 2));
  const [columns, setColumns] = useState(String(wall?.columns ?? 2));
  const [cells, setCells] = useState(() => Object.fromEntries((wall?.tiles ?? []).map((t) => [cellKey(t.row, t.column), t.camera_exid])));
  const [local, setLocal, edited] = useFieldErrors();
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const nameInput = useRef(null);
  useEffect(() => nameInput.current?.querySelector('input')?.focus(), []);

  const [r, c] = [Number(rows), Number(columns)];
  const tiles = [];
  for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) if (cells[cellKey(i, j)]) tiles.push({ row: i, column: j, camera_exid: cells[cellKey(i, j)] });
  const hidden = Object.entries(cells).filter(([k, v]) => v && tiles.every((t) => cellKey(t.row, t.column) !== k)).length;

  const submit = async (event) => {
    event.preventDefault();
    setError(null);
    if (!name.trim()) {
      setLocal({ name: 'Give the wall a name, such as “Site office screen”.' });
      return document.getElementById('wall-name')?.focus();
    }
    setLocal(null);
    setBusy(true);
    try {
      const body = { name: name.trim(), rows: r, columns: c, tiles };
      const saved = wall
        ? await api('PATCH', `/v2/video-walls/${encodeURIComponent(wall.id)}`, body)
        : await api('POST', '/v2/video-walls', { project_exid: project, ...body });
      onSaved(saved, wall ? 'saved' : 'created');
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  const errors = { name: messageFor(local, error, 'name'), rows: messageFor(null, error, 'rows'), columns: messageFor(null, error, 'columns') };
  const other = error && !Object.values(errors).some(Boolean) ? error : null;
  const options = [['', 'Empty'], ...cameras.map((cam) => [cam.exid, cam.name])];
  return html`
    <form class="card setup-form wall-form" onSubmit=${submit} noValidate aria-labelledby="wall-form-title">
      <h2 id="wall-form-title">${wall ? `Edit ${wall.name}` : 'New video wall'}</h2>
      <div class="setup-fields" ref=${nameInput}>
        <${TextField} id="wall-name" label="Name" value=${name} onValue=${edited('name', setName)} error=${errors.name} maxLength="200" autocomplete="off" />
        <${SelectField} id="wall-rows" label="Rows" value=${rows} onValue=${setRows} options=${SIZES} error=${errors.rows} />
        <${SelectField} id="wall-columns" label="Columns" value=${columns} onValue=${setColumns} options=${SIZES} error=${errors.columns} />
      </div>
      <fieldset class="wall-layout">
        <legend>Camera in each tile</legend>
        ${cameras.length === 0 ? html`<p class="muted">This project has no cameras yet: the wall’s tiles stay empty until you add some.</p>` : null}
        <div class=${`wall-grid wall-cols-${c}`}>
          ${Array.from({ length: r * c }, (_, n) => {
            const [i, j] = [Math.floor(n / c), n % c];
            const key = cellKey(i, j);
            return html`
              <div class="wall-cell" key=${key}>
                <label for=${`tile-${i}-${j}`}>Row ${i + 1}, column ${j + 1}</label>
                <select id=${`tile-${i}-${j}`} value=${cells[key] ?? ''} onChange=${(e) => setCells({ ...cells, [key]: e.currentTarget.value })}>
                  ${options.map(([v, text]) => html`<option value=${v}>${text}</option>`)}
                </select>
              </div>
            `;
          })}
        </div>
        ${hidden > 0 ? html`<p class="muted" role="status">${cameraWord(hidden)} outside the smaller grid will be left off.</p>` : null}
      </fieldset>
      <div class="form-buttons">
        <button type="submit" disabled=${busy}>${busy ? 'Saving…' : wall ? 'Save wall' : 'Create wall'}</button>
        <button type="button" class="secondary" onClick=${onCancel}>Cancel</button>
      </div>
      <${ErrorNote} error=${other} />
    </form>
  `;
}

function WallList({ walls, canEdit, onEdit, onDelete }) {
  if (walls.length === 0) return html`<p class="empty">This project has no video walls yet.</p>`;
  return html`
    <ul class="wall-list">
      ${walls.map(
        (w) => html`
          <li class="card wall-item" key=${w.id} data-wall=${w.id}>
            <h3 class="wall-name"><a href=${`#/walls/${w.id}`} title="Open the live wall, full screen">${w.name}</a></h3>
            <p class="wall-meta muted">${w.rows} × ${w.columns} tiles, ${cameraWord(w.tiles.length)} · changed ${dateTime(w.updated_at)}</p>
            ${w.tiles.length > 0 ? html`<p class="wall-cameras">${[...new Set(w.tiles.map((t) => t.camera_name))].join(', ')}</p>` : null}
            ${
              canEdit
                ? html`<div class="form-buttons">
                    <button type="button" class="secondary" onClick=${() => onEdit(w)} aria-label=${`Edit ${w.name}`}>Edit</button>
                    <button type="button" class="danger" onClick=${() => onDelete(w)} aria-label=${`Delete ${w.name}`}>Delete</button>
                  </div>`
                : null
            }
          </li>
        `,
      )}
    </ul>
  `;
}

export function VideoWalls({ project }) {
  const base = `/v2/projects/${encodeURIComponent(project)}`;
  const info = useApi(base);
  const cameras = useApi(`${base}/camera_refs`);
  const walls = useApi(`/v2/video-walls?project_exid=${encodeURIComponent(project)}`);
  const [editing, setEditing] = useState(null);
  const [status, setStatus] = useState('');
  const [actionError, setActionError] = useState(null);
  const [confirm, confirmDialog] = useConfirm();
  const opener = useRef(null);
  const canEdit = roleAllows(info.data?.role, 'editor');
  const name = info.data?.name ?? 'Project';

  const close = () => {
    setEditing(null);
    setTimeout(() => opener.current?.focus(), 0);
  };
  const saved = (wall, how) => {
    setStatus(`${wall.name} is ${how}.`);
    walls.reload();
    close();
  };
  const remove = async (wall) => {
    const yes = await confirm({
      title: `Delete ${wall.name}?`,
      body: 'The wall and its layout go; the cameras and their recordings stay. Screens showing this wall stop showing it.',
      confirmLabel: 'Delete wall',
      cancelLabel: 'Keep it',
    });
    if (!yes) return;
    setActionError(null);
    try {
      await api('DELETE', `/v2/video-walls/${encodeURIComponent(wall.id)}`);
      setStatus(`${wall.name} is deleted.`);
      if (editing?.id === wall.id) setEditing(null);
      walls.reload();
    } catch (e) {
      setActionError(e);
    }
  };

  return html`
    <${Screen} title=${`Video walls · ${name}`} heading=${`Video walls of ${name}`} tabs=${projectTabs(project, 'walls')}
      actions=${canEdit && !editing ? html`<button type="button" ref=${opener} onClick=${() => setEditing('new')}>New video wall</button>` : null}>
      <p class="setup-status" role="status">${status}</p>
      <${ErrorNote} error=${actionError} />
      ${
        editing && cameras.data
          ? html`<${WallForm} key=${editing === 'new' ? 'new' : editing.id} project=${project} cameras=${cameras.data}
              wall=${editing === 'new' ? null : editing} onSaved=${saved} onCancel=${close} />`
          : null
      }
      <${Loaded} result=${walls}>
        ${(list) => html`<${WallList} walls=${list} canEdit=${canEdit} onEdit=${(w) => setEditing(w)} onDelete=${remove} />`}
      <//>
      ${info.data && !canEdit ? html`<p class="muted">Your role here is ${info.data.role}: editors, admins and the owner set up video walls.</p>` : null}
      ${confirmDialog}
    <//>
  `;
}
