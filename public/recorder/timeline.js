// A day's recordings on a bar, in the device's time zone: each run (a continuous recording period,
// from `GET /api/devices/{id}/recordings`) is a block. The bar shows the whole day or, zoomed in, a
// window of it down to one minute, so that a run of a few seconds is wide enough to see and hit. The
// bar is a slider: a click, or the arrow keys and Enter, asks to play that moment; + and - zoom.
import { clock, dayBounds, humanDuration, secondsOfDay } from './time.js';

const $ = (sel) => document.querySelector(sel);
const DAY = 86400;

/** The zoom levels: the window's length, and how far an arrow key (with Shift: `big`) moves, in seconds. */
const LEVELS = [
  { span: DAY, step: 60, big: 600 },
  { span: 6 * 3600, step: 60, big: 600 },
  { span: 2 * 3600, step: 30, big: 300 },
  { span: 3600, step: 10, big: 120 },
  { span: 900, step: 5, big: 60 },
  { span: 300, step: 1, big: 10 },
  { span: 60, step: 1, big: 10 },
];

export class Timeline {
  /** @param {{ api: Function, onSeek: (at: Date, asked: Date) => void }} deps */
  constructor(deps) {
    this.deps = deps;
    this.device = null;
    this.day = null;
    this.bounds = null;
    this.runs = [];
    this.bar = $('#timeline');
    this.value = 0; // the slider's position, seconds of the day
    this.marked = false; // the cursor shows where playback is (or where the keys moved it)
    this.choosing = false; // moved with the keys, not yet played
    this.level = 0;
    this.viewStart = 0; // seconds of the day at the bar's left edge
    this.bar.addEventListener('click', (e) => {
      const box = this.bar.getBoundingClientRect();
      const fraction = Math.min(1, Math.max(0, (e.clientX - box.left) / box.width));
      this.seek(this.instantOf(this.viewStart + fraction * this.span));
    });
    this.bar.addEventListener('keydown', (e) => this.key(e));
    $('#zoom-in').addEventListener('click', () => this.zoom(1));
    $('#zoom-out').addEventListener('click', () => this.zoom(-1));
    $('#pan-earlier').addEventListener('click', () => this.pan(-1));
    $('#pan-later').addEventListener('click', () => this.pan(1));
  }

  get span() {
    return LEVELS[this.level].span;
  }

  stop() {
    this.device = null;
    this.choosing = false;
  }

  async load(device, day) {
    this.device = device;
    this.day = day;
    this.bounds = dayBounds(device.timezone, day);
    this.level = 0;
    this.viewStart = 0;
    this.marked = false;
    await this.refresh();
  }

  async refresh() {
    if (!this.device) return;
    const device = this.device;
    const { start, end } = this.bounds;
    const q = new URLSearchParams({ start_date: start.toISOString(), end_date: end.toISOString() });
    const runs = await this.deps.api('GET', `/api/devices/${encodeURIComponent(device.id)}/recordings?${q}`);
    if (device !== this.device || start !== this.bounds.start) return; // another device or day meanwhile
    // Clipped to the day; a run across midnight shows on both days.
    this.runs = runs
      .map((r) => ({ start: Math.max(Date.parse(r.start_date), start.getTime()), end: Math.min(Date.parse(r.end_date), end.getTime()), active: r.active }))
      .filter((r) => r.end > r.start);
    this.render();
  }

  /** Seconds of the day (0 to 86400) of an instant, as the bar measures it. */
  secondsOf(ms) {
    return ((ms - this.bounds.start.getTime()) / (this.bounds.end - this.bounds.start)) * DAY;
  }

  /** Where `seconds` of the day falls on the bar, 0 (left edge) to 1 (right edge). */
  fractionOf(seconds) {
    return (seconds - this.viewStart) / this.span;
  }

  render() {
    if (!this.bounds) return;
    const end = this.viewStart + this.span;
    const blocks = [];
    for (const r of this.runs) {
      const [s0, s1] = [this.secondsOf(r.start), this.secondsOf(r.end)];
      if (s1 <= this.viewStart || s0 >= end) continue;
      const left = Math.max(0, this.fractionOf(s0));
      const right = Math.min(1, this.fractionOf(s1));
      const div = document.createElement('div');
      div.className = r.active ? 'range active' : 'range';
      // Set through the CSSOM, which the Content-Security-Policy allows (style attributes it would not).
      div.style.left = `${left * 100}%`;
      div.style.width = `max(2px, ${(right - left) * 100}%)`;
      div.title = `${this.clockOf(r.start)}–${this.clockOf(r.end)}`;
      blocks.push(div);
    }
    $('#ranges').replaceChildren(...blocks);
    this.renderScale();
    this.renderCursor();
    const total = this.runs.reduce((sum, r) => sum + (r.end - r.start), 0);
    const summary = this.runs.length
      ? `${this.runs.length} recorded period${this.runs.length === 1 ? '' : 's'}, ${humanDuration(total)} in all: ` +
        this.runs.map((r) => `${this.clockOf(r.start)}–${this.clockOf(r.end)}`).join(', ')
      : 'Nothing recorded on this day.';
    // Written only when it changes: the poll would otherwise redo it every few seconds.
    if ($('#ranges-summary').textContent !== summary) $('#ranges-summary').textContent = summary;
  }

