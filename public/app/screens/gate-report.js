// The project's gate report (docs/plates.md, Gate report): one local day or a range of days, with the
// visits (entry, exit, dwell), counts per hour and per vendor, unmatched entries and exits, corrections
// of misread plates and a CSV download. The AI API answers it; the main API passes `/ai/…` on to it
// (docs/decisions.md says why).
import { useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { fieldMessage } from '../lib/form-errors.js';
import { useApi } from '../lib/hooks.js';
import { html } from '../lib/html.js';
import { projectTabs } from '../lib/tabs.js';
import { ErrorNote, Loaded, Screen } from '../lib/ui.js';

const DAY_MS = 86_400_000;
const MAX_DAYS = 31;

/** Today in the browser, YYYY-MM-DD. */
const today = () => new Date(Date.now() - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
const nextDay = (day) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/** The report's path on the AI API (through the main API's `/ai/`), for a day or a range of days in the project's time zone. */
function reportPath(project, chosen, csv = false) {
  const base = `/ai/projects/${encodeURIComponent(project)}/gate-report`;
  if (chosen.mode === 'day') return `${base}/days/${chosen.day}${csv ? '/csv' : ''}`;
  // Days are the browser's: the first day's midnight to the midnight after the last day.
  const q = new URLSearchParams({ from: new Date(`${chosen.from}T00:00:00`).toISOString(), to: new Date(`${nextDay(chosen.to)}T00:00:00`).toISOString() });
  return `${base}${csv ? '/csv' : ''}?${q}`;
}

function formProblems(f) {
  const problems = {};
  if (f.mode === 'day' && !f.day) problems.day = 'Pick a day.';
  if (f.mode === 'range') {
    if (!f.from) problems.from = 'Pick the first day.';
    if (!f.to) problems.to = 'Pick the last day.';
    else if (f.from && f.to < f.from) problems.to = 'The last day is before the first day.';
    else if (f.from && (Date.parse(f.to) - Date.parse(f.from)) / DAY_MS >= MAX_DAYS) problems.to = `A range is at most ${MAX_DAYS} days.`;
  }
  return problems;
}

function dwell(seconds) {
  if (seconds === null || seconds === undefined) return '—';
  const h = Math.floor(seconds / 3600);
  const m = Math.round((seconds % 3600) / 60);
  return h > 0 ? `${h} h ${String(m).padStart(2, '0')} min` : `${m} min`;
}

export function GateReport({ project }) {
  const info = useApi(`/v2/projects/${encodeURIComponent(project)}`);
  const start = { mode: 'day', day: today(), from: today(), to: today() };
  const [form, setForm] = useState(start);
  const [chosen, setChosen] = useState(start);
  const [problems, setProblems] = useState({});
  const [downloadError, setDownloadError] = useState(null);
  const report = useApi(reportPath(project, chosen));
  const name = info.data?.name ?? project;

  const show = (event) => {
    event.preventDefault();
    const found = formProblems(form);
    setProblems(found);
    if (Object.keys(found).length === 0) setChosen({ ...form });
  };
  const set = (field) => (e) => setForm({ ...form, [field]: e.currentTarget.value });
  const problem = (field) => problems[field] ?? fieldMessage(report.error, field === 'day' ? 'date' : field);
  const invalid = (field) => (problem(field) ? { 'aria-invalid': 'true', 'aria-describedby': `gate-${field}-error` } : {});
  const note = (field) => (problem(field) ? html`<p id=${`gate-${field}-error`} class="error" role="alert">${problem(field)}</p>` : null);
  const input = (field, label) => html`
    <div>
      <label for=${`gate-${field}`}>${label}</label>
      <input id=${`gate-${field}`} type="date" value=${form[field]} onInput=${set(field)} required ...${invalid(field)} />
      ${note(field)}
    </div>
  `;

  const downloadCsv = async () => {
    setDownloadError(null);
    try {
      const blob = await api('GET', reportPath(project, chosen, true));
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = chosen.mode === 'day' ? `gate-report-${project}-${chosen.day}.csv` : `gate-report-${project}-${chosen.from}-to-${chosen.to}.csv`;
      a.hidden = true;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (err) {
      setDownloadError(err);
    }
  };

  return html`
    <${Screen} title=${`Gate report · ${name}`} tabs=${projectTabs(project, 'gate')}>
      <form class="card gate-form" onSubmit=${show} noValidate aria-label="Choose the days">
        <fieldset class="gate-mode">
          <legend>Report for</legend>
          <label><input type="radio" name="gate-mode" value="day" checked=${form.mode === 'day'} onChange=${set('mode')} /> One day</label>
          <label><input type="radio" name="gate-mode" value="range" checked=${form.mode === 'range'} onChange=${set('mode')} /> A range of days</label>
        </fieldset>
        <div class="gate-fields">${form.mode === 'day' ? input('day', 'Day') : html`${input('from', 'First day')}${input('to', 'Last day')}`}</div>
        <div class="gate-actions">
          <button type="submit">Show report</button>
          <button type="button" class="secondary" onClick=${downloadCsv} disabled=${!report.data}>Download CSV</button>
        </div>
        <${ErrorNote} error=${downloadError} />
      </form>
      <${Loaded} result=${report}>${(r) => html`<${Report} report=${r} />`}<//>
    <//>
  `;
}

function Report({ report }) {
  const zone = report.time_zone;
  const oneDay = Date.parse(report.to) - Date.parse(report.from) <= DAY_MS + 3_600_000;
  const at = (iso) =>
    iso
      ? new Date(iso).toLocaleString(undefined, oneDay ? { timeZone: zone, timeStyle: 'short' } : { timeZone: zone, dateStyle: 'medium', timeStyle: 'short' })
      : '—';
  const t = report.totals;
  const hours = report.per_hour.filter((h) => h.entries + h.exits > 0);
  const corrections = allCorrections(report);
  return html`
    <p class="muted gate-zone">Times in ${zone}.</p>
    <dl class="gate-totals" aria-label="Totals">
      ${[
        ['Entries', t.entries],
        ['Exits', t.exits],
        ['Visits', t.visits],
        ['Mean stay', dwell(t.mean_dwell_seconds)],
        ['Unmatched entries', t.unmatched_entries],
        ['Unmatched exits', t.unmatched_exits],
        ['On site', t.on_site],
      ].map(([k, v]) => html`<div class="card"><dt>${k}</dt><dd>${v}</dd></div>`)}
    </dl>

    <h2>Visits</h2>
    ${
      report.visits.length === 0
        ? html`<p class="card">No visits.</p>`
        : html`
          <div class="gate-scroll">
            <table class="gate-table">
              <caption class="visually-hidden">Visits: entry, exit and time on site</caption>
              <thead><tr><th scope="col">Plate</th><th scope="col">Vendor</th><th scope="col">Entry</th><th scope="col">Exit</th><th scope="col">Stay</th></tr></thead>
              <tbody>
                ${report.visits.map(
                  (v) => html`<tr>
                    <th scope="row" data-label="Plate"><span class="anpr-plate">${v.plate}</span>${v.corrections.length > 0 ? html` <span class="muted">(corrected)</span>` : null}</th>
                    <td data-label="Vendor">${v.vendor ?? '—'}</td>
                    <td data-label="Entry">${at(v.entry_at)}</td>
                    <td data-label="Exit">${at(v.exit_at)}</td>
                    <td data-label="Stay">${dwell(v.dwell_seconds)}</td>
                  </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }

    <div class="gate-columns">
      <section aria-labelledby="gate-hours">
        <h2 id="gate-hours">Per hour</h2>
        ${
          hours.length === 0
            ? html`<p class="card">No vehicle in or out.</p>`
            : html`<table class="gate-table gate-counts">
                <caption class="visually-hidden">Entries and exits per hour of the day</caption>
                <thead><tr><th scope="col">Hour</th><th scope="col">Entries</th><th scope="col">Exits</th></tr></thead>
                <tbody>${hours.map((h) => html`<tr><th scope="row">${String(h.hour).padStart(2, '0')}:00</th><td>${h.entries}</td><td>${h.exits}</td></tr>`)}</tbody>
              </table>`
        }
      </section>
      <section aria-labelledby="gate-vendors">
        <h2 id="gate-vendors">Per vendor</h2>
        ${
          report.per_vendor.length === 0
            ? html`<p class="card">No vehicle in or out.</p>`
            : html`<table class="gate-table gate-counts">
                <caption class="visually-hidden">Entries, exits, visits and mean stay per vendor</caption>
                <thead><tr><th scope="col">Vendor</th><th scope="col">Entries</th><th scope="col">Exits</th><th scope="col">Visits</th><th scope="col">Mean stay</th></tr></thead>
                <tbody>
                  ${report.per_vendor.map(
                    (v) =>
                      html`<tr><th scope="row">${v.vendor ?? 'Not on the watch list'}</th><td>${v.entries}</td><td>${v.exits}</td><td>${v.visits}</td><td>${dwell(v.mean_dwell_seconds)}</td></tr>`,
                  )}
                </tbody>
              </table>`
        }
      </section>
    </div>

    <${Moves} id="gate-unmatched-entries" title="Unmatched entries" hint="Entered, then entered again before any exit: an exit was missed." moves=${report.unmatched_entries} at=${at} />
    <${Moves} id="gate-unmatched-exits" title="Unmatched exits" hint="Left with no entry seen before." moves=${report.unmatched_exits} at=${at} />
    <${Moves} id="gate-on-site" title="Still on site" hint="Entered with no later read of the plate." moves=${report.on_site} at=${at} />

    <section aria-labelledby="gate-corrections">
      <h2 id="gate-corrections">Corrections</h2>
      ${
        corrections.length === 0
          ? html`<p class="card">No plate in this report was corrected.</p>`
          : html`<ul class="gate-list">
              ${corrections.map(
                (c) =>
                  html`<li class="card">Read as <span class="anpr-plate">${c.plate_before}</span>, corrected to <span class="anpr-plate">${c.plate}</span> by ${c.corrected_by ?? 'a former member'} on ${at(c.created_at)}</li>`,
              )}
            </ul>`
      }
    </section>
  `;
}

function Moves({ id, title, hint, moves, at }) {
  return html`
    <section aria-labelledby=${id}>
      <h2 id=${id}>${title} (${moves.length})</h2>
      <p class="muted">${hint}</p>
      ${
        moves.length === 0
          ? null
          : html`<ul class="gate-list">
              ${moves.map((m) => html`<li class="card"><span class="anpr-plate">${m.plate}</span> ${m.vendor ? `${m.vendor} · ` : ''}${at(m.at)} · ${m.camera_exid}</li>`)}
            </ul>`
      }
    </section>
  `;
}

/** Every correction in the report once, with the plate it was corrected to. */
function allCorrections(report) {
  const seen = new Map();
  const add = (plate, list) => {
    for (const c of list) if (!seen.has(`${c.event_id} ${c.created_at}`)) seen.set(`${c.event_id} ${c.created_at}`, { ...c, plate });
  };
  for (const v of report.visits) add(v.plate, v.corrections);
  for (const m of [...report.unmatched_entries, ...report.unmatched_exits, ...report.on_site]) add(m.plate, m.corrections);
  return [...seen.values()].sort((a, b) => a.created_at.localeCompare(b.created_at));
}
