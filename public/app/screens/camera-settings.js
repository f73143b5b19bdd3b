// A camera's settings (admins and the owner): its name and time zone, how the platform reaches it
// (tried before saving with POST …/settings/connection/check), and cloud recording: on, paused or off,
// how often, how long images are kept, and a weekly schedule in the camera's time zone.
import { useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useConfirm } from '../lib/confirm-dialog.js';
import { CheckResult, ConnectionFields, connectionBody, connectionProblems } from '../lib/camera-connection.js';
import { messageFor, RadioField, SelectField, TextField, useFieldErrors } from '../lib/fields.js';
import { html } from '../lib/html.js';
import { useApi } from '../lib/hooks.js';
import { roleAllows } from '../lib/roles.js';
import { href } from '../lib/router.js';
import { cameraTabs } from '../lib/tabs.js';
import { timeZoneOptions } from '../lib/time-zones.js';
import { ErrorNote, Loaded, Screen } from '../lib/ui.js';

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const DAY_NAMES = {
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
  sunday: 'Sunday',
};
const WINDOW = /^([01]\d|2[0-3]):[0-5]\d-(([01]\d|2[0-3]):[0-5]\d|24:00)$/;
const FREQUENCIES = [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60];
const KEEP = [
  [7, '7 days'],
  [30, '30 days'],
  [90, '90 days'],
  [365, '1 year'],
  [730, '2 years'],
  [3650, '10 years'],
  [-1, 'Forever'],
];
const STATUSES = [
  ['on', 'On: the platform records the camera'],
  ['paused', 'Paused: nothing is recorded, the settings stay'],
  ['off', 'Off'],
];

/** A small form: its own busy state, "Saved." note and errors. `save` returns a promise. */
function useSaver(save) {
  const [state, setState] = useState({ busy: false, saved: '', error: null });
  const run = async (...args) => {
    setState({ busy: true, saved: '', error: null });
    try {
      const message = await save(...args);
      setState({ busy: false, saved: message ?? 'Saved.', error: null });
    } catch (error) {
      setState({ busy: false, saved: '', error });
    }
  };
  return [state, run];
}

function GeneralForm({ settings, onSaved }) {
  const base = `/v2/cameras/${encodeURIComponent(settings.exid)}/settings`;
  const [name, setName] = useState(settings.name);
  const [timezone, setTimezone] = useState(settings.timezone);
  const [local, setLocal, edited] = useFieldErrors();
  const [state, save] = useSaver(async () => {
    let next = null;
    if (name.trim() !== settings.name) next = await api('PATCH', base, { name: name.trim() });
    if (timezone !== settings.timezone) next = await api('PATCH', `${base}/timezone`, { timezone });
    if (!next) return 'Nothing changed.';
    onSaved(next);
    return 'Saved.';
  });
  const submit = (event) => {
    event.preventDefault();
    if (!name.trim()) return setLocal({ name: 'The camera needs a name.' });
    setLocal(null);
    save();
  };
  const errors = { name: messageFor(local, state.error, 'name'), timezone: messageFor(local, state.error, 'timezone') };
  return html`
    <form class="card setup-form" onSubmit=${submit} noValidate aria-labelledby="camera-general-title">
      <h2 id="camera-general-title">General</h2>
      <div class="setup-fields">
        <${TextField} id="camera-name" label="Name" value=${name} onValue=${edited('name', setName)} error=${errors.name} maxLength="200" autocomplete="off" />
        <${SelectField} id="camera-timezone" label="Time zone" value=${timezone} onValue=${setTimezone} options=${timeZoneOptions(timezone)} error=${errors.timezone}
          hint="The recording schedule and the recordings’ days follow it." />
      </div>
      <${Buttons} state=${state} label="Save name and time zone" other=${state.error && !errors.name && !errors.timezone ? state.error : null} />
    </form>
  `;
}

