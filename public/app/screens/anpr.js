// A camera's number-plate reads (ANPR), newest first, filtered by plate, date range and direction and
// paged; each read with its plate image when the camera sent one. Below, the project's watch list.
import { useState } from 'preact/hooks';
import { isPlate, Watchlist } from '../lib/anpr-watchlist.js';
import { fieldMessage } from '../lib/form-errors.js';
import { useApi, useImage } from '../lib/hooks.js';
import { html } from '../lib/html.js';
import { Pager } from '../lib/pager.js';
import { roleAllows } from '../lib/roles.js';
import { cameraTabs } from '../lib/tabs.js';
import { dateTime, ErrorNote, Loaded, Screen } from '../lib/ui.js';

const PAGE_SIZE = 25;
const DIRECTION = { in: 'In', out: 'Out', unknown: '—' };
const NO_FILTER = { plate: '', from: '', to: '', direction: '' };

/** A date input's day as the instant it starts (or, with `end`, ends) in the browser's time zone. */
const dayEdge = (day, end) => new Date(`${day}T${end ? '23:59:59.999' : '00:00:00'}`).toISOString();

function query(filter, page) {
  const q = new URLSearchParams({ page: String(page), limit: String(PAGE_SIZE) });
  if (filter.plate) q.set('plate', filter.plate);
  if (filter.from) q.set('from', dayEdge(filter.from, false));
  if (filter.to) q.set('to', dayEdge(filter.to, true));
  if (filter.direction) q.set('direction', filter.direction);
  return q;
}

/** What is wrong with the filter form, field by field (empty when nothing). */
function filterProblems(f) {
  const problems = {};
  const plate = f.plate.replace(/\*$/, '');
  if (f.plate.trim() && !isPlate(plate)) problems.plate = 'A plate is letters and digits; end it with * to find every plate that starts so.';
  if (f.from && f.to && f.from > f.to) problems.to = 'The end date is before the start date.';
  return problems;
}

