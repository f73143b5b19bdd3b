// A camera's recordings: a month calendar of the days holding frames, the recorded hours of a picked
// day, and the day as a timeline (gaps visible, zoom from the whole day to two minutes) over the shown
// frame, which steps frame by frame or plays the stored frames at 1x to 60x. Beside it the day's
// activity strip (its quarter hours jump to their busiest frame), the site's weather when the project
// has it, and a compare of two picked moments. All days, hours and times are the camera's local ones,
// as the API counts them (docs/cameras.md).
import { useEffect, useRef, useState } from 'preact/hooks';
import { get } from '../lib/api.js';
import { html } from '../lib/html.js';
import { useApi } from '../lib/hooks.js';
import { edgeFrame, framesBetween, snapshotsPath, useFrameImage } from '../lib/recordings-frames.js';
import { frameTime, hourRange, inLocalHour, localParts, longDate, monthName, monthWeeks, pad2, shiftMonth, usableZone } from '../lib/recordings-time.js';
import { SPEEDS, Track, ZOOMS, gapOf, hourLabel, runs, viewAround, viewLabel } from '../lib/recordings-timeline.js';
import { cameraTabs } from '../lib/tabs.js';
import { ActivityStrip } from './activity-strip.js';
import { ComparePanel } from './recordings-compare.js';
import { WeatherStrip } from './recordings-weather.js';
import { ErrorNote, Loaded, Loading, Screen } from '../lib/ui.js';

const WEEKDAYS = [
  ['Mon', 'Monday'],
  ['Tue', 'Tuesday'],
  ['Wed', 'Wednesday'],
  ['Thu', 'Thursday'],
  ['Fri', 'Friday'],
  ['Sat', 'Saturday'],
  ['Sun', 'Sunday'],
];
/** Playback advances every TICK_MS; a gap in the frames is waited out for at most MAX_WAIT_MS. */
const TICK_MS = 100;
const MAX_WAIT_MS = 1000;

/** Like useApi, but an answer counts only for what was asked (no stale days, hours or frames in between). */
function useLoad(load, deps) {
  const key = JSON.stringify(deps);
  const [state, setState] = useState({ key: null, data: undefined, error: undefined });
  useEffect(() => {
    if (!load) return undefined;
    const controller = new AbortController();
    load(controller.signal).then(
      (data) => controller.signal.aborted || setState({ key, data, error: undefined }),
      (error) => controller.signal.aborted || setState({ key, data: undefined, error }),
    );
    return () => controller.abort();
  }, [key]);
  return state.key === key ? state : { data: undefined, error: undefined };
}

export function Recordings({ camera }) {
  const cam = useApi(`/v2/cameras/${encodeURIComponent(camera)}`);
  const name = cam.data?.name ?? 'Camera';
  return html`
    <${Screen} title=${`${name}: recordings`} heading=${name} tabs=${cameraTabs(camera, 'recordings')}>
      <${Loaded} result=${cam}>
        ${(c) => html`<${DayView} camera=${camera} project=${c.project_exid} tz=${usableZone(c.timezone)} zoneName=${c.timezone} />`}
      <//>
    <//>
  `;
}

/** The index of the frame nearest `ms` (the later on a tie). */
function nearestIndex(list, ms) {
  let best = 0;
  for (let i = 1; i < list.length; i++) if (Math.abs(Date.parse(list[i].created_at) - ms) <= Math.abs(Date.parse(list[best].created_at) - ms)) best = i;
  return best;
}