  /** The times under the bar, the window's words and what the keys do at this zoom. */
  renderScale() {
    const fine = this.span <= 900;
    const label = (s) => (s >= DAY ? '24:00' : fine ? clock(s) : clock(s).slice(0, 5));
    const ticks = [0, 1, 2, 3, 4].map((i) => Object.assign(document.createElement('span'), { textContent: label(this.viewStart + (i * this.span) / 4) }));
    $('#hours').replaceChildren(...ticks);
    const whole = this.level === 0;
    const view = whole
      ? 'Showing the whole day.'
      : `Showing ${label(this.viewStart)}–${label(this.viewStart + this.span)} (${humanDuration(this.span * 1000)}).`;
    // A live region: written only when the window moves, not on every poll.
    if ($('#timeline-view').textContent !== view) $('#timeline-view').textContent = view;
    $('#zoom-in').setAttribute('aria-disabled', String(this.level === LEVELS.length - 1));
    $('#zoom-out').setAttribute('aria-disabled', String(whole));
    $('#pan-earlier').hidden = $('#pan-later').hidden = whole;
    const { step, big } = LEVELS[this.level];
    $('#timeline-hint').textContent =
      `Click the bar, or focus it and use the arrow keys (${humanDuration(step * 1000)}; with Shift ${humanDuration(big * 1000)}) ` +
      'and Enter, to play that moment. + and − zoom in and out.';
  }

  clockOf(ms) {
    return clock(secondsOfDay(this.device.timezone, new Date(ms)));
  }

  /** The instant at `seconds` of the day. */
  instantOf(seconds) {
    return new Date(this.bounds.start.getTime() + (seconds / DAY) * (this.bounds.end - this.bounds.start));
  }

  /** `HH:MM:SS` some seconds before the day's last recording ends (a sensible clip start), or null. */
  lastSeconds(seconds) {
    const last = this.runs.at(-1);
    if (!last) return null;
    return this.clockOf(Math.max(last.start, last.end - seconds * 1000));
  }

  /** Zooms in (+1) or out (-1) around the cursor, or else around the newest recording. */
  zoom(delta) {
    const level = Math.max(0, Math.min(LEVELS.length - 1, this.level + delta));
    if (level === this.level || !this.bounds) return;
    const last = this.runs.at(-1);
    const center = this.marked || !last ? this.value : this.secondsOf(last.end);
    this.level = level;
    this.viewStart = this.clampStart(center - this.span / 2);
    // The keys then move from the middle of what shows, not from wherever the slider last was.
    if (!this.marked) this.setValue(Math.round(center));
    this.render();
  }

  /** Moves the window half its length earlier (-1) or later (+1). */
  pan(direction) {
    this.viewStart = this.clampStart(this.viewStart + (direction * this.span) / 2);
    this.render();
  }

  clampStart(start) {
    return Math.max(0, Math.min(DAY - this.span, Math.round(start)));
  }

  /** Moves the window so that `seconds` of the day shows on it. */
  reveal(seconds) {
    if (seconds >= this.viewStart && seconds < this.viewStart + this.span) return false;
    this.viewStart = this.clampStart(seconds - this.span / 2);
    return true;
  }

  /** Playback moved on: the cursor follows, unless the person is choosing a moment with the keys. */
  follow(at) {
    if (!this.choosing) this.mark(at);
  }

  /** Shows where the video is (`at`), or nothing while live. */
  mark(at) {
    if (!at || !this.bounds || at < this.bounds.start || at >= this.bounds.end) {
      this.marked = false;
      $('#cursor').hidden = true;
      return;
    }
    this.marked = true;
    this.setValue(Math.round(this.secondsOf(at.getTime())));
    if (this.reveal(this.value)) this.render();
    else this.renderCursor();
  }

  renderCursor() {
    const cursor = $('#cursor');
    const fraction = this.fractionOf(this.value);
    cursor.hidden = !this.marked || fraction < 0 || fraction > 1;
    cursor.style.left = `${fraction * 100}%`;
  }

  setValue(seconds) {
    this.value = Math.max(0, Math.min(DAY - 1, seconds));
    this.bar.setAttribute('aria-valuenow', String(this.value));
    this.bar.setAttribute('aria-valuetext', clock(this.value));
  }

  /** Plays `at`, or, when nothing was recorded then, the nearest recorded moment of the day. */
  seek(at) {
    if (!this.device) return;
    this.choosing = false;
    const near = this.nearestRecorded(at);
    this.mark(near);
    this.deps.onSeek(near, at);
  }

  nearestRecorded(at) {
    const t = at.getTime();
    let best = null;
    let distance = Infinity;
    for (const r of this.runs) {
      if (t >= r.start && t < r.end) return at;
      // Before a run: its start; after it: a few seconds before its end, so there is something to play.
      const candidate = t < r.start ? r.start : Math.max(r.start, r.end - 5000);
      if (Math.abs(candidate - t) < distance) [best, distance] = [candidate, Math.abs(candidate - t)];
    }
    return best === null ? at : new Date(best);
  }

  key(e) {
    const { step, big } = LEVELS[this.level];
    const by = e.shiftKey ? big : step;
    const moves = { ArrowLeft: -by, ArrowDown: -by, ArrowRight: by, ArrowUp: by, PageDown: -3600, PageUp: 3600 };
    if (e.key === '+' || e.key === '=') {
      e.preventDefault();
      return this.zoom(1);
    }
    if (e.key === '-' || e.key === '_') {
      e.preventDefault();
      return this.zoom(-1);
    }
    if (e.key in moves) this.setValue(this.value + moves[e.key]);
    else if (e.key === 'Home') this.setValue(0);
    else if (e.key === 'End') this.setValue(DAY - 1);
    else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.seek(this.instantOf(this.value));
      return;
    } else return;
    e.preventDefault();
    // The cursor follows the keys (and the window follows the cursor); Enter plays.
    this.choosing = true;
    this.marked = true;
    if (this.reveal(this.value)) this.render();
    else this.renderCursor();
  }
}
