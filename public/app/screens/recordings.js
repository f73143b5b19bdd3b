// A camera's recordings: a month calendar of the days holding frames, the hours of a picked day, and a
// scrubber over the frames of a picked hour that shows each frame (arrow keys step one frame), and the
// picked day's activity strip, whose quarter hours jump to their busiest frame. All
// days, hours and times are the camera's local ones, as the API counts them (docs/cameras.md).
import { useEffect, useRef, useState } from 'preact/hooks';
import { get } from '../lib/api.js';
import { html } from '../lib/html.js';
import { useApi } from '../lib/hooks.js';
import { edgeFrame, framesBetween, snapshotsPath, useFrameImage } from '../lib/recordings-frames.js';
import { frameTime, hourRange, inLocalHour, localParts, longDate, monthName, monthWeeks, pad2, shiftMonth, usableZone } from '../lib/recordings-time.js';
import { cameraTabs } from '../lib/tabs.js';
import { ActivityStrip } from './activity-strip.js';
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
      <${Loaded} result=${cam}>${(c) => html`<${Timeline} camera=${camera} tz=${usableZone(c.timezone)} zoneName=${c.timezone} />`}<//>
    <//>
  `;
}

function Timeline({ camera, tz, zoneName }) {
  // What is shown: a month of the calendar, a picked day and hour, and which frame of that hour.
  const [month, setMonth] = useState(null);
  const [day, setDay] = useState(null); // { year, month, day }
  const [hour, setHour] = useState(null);
  const [target, setTarget] = useState('first'); // 'first' | 'last' | an ISO time
  const [index, setIndex] = useState(0);
  const [jumpError, setJumpError] = useState(null);
  // Bumped by every jump, so jumping within the hour on screen reads its frames again (new ones may exist).
  const [jumps, setJumps] = useState(0);
  // An hour picked by hand: its frames are what the person wants next, so the slider takes focus.
  const [focusViewer, setFocusViewer] = useState(false);

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

  // A new hour's frames: start at the frame asked for (the first, the last, or a given time).
  useEffect(() => {
    const list = frames.data;
    if (!list?.length) return;
    if (target === 'last') setIndex(list.length - 1);
    else if (target === 'first') setIndex(0);
    else
      setIndex(
        Math.max(
          0,
          list.findIndex((f) => f.created_at >= target),
        ),
      );
  }, [frames.data]);

  if (latest.error) return html`<${ErrorNote} error=${latest.error} />`;
  if (latest.data === undefined) return html`<${Loading} what="Looking for recordings" />`;
  if (latest.data === null)
    return html`<div class="card rec-empty">
      <h2>No recordings yet</h2>
      <p>This camera has no stored frames. They appear here once its cloud recordings are switched on, or when someone takes a snapshot.</p>
    </div>`;

  const list = frames.data ?? [];
  const safeIndex = Math.min(index, Math.max(0, list.length - 1));
  return html`
    <p class="muted rec-zone">Times are the camera’s local time (${zoneName}).</p>
    <div class="actions rec-jumps">
      <button type="button" class="secondary" onClick=${() => jump('asc')}>Oldest frame</button>
      <button type="button" class="secondary" onClick=${() => jump('desc')}>Latest frame</button>
    </div>
    <${ErrorNote} error=${jumpError} />
    <${ActivityStrip} camera=${camera} tz=${tz} day=${day} jump=${(iso) => goTo(iso)} />
    <div class="rec-layout">
      <${Viewer}
        camera=${camera}
        tz=${tz}
        day=${day}
        hour=${hour}
        frames=${frames}
        index=${safeIndex}
        setIndex=${setIndex}
        focusViewer=${focusViewer}
        focused=${() => setFocusViewer(false)}
      />
      <div class="rec-pickers">
        <${Calendar}
          month=${month}
          setMonth=${setMonth}
          days=${days}
          selected=${day}
          pick=${(d) => {
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

function Viewer({ camera, tz, day, hour, frames, index, setIndex, focusViewer, focused }) {
  const list = frames.data ?? [];
  const section = useRef(null);
  // On a phone the viewer is above the hours: bring it into view with the slider focused.
  useEffect(() => {
    if (!focusViewer || !frames.data) return;
    section.current?.scrollIntoView({ block: 'start' });
    section.current?.querySelector('input[type="range"]')?.focus({ preventScroll: true });
    focused();
  }, [focusViewer, frames.data]);
  const frame = list[index];
  const image = useFrameImage(camera, list, index);
  const label = frame ? frameTime(tz, frame.created_at) : '';
  const step = (by) => setIndex(Math.min(list.length - 1, Math.max(0, index + by)));

  let body;
  if (!day) body = html`<p class="rec-placeholder">Pick a day, then an hour, to see its frames.</p>`;
  else if (hour === null) body = html`<p class="rec-placeholder">Pick an hour of ${longDate(day.year, day.month, day.day)} to see its frames.</p>`;
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
      <div class="rec-scrub">
        <label for="rec-scrubber">Frame ${index + 1} of ${list.length}</label>
        <input
          id="rec-scrubber"
          type="range"
          min="0"
          max=${list.length - 1}
          step="1"
          value=${index}
          aria-valuetext=${label}
          onInput=${(e) => setIndex(Number(e.currentTarget.value))}
        />
        <div class="rec-steps">
          <button type="button" class="secondary" onClick=${() => step(-1)} disabled=${index === 0}>Previous frame</button>
          <button type="button" class="secondary" onClick=${() => step(1)} disabled=${index >= list.length - 1}>Next frame</button>
        </div>
        <p class="muted rec-note">Use the arrow keys on the slider to step one frame at a time.</p>
      </div>
    `;
  }
  return html`<section class="card rec-viewer" aria-label="Frame viewer" ref=${section}>${body}</section>`;
}