function DayView({ camera, project, tz, zoneName }) {
  // What is shown: a month of the calendar, a picked day and hour, and which frame of that hour.
  const [month, setMonth] = useState(null);
  const [day, setDay] = useState(null); // { year, month, day }
  const [hour, setHour] = useState(null);
  const [target, setTarget] = useState('first'); // 'first' | 'last' | an ISO time
  const [index, setIndex] = useState(0);
  const [jumpError, setJumpError] = useState(null);
  // Bumped by every jump, so jumping within the hour on screen reads its frames again (new ones may exist).
  const [jumps, setJumps] = useState(0);
  // An hour picked by hand: its frames are what the person wants next, so the timeline takes focus.
  const [focusViewer, setFocusViewer] = useState(false);
  const [zoom, setZoom] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(10);
  const [note, setNote] = useState('');
  const [moments, setMoments] = useState({ before: null, after: null });

  const latest = useLoad((signal) => edgeFrame(camera, 'desc', signal), [camera]);

  const goTo = (iso, which) => {
    const p = localParts(tz, Date.parse(iso));
    setMonth({ year: p.year, month: p.month });
    setDay({ year: p.year, month: p.month, day: p.day });
    setHour(p.hour);
    setTarget(which ?? iso);
    setJumps((n) => n + 1);
  };
  // Opens on the newest frame, so the first thing seen is the latest picture.
  useEffect(() => {
    if (latest.data) goTo(latest.data, 'last');
  }, [latest.data]);

  const jump = async (order) => {
    setJumpError(null);
    try {
      const iso = await edgeFrame(camera, order);
      if (iso) goTo(iso, order === 'desc' ? 'last' : 'first');
    } catch (e) {
      setJumpError(e);
    }
  };

  const days = useLoad(month && ((signal) => get(`${snapshotsPath(camera)}/${month.year}/${month.month}/days`, { signal }).then((r) => r.days)), [
    camera,
    month?.year,
    month?.month,
  ]);
  const hours = useLoad(day && ((signal) => get(`${snapshotsPath(camera)}/${day.year}/${day.month}/${day.day}/hours`, { signal }).then((r) => r.hours)), [
    camera,
    day?.year,
    day?.month,
    day?.day,
  ]);
  const frames = useLoad(
    day &&
      hour !== null &&
      (async (signal) => {
        const { from, to } = hourRange(tz, day.year, day.month, day.day, hour);
        const all = await framesBetween(camera, from, to, signal);
        return all.filter((f) => inLocalHour(tz, f.created_at, day.year, day.month, day.day, hour));
      }),
    [camera, day?.year, day?.month, day?.day, hour, jumps],
  );

  // A new hour's frames: start at the frame asked for (the first, the last, or the nearest to a time).
  // Until then the index may still be the last hour's, which playback must not act on.
  const placed = useRef(null);
  useEffect(() => {
    const list = frames.data;
    if (!list?.length) return;
    if (target === 'last') setIndex(list.length - 1);
    else if (target === 'first') setIndex(0);
    else setIndex(nearestIndex(list, Date.parse(target)));
    placed.current = list;
  }, [frames.data]);

  const list = frames.data ?? [];
  const safeIndex = Math.min(index, Math.max(0, list.length - 1));
  const recordedHours = hours.data ?? [];

  /** Into a neighbouring recorded hour of the day (its first or last frame); false when there is none. */
  const otherHour = (by) => {
    const next = by > 0 ? recordedHours.find((h) => h > hour) : [...recordedHours].reverse().find((h) => h < hour);
    if (next === undefined) return false;
    setTarget(by > 0 ? 'first' : 'last');
    setHour(next);
    return true;
  };
  const step = (by) => {
    if (!list.length) return;
    const to = safeIndex + by;
    if (to >= 0 && to < list.length) setIndex(to);
    else if (!otherHour(by)) setNote(by > 0 ? 'That is the day’s last frame.' : 'That is the day’s first frame.');
  };
  /** To the frame nearest `ms` of the day, through the nearest recorded hour when its own has none. */
  const seek = (ms) => {
    if (!day || !recordedHours.length) return;
    const p = localParts(tz, ms);
    const sameDay = p.year === day.year && p.month === day.month && p.day === day.day;
    const want = sameDay ? p.hour : ms < dayFrom ? 0 : 23;
    if (want === hour && list.length) {
      setIndex(nearestIndex(list, ms));
      return;
    }
    let best = recordedHours[0];
    for (const h of recordedHours) if (Math.abs(h - want) < Math.abs(best - want) || (Math.abs(h - want) === Math.abs(best - want) && h > best)) best = h;
    setTarget(best === want ? new Date(ms).toISOString() : best < want ? 'last' : 'first');
    setHour(best);
  };

  // Playback: a play head runs through recorded time at `speed`, showing the last frame it has passed;
  // a gap longer than a second of waiting is skipped, and at an hour's end the next recorded hour follows.
  const live = useRef({});
  live.current = { list, index: safeIndex, speed, hour, otherHour, frames: frames.data };
  useEffect(() => {
    if (!playing) return undefined;
    const head = { at: null, index: -1, hour: null };
    const timer = setInterval(() => {
      const s = live.current;
      if (!s.list.length || placed.current !== s.frames) return; // the next hour's frames are on their way
      const shown = Date.parse(s.list[s.index].created_at);
      if (head.index !== s.index || head.hour !== s.hour || head.at === null) head.at = shown;
      head.at += TICK_MS * s.speed;
      let i = s.index;
      while (i + 1 < s.list.length && Date.parse(s.list[i + 1].created_at) <= head.at) i++;
      if (i + 1 < s.list.length) {
        const next = Date.parse(s.list[i + 1].created_at);
        if (next - head.at > MAX_WAIT_MS * s.speed) {
          i++;
          head.at = next;
        }
      } else if (head.at - Date.parse(s.list[i].created_at) > MAX_WAIT_MS * s.speed) {
        head.at = null;
        if (!s.otherHour(1)) {
          setPlaying(false);
          setNote('Playback stopped at the day’s last frame.');
        }
        return;
      }
      head.index = i;
      head.hour = s.hour;
      if (i !== s.index) setIndex(i);
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [playing]);

  if (latest.error) return html`<${ErrorNote} error=${latest.error} />`;
  if (latest.data === undefined) return html`<${Loading} what="Looking for recordings" />`;
  if (latest.data === null)
    return html`<div class="card rec-empty">
      <h2>No recordings yet</h2>
      <p>This camera has no stored frames. They appear here once its cloud recordings are switched on, or when someone takes a snapshot.</p>
    </div>`;

  const dayFrom = day ? Date.parse(hourRange(tz, day.year, day.month, day.day, 0).from) : 0;
  const dayTo = day ? Date.parse(hourRange(tz, day.year, day.month, day.day, 23).to) + 1 : 0;
  const frame = list[safeIndex];
  const at = frame ? Date.parse(frame.created_at) : null;
  const view = viewAround(zoom, at ?? dayFrom, dayFrom, dayTo);
  // Recorded time: the loaded hour frame by frame (its gaps show), the other recorded hours whole.
  const covered = [
    ...recordedHours
      .filter((h) => !(h === hour && frames.data))
      .map((h) => {
        const r = hourRange(tz, day.year, day.month, day.day, h);
        return [Date.parse(r.from), Date.parse(r.to)];
      }),
    ...runs(list, gapOf(list)),
  ];
  const controls = {
    view,
    zoom,
    playing,
    speed,
    setSpeed,
    togglePlay: () => {
      setNote('');
      setPlaying((p) => !p);
    },
    zoomBy: (by) => setZoom((z) => Math.min(ZOOMS.length - 1, Math.max(0, z + by))),
    step: (by) => {
      setNote('');
      step(by);
    },
    keys: (e) => {
      const span = view.to - view.from;
      const k = e.key;
      if (k !== ' ' && k !== 'k') setNote('');
      if (k === 'ArrowRight' || k === 'ArrowUp') controls.step(1);
      else if (k === 'ArrowLeft' || k === 'ArrowDown') controls.step(-1);
      else if (k === 'PageUp') seek((at ?? dayFrom) + span / 10);
      else if (k === 'PageDown') seek((at ?? dayFrom) - span / 10);
      else if (k === 'Home' && recordedHours.length) {
        setTarget('first');
        setHour(recordedHours[0]);
        if (hour === recordedHours[0]) setIndex(0);
      } else if (k === 'End' && recordedHours.length) {
        setTarget('last');
        setHour(recordedHours[recordedHours.length - 1]);
        if (hour === recordedHours[recordedHours.length - 1]) setIndex(list.length - 1);
      } else if (k === ' ' || k === 'k') controls.togglePlay();
      else if (k === '+' || k === '=') controls.zoomBy(1);
      else if (k === '-' || k === '_') controls.zoomBy(-1);
      else return;
      e.preventDefault();
    },
    pick: (ms) => seek(ms),
    dayFrom,
    dayTo,
    covered,
    note,
  };
  return html`
    <p class="muted rec-zone">Times are the camera’s local time (${zoneName}).</p>
    <div class="actions rec-jumps">
      <button type="button" class="secondary" onClick=${() => jump('asc')}>Oldest frame</button>
      <button type="button" class="secondary" onClick=${() => jump('desc')}>Latest frame</button>
    </div>
    <${ErrorNote} error=${jumpError} />
    <${ActivityStrip} camera=${camera} tz=${tz} day=${day} jump=${(iso) => goTo(iso)} />
    <div class="rec-layout">
      <div class="rec-main">
        <${Viewer}
          camera=${camera}
          tz=${tz}
          day=${day}
          hour=${hour}
          frames=${frames}
          index=${safeIndex}
          controls=${controls}
          focusViewer=${focusViewer}
          focused=${() => setFocusViewer(false)}
          mark=${(which) => frame && setMoments((m) => ({ ...m, [which]: frame.created_at }))}
          moments=${moments}
        />
        <${ComparePanel}
          camera=${camera}
          project=${project}
          tz=${tz}
          moments=${moments}
          clear=${() => setMoments({ before: null, after: null })}
        />
      </div>
      <div class="rec-pickers">
        <${WeatherStrip} project=${project} day=${day} at=${at} />
        <${Calendar}
          month=${month}
          setMonth=${setMonth}
          days=${days}
          selected=${day}
          pick=${(d) => {
            setPlaying(false);
            setDay({ year: month.year, month: month.month, day: d });
            setHour(null);
          }}
        />
        <${Hours}
          day=${day}
          hours=${hours}
          selected=${hour}
          pick=${(h) => {
            setTarget('first');
            setHour(h);
            setFocusViewer(true);
          }}
        />
      </div>
    </div>
  `;
}

function Calendar({ month, setMonth, days, selected, pick }) {
  if (!month) return null;
  const have = new Set(days.data ?? []);
  const title = monthName(month.year, month.month);
  const isSelected = (d) => selected && selected.year === month.year && selected.month === month.month && selected.day === d;
  return html`
    <section class="card rec-calendar" aria-labelledby="rec-month">
      <div class="rec-month-head">
        <button type="button" class="secondary rec-step" aria-label="Previous month" onClick=${() => setMonth(shiftMonth(month, -1))}>‹</button>
        <h2 id="rec-month" aria-live="polite">${title}</h2>
        <button type="button" class="secondary rec-step" aria-label="Next month" onClick=${() => setMonth(shiftMonth(month, 1))}>›</button>
      </div>
      <${ErrorNote} error=${days.error} />
      <table class="rec-days" aria-describedby="rec-days-note">
        <thead>
          <tr>
            ${WEEKDAYS.map(([short, long]) => html`<th scope="col" abbr=${long}>${short}</th>`)}
          </tr>
        </thead>
        <tbody>
          ${monthWeeks(month.year, month.month).map(
            (week) => html`<tr>
              ${week.map((d) =>
                d === null
                  ? html`<td></td>`
                  : have.has(d)
                    ? html`<td>
                        <button
                          type="button"
                          class="rec-day"
                          aria-pressed=${isSelected(d) ? 'true' : 'false'}
                          aria-label=${`${longDate(month.year, month.month, d)}, recorded`}
                          onClick=${() => pick(d)}
                        >
                          ${d}
                        </button>
                      </td>`
                    : html`<td><span class="rec-day rec-none">${d}</span></td>`,
              )}
            </tr>`,
          )}
        </tbody>
      </table>
      <p id="rec-days-note" class="muted rec-note">
        ${days.data === undefined && !days.error ? 'Looking for recorded days…' : have.size ? 'Days with recordings are buttons.' : `No recordings in ${title}.`}
      </p>
    </section>
  `;
}

function Hours({ day, hours, selected, pick }) {
  if (!day) return null;
  return html`
    <section class="card rec-hours" aria-labelledby="rec-hours-h">
      <h2 id="rec-hours-h">${longDate(day.year, day.month, day.day)}</h2>
      ${
        hours.error
          ? html`<${ErrorNote} error=${hours.error} />`
          : hours.data === undefined
            ? html`<${Loading} what="Looking for recorded hours" />`
            : hours.data.length === 0
              ? html`<p>No recordings on this day.</p>`
              : html`<ul class="rec-hour-list" aria-label="Recorded hours">
                ${hours.data.map(
                  (h) => html`<li>
                    <button
                      type="button"
                      class="rec-hour"
                      aria-pressed=${selected === h ? 'true' : 'false'}
                      aria-label=${`${pad2(h)}:00 to ${pad2((h + 1) % 24)}:00`}
                      onClick=${() => pick(h)}
                    >
                      ${pad2(h)}:00
                    </button>
                  </li>`,
                )}
              </ul>`
      }
    </section>
  `;
}

function Viewer({ camera, tz, day, hour, frames, index, controls, focusViewer, focused, mark, moments }) {
  const list = frames.data ?? [];
  const section = useRef(null);
  // On a phone the viewer is above the hours: bring it into view with the timeline focused.
  useEffect(() => {
    if (!focusViewer || !frames.data) return;
    section.current?.scrollIntoView({ block: 'start' });
    section.current?.querySelector('#rec-timeline')?.focus({ preventScroll: true });
    focused();
  }, [focusViewer, frames.data]);
  const frame = list[index];
  const image = useFrameImage(camera, list, index);
  const label = frame ? frameTime(tz, frame.created_at) : '';

  let body;
  if (!day) body = html`<p class="rec-placeholder">Pick a day, then an hour, to see its frames.</p>`;
  else if (hour === null)
    body = html`<p class="rec-placeholder">Pick an hour of ${longDate(day.year, day.month, day.day)}, or a point on the timeline, to see its frames.</p>`;
  else if (frames.error) body = html`<${ErrorNote} error=${frames.error} />`;
  else if (frames.data === undefined) body = html`<${Loading} what="Loading the hour’s frames" />`;
  else if (list.length === 0) body = html`<p class="rec-placeholder">No frames in this hour.</p>`;
  else {
    const ready = image.at === frame.created_at && image.src;
    body = html`
      <figure class="rec-figure" aria-busy=${ready ? 'false' : 'true'}>
        <div class="rec-frame">
          ${
            image.src
              ? html`<img class=${ready ? 'rec-image' : 'rec-image rec-stale'} src=${image.src} alt=${`Frame taken ${frameTime(tz, image.at)}`} />`
              : html`<div class="rec-image-wait">${image.error ? '' : 'Loading frame…'}</div>`
          }
        </div>
        <figcaption class="rec-time">${label}</figcaption>
      </figure>
      ${image.error && image.at === frame.created_at ? html`<${ErrorNote} error=${image.error} />` : null}
      <p class="muted rec-count">Frame ${index + 1} of ${list.length} in ${hourLabel(hour)}–${hourLabel((hour + 1) % 24)}</p>
      <div class="actions rec-mark">
        <button type="button" class="secondary" aria-pressed=${moments.before === frame.created_at ? 'true' : 'false'} onClick=${() => mark('before')}>
          Compare: use as before
        </button>
        <button type="button" class="secondary" aria-pressed=${moments.after === frame.created_at ? 'true' : 'false'} onClick=${() => mark('after')}>
          Compare: use as after
        </button>
      </div>
    `;
  }
  const { view, zoom } = controls;
  return html`<section class="card rec-viewer" aria-label="Frame viewer" ref=${section}>
    ${body}
    ${
      day
        ? html`<div class="rec-scrub">
            <${Track}
              tz=${tz}
              view=${view}
              covered=${controls.covered}
              at=${frame ? Date.parse(frame.created_at) : null}
              valueText=${label || 'No frame shown'}
              dayFrom=${controls.dayFrom}
              dayTo=${controls.dayTo}
              onKeyDown=${controls.keys}
              onPick=${controls.pick}
              busy=${frames.data === undefined && hour !== null}
            />
            <p class="muted rec-note rec-view" aria-live="polite">Showing ${ZOOMS[zoom].label}: ${viewLabel(tz, view)}. Shaded: recorded; blank: no recordings.</p>
            <div class="rec-steps">
              <button type="button" class="secondary" onClick=${() => controls.step(-1)} disabled=${!frame}>Previous frame</button>
              <button type="button" aria-pressed=${controls.playing ? 'true' : 'false'} onClick=${controls.togglePlay} disabled=${!frame}>
                ${controls.playing ? 'Pause' : 'Play'}
              </button>
              <button type="button" class="secondary" onClick=${() => controls.step(1)} disabled=${!frame}>Next frame</button>
            </div>
            <div class="rec-steps">
              <label class="rec-speed">
                Speed
                <select value=${String(controls.speed)} onChange=${(e) => controls.setSpeed(Number(e.currentTarget.value))}>
                  ${SPEEDS.map((s) => html`<option value=${String(s)}>${s}×</option>`)}
                </select>
              </label>
              <button type="button" class="secondary" onClick=${() => controls.zoomBy(-1)} disabled=${zoom === 0}>Zoom out</button>
              <button type="button" class="secondary" onClick=${() => controls.zoomBy(1)} disabled=${zoom === ZOOMS.length - 1}>Zoom in</button>
            </div>
            <p id="rec-play-status" class="rec-note" role="status">${controls.playing ? `Playing at ${controls.speed}×` : controls.note}</p>
            <p id="rec-timeline-keys" class="muted rec-note">
              On the timeline: arrow keys step a frame, Page Up and Page Down move a tenth of the view, Home and End go to the day’s first and last frame,
              space plays or pauses, + and − zoom. A click on the timeline goes to that time.
            </p>
          </div>`
        : null
    }
  </section>`;
}