function Buttons({ state, label, other, children }) {
  return html`
    <div class="form-buttons">
      <button type="submit" disabled=${state.busy}>${state.busy ? 'Saving…' : label}</button>
      ${children}
      <p class="saved" role="status">${state.saved}</p>
    </div>
    <${ErrorNote} error=${other} />
  `;
}

function ConnectionForm({ settings, onSaved }) {
  const base = `/v2/cameras/${encodeURIComponent(settings.exid)}/settings/connection`;
  const c = settings.connection;
  const [fields, setFields] = useState({ snapshot_url: c?.snapshot_url ?? '', rtsp_url: c?.rtsp_url ?? '', username: c?.username ?? '', password: '' });
  const [local, setLocal, edited] = useFieldErrors();
  const [check, setCheck] = useState(undefined);
  const [checking, setChecking] = useState(false);
  const body = () => {
    const b = connectionBody(fields);
    // Fields emptied clear the stored value; the password is kept unless typed again.
    for (const f of ['snapshot_url', 'rtsp_url', 'username']) if (!(f in b)) b[f] = null;
    return b;
  };
  const problems = () => {
    const p = connectionProblems(fields);
    setLocal(Object.keys(p).length ? p : null);
    return Object.keys(p).length === 0;
  };
  const [state, save] = useSaver(async () => {
    const next = await api('PUT', base, body());
    setFields((f) => ({ ...f, password: '' }));
    onSaved(next);
    return 'Saved. The live view restarts with the new connection.';
  });
  const tryIt = async () => {
    if (!problems()) return;
    setChecking(true);
    setCheck(undefined);
    try {
      setCheck(await api('POST', `${base}/check`, body()));
    } catch (error) {
      if (['snapshot_url', 'rtsp_url', 'username', 'password'].some((f) => messageFor(null, error, f))) setLocal(fieldErrors(error));
      else setCheck({ error });
    } finally {
      setChecking(false);
    }
  };
  const submit = (event) => {
    event.preventDefault();
    if (problems()) save();
  };
  const errors = fieldErrors(state.error, local);
  return html`
    <form class="card setup-form" onSubmit=${submit} noValidate aria-labelledby="camera-connection-title">
      <h2 id="camera-connection-title">Connection</h2>
      ${
        settings.kind === 'simulated'
          ? html`<p class="muted">This is the simulated camera. Giving addresses here makes it a camera on the site.</p>`
          : html`<p class="muted">Try the details before saving: the check uses what is typed here and saves nothing.</p>`
      }
      <${ConnectionFields} prefix="connection" fields=${fields} set=${setFields} errors=${errors} edited=${edited} passwordStored=${!!c?.password_set} />
      <${Buttons} state=${state} label="Save connection" other=${state.error && !Object.values(errors).some(Boolean) ? state.error : null}>
        <button type="button" class="secondary" onClick=${tryIt} disabled=${checking}>${checking ? 'Checking…' : 'Check connection'}</button>
      <//>
      ${checking ? html`<p class="loading" role="status">Trying the camera…</p>` : html`<${CheckResult} result=${check} />`}
    </form>
  `;
}

const fieldErrors = (error, local = null) =>
  Object.fromEntries(['snapshot_url', 'rtsp_url', 'username', 'password'].map((f) => [f, messageFor(local, error, f)]));

/** Problems of the typed schedule, by weekday; the windows the API takes otherwise. */
function parseWindows(text) {
  const items = text
    .split(/[,;\s]+/)
    .map((w) => w.trim())
    .filter(Boolean);
  const bad = items.find((w) => !WINDOW.test(w));
  if (bad) return { error: `“${bad}” is not a time window: write it as 08:00-18:00 (24-hour clock; 24:00 for midnight at the end).` };
  const mins = (hhmm) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  const spans = items.map((w) => [mins(w.slice(0, 5)), mins(w.slice(6)), w]).sort((a, b) => a[0] - b[0]);
  const backwards = spans.find(([s, e]) => e <= s);
  if (backwards) return { error: `${backwards[2]} ends before it starts: split a night into 22:00-24:00 and 00:00-06:00 on the next day.` };
  for (let i = 1; i < spans.length; i++) if (spans[i][0] < spans[i - 1][1]) return { error: `${spans[i - 1][2]} and ${spans[i][2]} overlap.` };
  return { windows: items };
}

