// Pan, tilt and zoom of a camera (docs/cameras.md, PTZ): a direction pad that moves the camera by a
// step (a relative move, so a lost request never leaves it turning), zoom, home, where it points now,
// and its presets. Moving needs the editor role; viewers see where it points and its presets.
import { useState } from 'preact/hooks';
import { api } from './api.js';
import { html } from './html.js';
import { useApi } from './hooks.js';
import { PtzPresets } from './ptz-presets.js';
import { ErrorNote } from './ui.js';

/** Step sizes, as fractions of the camera's ranges (pan and tilt −1…1, zoom 0…1). */
const STEPS = [
  ['0.05', 'Small'],
  ['0.1', 'Medium'],
  ['0.25', 'Large'],
];

const MOVES = {
  up: { label: 'Tilt up', glyph: '▲', done: 'Tilted up', by: (s) => ({ tilt: s }) },
  down: { label: 'Tilt down', glyph: '▼', done: 'Tilted down', by: (s) => ({ tilt: -s }) },
  left: { label: 'Pan left', glyph: '◀', done: 'Panned left', by: (s) => ({ pan: -s }) },
  right: { label: 'Pan right', glyph: '▶', done: 'Panned right', by: (s) => ({ pan: s }) },
  in: { label: 'Zoom in', glyph: '+', done: 'Zoomed in', by: (s) => ({ zoom: s }) },
  out: { label: 'Zoom out', glyph: '−', done: 'Zoomed out', by: (s) => ({ zoom: -s }) },
};

/** Keys that move the camera while a pad button has focus. */
const KEYS = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right', '+': 'in', '=': 'in', '-': 'out' };

const fixed = (v) => (Math.abs(v) < 0.005 ? '0.00' : v.toFixed(2));
const where = (s) => `Pan ${fixed(s.pan)}, tilt ${fixed(s.tilt)}, zoom ${fixed(s.zoom)}.`;

/** `canControl`: true (editor or above), false (viewer), undefined (the role is not known yet). */
export function PtzPanel({ camera, canControl }) {
  return html`
    <section class="ptz card" aria-labelledby="ptz-heading">
      <h2 id="ptz-heading">Pan, tilt and zoom</h2>
      ${
        camera.ptz
          ? html`<${PtzControls} camera=${camera.exid} canControl=${canControl} />`
          : html`<p class="muted ptz-unavailable">PTZ is not available for this camera: it cannot be turned or zoomed from here.</p>`
      }
    </section>
  `;
}

function PtzControls({ camera, canControl }) {
  const base = `/v2/cameras/${encodeURIComponent(camera)}/ptz`;
  const initial = useApi(`${base}/status`);
  const [status, setStatus] = useState(null);
  const [said, setSaid] = useState('');
  const [error, setError] = useState(null);
  const [step, setStep] = useState('0.1');
  const shown = status ?? initial.data;

  /** Sends a move; the platform answers where the camera points afterwards. */
  const run = async (done, method, path, body) => {
    setError(null);
    try {
      const s = await api(method, `${base}${path}`, body);
      setStatus(s);
      setSaid(`${done}. ${where(s)}`);
      return true;
    } catch (e) {
      setError(e);
      return false;
    }
  };
  const move = (dir) => run(MOVES[dir].done, 'POST', '/relative', MOVES[dir].by(Number(step)));
  const onKeyDown = (e) => {
    const dir = KEYS[e.key];
    if (!dir || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    move(dir);
  };
  const button = (dir) =>
    html`<button type="button" class=${`ptz-${dir}`} aria-label=${MOVES[dir].label} title=${MOVES[dir].label} onClick=${() => move(dir)}>
      <span aria-hidden="true">${MOVES[dir].glyph}</span>
    </button>`;

  if (initial.error && !status) {
    return html`<${ErrorNote} error=${initial.error} />`;
  }
  return html`
    <p class="ptz-status" role="status">${said || (shown ? `Now: ${where(shown)}` : 'Reading where the camera points…')}</p>
    <${ErrorNote} error=${error} />
    ${
      canControl === true
        ? html`
          <div class="ptz-controls">
            <div class="ptz-pad" role="group" aria-label="Direction" onKeyDown=${onKeyDown}>
              ${button('up')} ${button('left')}
              <button type="button" class="ptz-home secondary" onClick=${() => run('Went to the home position', 'POST', '/home')}>Home</button>
              ${button('right')} ${button('down')}
            </div>
            <div class="ptz-side">
              <div class="ptz-zoom" role="group" aria-label="Zoom" onKeyDown=${onKeyDown}>${button('out')} ${button('in')}</div>
              <div class="ptz-step">
                <label for="ptz-step">Step</label>
                <select id="ptz-step" value=${step} onChange=${(e) => setStep(e.currentTarget.value)}>
                  ${STEPS.map(([v, l]) => html`<option value=${v}>${l}</option>`)}
                </select>
              </div>
            </div>
          </div>
          <p class="muted ptz-hint">With a pad button focused, the arrow keys also move the camera, and + and − zoom.</p>
        `
        : canControl === false
          ? html`<p class="muted">Moving the camera and changing its presets need the editor role on this project.</p>`
          : null
    }
    <${PtzPresets} base=${base} canControl=${canControl === true} run=${run} />
  `;
}
