// A day's recordings on a 24 h bar, in the device's time zone: each run (a continuous recording
// period, from `GET /api/devices/{id}/recordings`) is a block. The bar is a slider: a click, or the
// arrow keys and Enter, asks to play that moment.
import { clock, dayBounds, humanDuration, secondsOfDay } from './time.js';

const $ = (sel) => document.querySelector(sel);

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
    this.choosing = false; // moved with the keys, not yet played
    this.bar.addEventListener('click', (e) => {
      const box = this.bar.getBoundingClientRect();
      const fraction = Math.min(1, Math.max(0, (e.clientX - box.left) / box.width));
      this.seek(this.instantOf(fraction));
    });
    this.bar.addEventListener('keydown', (e) => this.key(e));
  }

  stop() {
    this.device = null;
    this.choosing = false;
  }

  async load(device, day) {
    this.device = device;
    this.day = day;
    this.bounds = dayBounds(device.timezone, day);
    await this.refresh();
  }

  async refresh() {
    if (!this.device) return;
    const { start, end } = this.bounds;
    const q = new URLSearchParams({ start_date: start.toISOString(), end_date: end.toISOString() });
    const runs = await this.deps.api('GET', `/api/devices/${encodeURIComponent(this.device.id)}/recordings?${q}`);
    // Clipped to the day; a run across midnight shows on both days.
    this.runs = runs
      .map((r) => ({ start: Math.max(Date.parse(r.start_date), start.getTime()), end: Math.min(Date.parse(r.end_date), end.getTime()), active: r.active }))
      .filter((r) => r.end > r.start);
    this.render();
  }

  render() {
    const span = this.bounds.end - this.bounds.start;
    const blocks = this.runs.map((r) => {
      const div = document.createElement('div');
      div.className = r.active ? 'range active' : 'range';
      // Set through the CSSOM, which the Content-Security-Policy allows (style attributes it would not).
      div.style.left = `${((r.start - this.bounds.start) / span) * 100}%`;
      div.style.width = `max(2px, ${((r.end - r.start) / span) * 100}%)`;
      div.title = `${this.clockOf(r.start)}–${this.clockOf(r.end)}`;
      return div;
    });
    $('#ranges').replaceChildren(...blocks);
    const total = this.runs.reduce((sum, r) => sum + (r.end - r.start), 0);
    $('#ranges-summary').textContent = this.runs.length
      ? `${this.runs.length} recorded period${this.runs.length === 1 ? '' : 's'}, ${humanDuration(total)} in all: ` +
        this.runs.map((r) => `${this.clockOf(r.start)}–${this.clockOf(r.end)}`).join(', ')
      : 'Nothing recorded on this day.';
  }

  clockOf(ms) {
    return clock(secondsOfDay(this.device.timezone, new Date(ms)));
  }

  instantOf(fraction) {
    return new Date(this.bounds.start.getTime() + fraction * (this.bounds.end - this.bounds.start));
  }

  /** `HH:MM:SS` some seconds before the day's last recording ends (a sensible clip start), or null. */
  lastSeconds(seconds) {
    const last = this.runs.at(-1);
    if (!last) return null;
    return this.clockOf(Math.max(last.start, last.end - seconds * 1000));
  }

  /** Playback moved on: the cursor follows, unless the person is choosing a moment with the keys. */
  follow(at) {
    if (!this.choosing) this.mark(at);
  }

  /** Shows where the video is (`at`), or nothing while live. */
  mark(at) {
    const cursor = $('#cursor');
    if (!at || !this.bounds || at < this.bounds.start || at >= this.bounds.end) {
      cursor.hidden = true;
      return;
    }
    const fraction = (at - this.bounds.start) / (this.bounds.end - this.bounds.start);
    cursor.hidden = false;
    cursor.style.left = `${fraction * 100}%`;
    this.setValue(Math.round(fraction * 86400));
  }

  setValue(seconds) {
    this.value = Math.max(0, Math.min(86399, seconds));
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
    const step = e.shiftKey ? 600 : 60;
    const moves = { ArrowLeft: -step, ArrowDown: -step, ArrowRight: step, ArrowUp: step, PageDown: -3600, PageUp: 3600 };
    if (e.key in moves) this.setValue(this.value + moves[e.key]);
    else if (e.key === 'Home') this.setValue(0);
    else if (e.key === 'End') this.setValue(86399);
    else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.seek(this.instantOf(this.value / 86400));
      return;
    } else return;
    e.preventDefault();
    // The cursor follows the keys; Enter plays.
    this.choosing = true;
    const cursor = $('#cursor');
    cursor.hidden = false;
    cursor.style.left = `${(this.value / 86400) * 100}%`;
  }
}