function RecordingForm({ camera, recording, onSaved }) {
  const [status, setStatus] = useState(recording.status);
  const [frequency, setFrequency] = useState(String(recording.frequency));
  const [keep, setKeep] = useState(String(recording.storage_duration));
  const [scheduled, setScheduled] = useState(recording.schedule ? 'schedule' : 'always');
  const [days, setDays] = useState(() =>
    Object.fromEntries(
      WEEKDAYS.map((d) => [d, (recording.schedule?.[d] ?? (recording.schedule ? [] : d === 'saturday' || d === 'sunday' ? [] : ['07:00-19:00'])).join(', ')]),
    ),
  );
  const [local, setLocal, edited] = useFieldErrors();
  const [state, save] = useSaver(async (body) => {
    onSaved(await api('PATCH', `/v2/cameras/${encodeURIComponent(camera)}/settings/recording`, body));
    return 'Saved. The recorder follows the new settings at once.';
  });
  const submit = (event) => {
    event.preventDefault();
    const problems = {};
    const schedule = {};
    if (scheduled === 'schedule') {
      for (const d of WEEKDAYS) {
        const parsed = parseWindows(days[d]);
        if (parsed.error) problems[d] = parsed.error;
        else schedule[d] = parsed.windows;
      }
      if (!Object.keys(problems).length && WEEKDAYS.every((d) => schedule[d].length === 0))
        problems.monday = 'Give at least one day a time window, or choose “All day, every day”.';
    }
    setLocal(Object.keys(problems).length ? problems : null);
    if (Object.keys(problems).length) return document.getElementById(`schedule-${Object.keys(problems)[0]}`)?.focus();
    save({ status, frequency: Number(frequency), storage_duration: Number(keep), schedule: scheduled === 'schedule' ? schedule : null });
  };
  const keepOptions = KEEP.some(([d]) => String(d) === keep) ? KEEP : [[Number(keep), `${keep} days`], ...KEEP];
  const freqOptions = FREQUENCIES.includes(Number(frequency)) ? FREQUENCIES : [Number(frequency), ...FREQUENCIES];
  const err = (f) => messageFor(local, state.error, f);
  const known = ['status', 'frequency', 'storage_duration', ...WEEKDAYS].some((f) => err(f));
  return html`
    <form class="card setup-form" onSubmit=${submit} noValidate aria-labelledby="camera-recording-title">
      <h2 id="camera-recording-title">Cloud recording</h2>
      <${RadioField} name="recording-status" legend="Recording" value=${status} onValue=${setStatus} options=${STATUSES} error=${err('status')} />
      <div class="setup-fields">
        <${SelectField} id="recording-frequency" label="Pictures a minute" value=${frequency} onValue=${setFrequency}
          options=${freqOptions.map((f) => [String(f), f === 1 ? '1 (one a minute)' : `${f} (one every ${60 / f} seconds)`])} error=${err('frequency')} />
        <${SelectField} id="recording-keep" label="Keep pictures for" value=${keep} onValue=${setKeep}
          options=${keepOptions.map(([d, text]) => [String(d), text])} error=${err('storage_duration')} hint=${keep === '-1' ? 'Nothing is deleted.' : 'Older pictures are deleted.'} />
      </div>
      <${RadioField} name="recording-when" legend="When" value=${scheduled} onValue=${setScheduled}
        options=${[['always', 'All day, every day'], ['schedule', 'Only at set times (a weekly schedule)']]} />
      ${
        scheduled === 'schedule'
          ? html`
            <fieldset class="schedule">
              <legend>Times to record, in the camera’s time zone</legend>
              <p class="muted field-hint" id="schedule-hint">One or more windows a day, such as 07:00-12:00, 13:00-19:00. Leave a day empty to record nothing that day.</p>
              <div class="schedule-days">
                ${WEEKDAYS.map(
                  (
                    d,
                  ) => html`<${TextField} id=${`schedule-${d}`} label=${DAY_NAMES[d]} value=${days[d]} onValue=${edited(d, (v) => setDays((all) => ({ ...all, [d]: v })))}
                    error=${err(d) ?? messageFor(null, state.error, `schedule.${d}`)} autocomplete="off" placeholder="07:00-19:00" />`,
                )}
              </div>
            </fieldset>
          `
          : null
      }
      <${Buttons} state=${state} label="Save recording" other=${state.error && !known ? state.error : null} />
    </form>
  `;
}