export function Anpr({ camera }) {
  const cam = useApi(`/v2/cameras/${encodeURIComponent(camera)}`);
  const projectExid = cam.data?.project_exid ?? null;
  const project = useApi(projectExid ? `/v2/projects/${encodeURIComponent(projectExid)}` : null, [projectExid]);
  const watchlist = useApi(projectExid ? `/v2/projects/${encodeURIComponent(projectExid)}/anpr/watchlist` : null, [projectExid]);
  const [form, setForm] = useState(NO_FILTER);
  const [filter, setFilter] = useState(NO_FILTER);
  const [problems, setProblems] = useState({});
  const [page, setPage] = useState(1);
  const events = useApi(`/v2/cameras/${encodeURIComponent(camera)}/anpr?${query(filter, page)}`);
  const watched = new Map((watchlist.data ?? []).map((w) => [w.plate, w.label]));
  const filtered = Object.values(filter).some(Boolean);
  const name = cam.data?.name ?? camera;

  const apply = (event) => {
    event.preventDefault();
    const found = filterProblems(form);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setFilter({ ...form, plate: form.plate.trim() });
    setPage(1);
  };
  const clear = () => {
    setForm(NO_FILTER);
    setFilter(NO_FILTER);
    setProblems({});
    setPage(1);
  };
  const set = (field) => (e) => setForm({ ...form, [field]: e.currentTarget.value });
  // The server's word on a filter it refused, next to that field.
  const problem = (field) => problems[field] ?? fieldMessage(events.error, field);
  const invalid = (field) => (problem(field) ? { 'aria-invalid': 'true', 'aria-describedby': `anpr-${field}-error` } : {});
  const note = (field) => (problem(field) ? html`<p id=${`anpr-${field}-error`} class="error" role="alert">${problem(field)}</p>` : null);

  return html`
    <${Screen} title=${`Number plates · ${name}`} heading=${`Number plates · ${name}`} tabs=${cameraTabs(camera, 'anpr')}>
      <${ErrorNote} error=${cam.error} />
      <form class="card anpr-filter" onSubmit=${apply} noValidate aria-label="Filter the reads">
        <div class="anpr-fields">
          <div>
            <label for="anpr-plate">Plate</label>
            <input id="anpr-plate" autocomplete="off" maxlength="65" value=${form.plate} onInput=${set('plate')} aria-describedby="anpr-plate-hint" ...${invalid('plate')} />
            <p id="anpr-plate-hint" class="muted anpr-hint">The whole plate, or its start followed by * (AB12*). Spaces and dashes do not matter.</p>
            ${note('plate')}
          </div>
          <div>
            <label for="anpr-from">From</label>
            <input id="anpr-from" type="date" value=${form.from} onInput=${set('from')} ...${invalid('from')} />
            ${note('from')}
          </div>
          <div>
            <label for="anpr-to">To</label>
            <input id="anpr-to" type="date" value=${form.to} onInput=${set('to')} ...${invalid('to')} />
            ${note('to')}
          </div>
          <div>
            <label for="anpr-direction">Direction</label>
            <select id="anpr-direction" value=${form.direction} onChange=${set('direction')}>
              <option value="">Any</option>
              <option value="in">In</option>
              <option value="out">Out</option>
              <option value="unknown">Not known</option>
            </select>
          </div>
        </div>
        <div class="anpr-filter-actions">
          <button type="submit">Show reads</button>
          ${filtered ? html`<button type="button" class="secondary" onClick=${clear}>Clear filters</button>` : null}
        </div>
      </form>
      ${events.error && !problem('plate') && !problem('from') && !problem('to') ? html`<${ErrorNote} error=${events.error} />` : null}
      ${
        events.error
          ? null
          : html`<${Loaded} result=${events}>
            ${({ meta, data }) =>
              data.length === 0
                ? html`<p class="anpr-empty card">${
                    filtered
                      ? 'No read matches these filters.'
                      : 'This camera has not read any number plate yet. Reads appear here as soon as the camera or its recorder sends them.'
                  }</p>`
                : html`
                    <${EventTable} camera=${camera} events=${data} watched=${watched} />
                    <${Pager} meta=${meta} onPage=${setPage} what=${['read', 'reads']} label="Pages of reads" />
                  `}
          <//>`
      }
      ${projectExid ? html`<${Watchlist} project=${projectExid} result=${watchlist} canManage=${roleAllows(project.data?.role, 'admin')} />` : null}
    <//>
  `;
}

function EventTable({ camera, events, watched }) {
  return html`
    <table class="anpr-table">
      <caption class="visually-hidden">Number-plate reads, newest first</caption>
      <thead>
        <tr><th scope="col">Plate</th><th scope="col">Time</th><th scope="col">Direction</th><th scope="col">Confidence</th><th scope="col">Image</th></tr>
      </thead>
      <tbody>
        ${events.map(
          (e) => html`
            <tr key=${e.id} data-plate=${e.plate}>
              <th scope="row" data-label="Plate">
                <span class="anpr-plate">${e.plate}</span>
                ${e.plate_raw !== e.plate ? html`<span class="muted anpr-raw"> read as “${e.plate_raw}”</span>` : null}
                ${watched.has(e.plate) ? html`<span class="anpr-watched">Watch list: ${watched.get(e.plate)}</span>` : null}
              </th>
              <td data-label="Time">${dateTime(e.captured_at)}</td>
              <td data-label="Direction">${DIRECTION[e.direction] ?? e.direction}</td>
              <td data-label="Confidence">${e.confidence === null ? '—' : `${Math.round(e.confidence * 100)}%`}</td>
              <td data-label="Image" class="anpr-image-cell">${e.has_plate_image ? html`<${PlateImage} camera=${camera} event=${e} />` : html`<span class="muted">No image</span>`}</td>
            </tr>
          `,
        )}
      </tbody>
    </table>
  `;
}

function PlateImage({ camera, event }) {
  const src = useImage(`/v2/cameras/${encodeURIComponent(camera)}/anpr/${encodeURIComponent(event.id)}`);
  if (!src) return html`<span class="muted">Loading image…</span>`;
  return html`<img class="anpr-image" src=${src} alt=${`Plate ${event.plate_raw} as the camera saw it`} />`;
}
