// Two moments of a camera's recordings compared: picked on the recordings screen ("use as before",
// "use as after"), shown side by side or stacked with a slider that reveals the later frame over the
// earlier, and saved by an editor as a media hub compare (rendered there as a GIF and a video).
import { useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { fieldMessage } from '../lib/form-errors.js';
import { html } from '../lib/html.js';
import { useApi, useImage } from '../lib/hooks.js';
import { snapshotsPath } from '../lib/recordings-frames.js';
import { frameTime } from '../lib/recordings-time.js';

const WRITERS = new Set(['editor', 'admin', 'owner']);
/** The slider moves in steps of 5 %: each step is a class (the CSP refuses inline styles). */
const STEP = 5;

export function ComparePanel({ camera, project, tz, moments, clear }) {
  if (!moments.before && !moments.after) return null;
  return html`<${Compare} camera=${camera} project=${project} tz=${tz} moments=${moments} clear=${clear} />`;
}

function Compare({ camera, project, tz, moments, clear }) {
  const [mode, setMode] = useState('side'); // 'side' | 'slider'
  const [reveal, setReveal] = useState(50);
  const info = useApi(project ? `/v2/projects/${encodeURIComponent(project)}` : null);
  const canWrite = WRITERS.has(info.data?.role);
  // The earlier moment is "before", whichever was picked first.
  const [before, after] = [moments.before, moments.after].sort((a, b) => (a === null ? 1 : b === null ? -1 : a < b ? -1 : 1));
  const both = moments.before && moments.after;
  const same = both && moments.before === moments.after;
  const src = (ts) => (ts ? `${snapshotsPath(camera)}/${encodeURIComponent(ts)}` : null);
  const beforeSrc = useImage(src(before));
  const afterSrc = useImage(src(after));

  const img = (s, ts, cls = 'cmp-image') =>
    s ? html`<img class=${cls} src=${s} alt=${`Frame taken ${frameTime(tz, ts)}`} />` : html`<div class="rec-image-wait">Loading frame…</div>`;
  return html`
    <section class="card cmp" aria-labelledby="cmp-h">
      <h2 id="cmp-h">Compare two moments</h2>
      ${
        !both
          ? html`<p class="muted">Chosen: ${frameTime(tz, before)}. Pick another frame and use it as the ${moments.before ? 'after' : 'before'} moment.</p>`
          : same
            ? html`<p class="muted">Both moments are the same frame: pick another one.</p>`
            : html`
              <div class="actions cmp-modes" role="group" aria-label="How to compare">
                <button type="button" class="secondary" aria-pressed=${mode === 'side' ? 'true' : 'false'} onClick=${() => setMode('side')}>Side by side</button>
                <button type="button" class="secondary" aria-pressed=${mode === 'slider' ? 'true' : 'false'} onClick=${() => setMode('slider')}>Slider</button>
              </div>
              ${
                mode === 'side'
                  ? html`<div class="cmp-side">
                      <figure class="cmp-figure">${img(beforeSrc, before)}<figcaption>Before: ${frameTime(tz, before)}</figcaption></figure>
                      <figure class="cmp-figure">${img(afterSrc, after)}<figcaption>After: ${frameTime(tz, after)}</figcaption></figure>
                    </div>`
                  : html`<figure class="cmp-figure">
                      <div class="cmp-stack">
                        ${img(beforeSrc, before)} ${afterSrc ? html`<img class=${`cmp-image cmp-over cmp-at-${reveal / STEP}`} src=${afterSrc} alt=${`Frame taken ${frameTime(tz, after)}`} />` : null}
                      </div>
                      <figcaption>Left of the line: after (${frameTime(tz, after)}); right: before (${frameTime(tz, before)}).</figcaption>
                      <label for="cmp-reveal">After shown across</label>
                      <input
                        id="cmp-reveal"
                        type="range"
                        min="0"
                        max="100"
                        step=${STEP}
                        value=${reveal}
                        aria-valuetext=${`${reveal}% of the width shows the after frame`}
                        onInput=${(e) => setReveal(Number(e.currentTarget.value))}
                      />
                    </figure>`
              }
              ${canWrite ? html`<${SaveCompare} camera=${camera} project=${project} tz=${tz} before=${before} after=${after} />` : null}
            `
      }
      <button type="button" class="secondary cmp-clear" onClick=${clear}>Clear the compare</button>
    </section>
  `;
}

function SaveCompare({ camera, project, tz, before, after }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const [saved, setSaved] = useState(null);
  const titleError = fieldMessage(error, 'title');
  const submit = async (e) => {
    e.preventDefault();
    const title = new FormData(e.currentTarget).get('title').trim();
    setError(null);
    if (!title) {
      setError({ body: { details: [{ field: 'title', message: 'Give the compare a title.' }] } });
      return;
    }
    setBusy(true);
    try {
      setSaved(
        await api('POST', `/v2/projects/${encodeURIComponent(project)}/media-hub/compares`, {
          title,
          camera_exid: camera,
          before_date: before,
          after_date: after,
        }),
      );
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return html`
    <form class="cmp-save" aria-labelledby="cmp-save-h" onSubmit=${submit} noValidate>
      <h3 id="cmp-save-h">Save in the media hub</h3>
      <label for="cmp-title">Title</label>
      <input
        id="cmp-title"
        name="title"
        maxlength="200"
        defaultValue=${`${frameTime(tz, before)} to ${frameTime(tz, after)}`.slice(0, 200)}
        aria-invalid=${titleError ? 'true' : undefined}
        aria-describedby=${titleError ? 'cmp-title-error' : undefined}
      />
      ${titleError ? html`<p id="cmp-title-error" class="error">${titleError}</p>` : null}
      ${error && !titleError ? html`<p class="error" role="alert">The compare could not be saved: ${error.message}</p>` : null}
      <div class="actions">
        <button type="submit" disabled=${busy}>${busy ? 'Saving…' : 'Save as compare'}</button>
      </div>
      <p class="rec-note" role="status">
        ${saved ? html`Saved “${saved.title}”: it is being made in the <a href=${`#/projects/${encodeURIComponent(project)}/media`}>media hub</a>.` : ''}
      </p>
    </form>
  `;
}