/** Deleting the camera, after a confirm that says what goes with it; then back to the project's cameras. */
function DeleteCamera({ settings }) {
  const [confirm, confirmDialog] = useConfirm();
  const [error, setError] = useState(null);
  const remove = async () => {
    const yes = await confirm({
      title: `Delete ${settings.name}?`,
      body: 'The camera goes with all its recordings, number-plate images and every stored file, and its live stream stops. This cannot be undone.',
      confirmLabel: 'Delete camera',
      cancelLabel: 'Keep it',
    });
    if (!yes) return;
    setError(null);
    try {
      await api('DELETE', `/v2/cameras/${encodeURIComponent(settings.exid)}`);
      location.hash = href('projects', settings.project_exid);
    } catch (e) {
      setError(e);
    }
  };
  return html`
    <section class="card setup-form" aria-labelledby="camera-delete-title">
      <h2 id="camera-delete-title">Delete this camera</h2>
      <p class="muted">For a camera taken off the site, or one added by mistake. Its recordings go with it.</p>
      <button type="button" class="danger" onClick=${remove}>Delete camera</button>
      <${ErrorNote} error=${error} />
      ${confirmDialog}
    </section>
  `;
}

function AdminSettings({ camera, onRenamed }) {
  const settings = useApi(`/v2/cameras/${encodeURIComponent(camera)}/settings`);
  return html`
    <${Loaded} result=${settings}>
      ${(s) => html`
        <div class="settings-stack">
          <${GeneralForm} settings=${s} onSaved=${() => {
            settings.reload();
            onRenamed();
          }} />
          ${
            s.kind === 'linked'
              ? html`<p class="card muted">This camera is reached through its site recorder: its connection is set there.</p>`
              : html`<${ConnectionForm} key=${s.kind} settings=${s} onSaved=${() => settings.reload()} />`
          }
          <${RecordingForm} camera=${camera} recording=${s.recording} onSaved=${() => {}} />
          <${DeleteCamera} settings=${s} />
        </div>
      `}
    <//>
  `;
}

export function CameraSettings({ camera }) {
  const info = useApi(`/v2/cameras/${encodeURIComponent(camera)}`);
  const project = useApi(info.data ? `/v2/projects/${encodeURIComponent(info.data.project_exid)}` : null, [info.data?.project_exid]);
  const name = info.data?.name ?? 'Camera';
  return html`
    <${Screen} title=${`Settings · ${name}`} heading=${`Settings of ${name}`} tabs=${cameraTabs(camera, 'settings')}>
      <${Loaded} result=${info.error ? info : project}>
        ${(p) =>
          roleAllows(p.role, 'admin')
            ? html`<${AdminSettings} camera=${camera} onRenamed=${() => info.reload()} />`
            : html`<p class="muted">Your role on ${p.name} is ${p.role}: admins and the owner change a camera’s settings and recording.</p>`}
      <//>
    <//>
  `;
}
