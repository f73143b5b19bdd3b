// The recordings screen's day timeline: a track of the picked local day (or a zoomed part of it) that
// shows what was recorded and where the gaps are, with the shown frame marked. Drawn as SVG (its
// x/width attributes are not styles, which the page's CSP refuses). The track is a slider for the
// keyboard: the arrows step a frame, Page Up/Down a tenth of the view, Home/End the day's ends, space
// plays or pauses and +/- zoom.
import { html } from './html.js';
import { pad2 } from './recordings-time.js';

/** Widths of view, widest first: the whole day down to two minutes. */
export const ZOOMS = [
  { ms: 24 * 3_600_000, label: '24 hours' },
  { ms: 6 * 3_600_000, label: '6 hours' },
  { ms: 2 * 3_600_000, label: '2 hours' },
  { ms: 3_600_000, label: '1 hour' },
  { ms: 20 * 60_000, label: '20 minutes' },
  { ms: 5 * 60_000, label: '5 minutes' },
  { ms: 2 * 60_000, label: '2 minutes' },
];
export const SPEEDS = [1, 2, 5, 10, 30, 60];

const W = 1000;

/** The view [from, to) of zoom `z` around `at`, kept inside the day [dayFrom, dayTo). */
export function viewAround(z, at, dayFrom, dayTo) {
  const span = Math.min(ZOOMS[z].ms, dayTo - dayFrom);
  const from = Math.min(Math.max(dayFrom, at - span / 2), dayTo - span);
  return { from, to: from + span };
}

/**
 * Runs of frames with no gap longer than `gapMs` between neighbours, as [from, to] ms pairs. A run
 * of one frame still gets a sliver, so a lone frame is visible.
 */
export function runs(frames, gapMs) {
  const out = [];
  for (const f of frames) {
    const t = Date.parse(f.created_at);
    const last = out[out.length - 1];
    if (last && t - last[1] <= gapMs) last[1] = t;
    else out.push([t, t]);
  }
  return out;
}

/** Gap that breaks a run: three times the usual spacing of the frames, at least a minute. */
export function gapOf(frames) {
  const steps = [];
  for (let i = 1; i < frames.length; i++) steps.push(Date.parse(frames[i].created_at) - Date.parse(frames[i - 1].created_at));
  steps.sort((a, b) => a - b);
  return Math.max(60_000, 3 * (steps[Math.floor(steps.length / 2)] ?? 0));
}

const clockLabel = (tz, ms, seconds) =>
  new Intl.DateTimeFormat(undefined, { timeZone: tz, hour: '2-digit', minute: '2-digit', ...(seconds ? { second: '2-digit' } : {}), hourCycle: 'h23' }).format(
    ms,
  );

/**
 * The track. `covered` are [from, to] ms pairs of recorded time (whole recorded hours, or runs of
 * frames where the frames are loaded); `at` the shown frame's time; `keys` the key handler.
 */
export function Track({ tz, view, covered, at, valueText, dayFrom, dayTo, onKeyDown, onPick, busy }) {
  const span = view.to - view.from;
  const x = (ms) => ((ms - view.from) / span) * W;
  const minWidth = W / 400;
  const rects = covered
    .filter(([a, b]) => b >= view.from && a < view.to)
    .map(([a, b]) => {
      const left = Math.max(0, x(a));
      const right = Math.min(W, Math.max(x(b), x(a) + minWidth));
      return html`<rect class="rec-covered" x=${left.toFixed(2)} y="4" width=${Math.max(minWidth, right - left).toFixed(2)} height="32" />`;
    });
  const cursor = at !== null && at >= view.from && at <= view.to ? x(at) : null;
  const clicked = (e) => {
    const box = e.currentTarget.getBoundingClientRect();
    onPick(view.from + Math.min(1, Math.max(0, (e.clientX - box.left) / box.width)) * span);
  };
  const seconds = span <= 10 * 60_000;
  const marks = [0, 0.25, 0.5, 0.75, 1].map((f) => clockLabel(tz, Math.min(view.from + f * span, view.to - 1), seconds));
  return html`
    <div
      id="rec-timeline"
      class="rec-timeline"
      role="slider"
      tabindex="0"
      aria-label="Timeline of the day"
      aria-describedby="rec-timeline-keys"
      aria-valuemin="0"
      aria-valuemax=${Math.round((dayTo - dayFrom) / 1000)}
      aria-valuenow=${at === null ? 0 : Math.round((at - dayFrom) / 1000)}
      aria-valuetext=${valueText}
      aria-busy=${busy ? 'true' : 'false'}
      onKeyDown=${onKeyDown}
      onClick=${clicked}
    >
      <svg class="rec-track" viewBox="0 0 1000 40" preserveAspectRatio="none" aria-hidden="true" focusable="false">
        <rect class="rec-gap" x="0" y="4" width="1000" height="32" />
        ${rects}
        ${cursor === null ? null : html`<rect class="rec-cursor" x=${(cursor - 2).toFixed(2)} y="0" width="4" height="40" />`}
      </svg>
      <div class="rec-track-marks muted" aria-hidden="true">${marks.map((m) => html`<span>${m}</span>`)}</div>
    </div>
  `;
}

/** "14:05:00 – 14:10:00": what a view covers, for the zoom's status text. */
export const viewLabel = (tz, view) => {
  const seconds = view.to - view.from <= 10 * 60_000;
  return `${clockLabel(tz, view.from, seconds)} to ${clockLabel(tz, view.to - 1, seconds)}`;
};

export const hourLabel = (h) => `${pad2(h)}:00`;
