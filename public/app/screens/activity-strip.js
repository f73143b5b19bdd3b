// The picked day as a strip of 96 quarter hours coloured by activity (docs/analysis.md, Activity): the
// darker, the more moved in the picture. A click on the strip jumps to that quarter's busiest frame; the
// day's busiest quarters are also buttons, for the keyboard and for fingers too wide for a quarter.
// Quarters are the camera's local ones, as the recordings screen counts days.
import { useEffect, useState } from 'preact/hooks';
import { get } from '../lib/api.js';
import { html } from '../lib/html.js';
import { frameTime, localParts, longDate, pad2 } from '../lib/recordings-time.js';

/** Activity of the camera's local day, or an error; undefined while loading. */
function useDayActivity(camera, day) {
  const [state, setState] = useState({ key: null });
  const key = day ? `${camera}/${day.year}-${pad2(day.month)}-${pad2(day.day)}` : null;
  useEffect(() => {
    if (!key) return undefined;
    const controller = new AbortController();
    const date = `${day.year}-${pad2(day.month)}-${pad2(day.day)}`;
    get(`/v2/cameras/${encodeURIComponent(camera)}/activity?date=${date}`, { signal: controller.signal }).then(
      (data) => controller.signal.aborted || setState({ key, data }),
      (error) => controller.signal.aborted || setState({ key, error }),
    );
    return () => controller.abort();
  }, [key]);
  return state.key === key ? state : {};
}

/** Shade classes: the quarter's activity against the day's busiest, in nine steps (no inline styles: the CSP refuses them). */
const level = (score, max) => (max > 0 ? Math.round((8 * score) / max) : 0);
const quarterLabel = (i) => `${pad2(Math.floor(i / 4))}:${pad2((i % 4) * 15)}`;
const BUSIEST = 3;

export function ActivityStrip({ camera, tz, day, jump }) {
  const activity = useDayActivity(camera, day);
  if (!day) return null;
  const quarters = activity.data?.quarters ?? [];
  const max = Math.max(0, ...quarters.map((q) => q.score));
  const slots = Array.from({ length: 96 }, () => null);
  for (const q of quarters) {
    const p = localParts(tz, Date.parse(q.start));
    if (p.year === day.year && p.month === day.month && p.day === day.day)
      slots[p.hour * 4 + Math.floor(p.minute / 15)] = { ...q, slot: p.hour * 4 + Math.floor(p.minute / 15) };
  }
  const busiest = slots
    .filter((q) => q && q.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, BUSIEST);
  // A click on the strip goes to the quarter under the pointer, or the nearest one with frames.
  const clicked = (e) => {
    const box = e.currentTarget.getBoundingClientRect();
    const at = Math.min(95, Math.max(0, Math.floor(((e.clientX - box.left) / box.width) * 96)));
    let best = null;
    for (const q of slots) if (q && (best === null || Math.abs(q.slot - at) < Math.abs(best.slot - at))) best = q;
    if (best) jump(best.peak_at);
  };
  const summary = busiest.length
    ? `Activity per quarter hour; busiest ${busiest.map((q) => quarterLabel(q.slot)).join(', ')}`
    : 'Activity per quarter hour: none measured';
  return html`
    <section class="card rec-activity" aria-labelledby="rec-activity-h">
      <h2 id="rec-activity-h">Activity on ${longDate(day.year, day.month, day.day)}</h2>
      ${
        activity.error
          ? html`<p class="muted rec-note">Activity could not be loaded.</p>`
          : activity.data === undefined
            ? html`<p class="muted rec-note">Loading the day’s activity…</p>`
            : html`<div class="rec-strip" role="img" aria-label=${summary} onClick=${clicked}>
                ${slots.map((q, i) =>
                  q
                    ? html`<span class=${`rec-slot rec-l${level(q.score, max)}`} data-start=${q.start} title=${`${quarterLabel(i)}, activity ${q.score}`}></span>`
                    : html`<span class="rec-slot rec-none" title=${`${quarterLabel(i)}: no frames`}></span>`,
                )}
              </div>
              <div class="rec-strip-hours muted" aria-hidden="true"><span>00:00</span><span>06:00</span><span>12:00</span><span>18:00</span><span>24:00</span></div>
              ${
                busiest.length
                  ? html`<div class="actions rec-busiest">
                      <span class="muted">Busiest:</span>
                      ${busiest.map(
                        (
                          q,
                        ) => html`<button type="button" class="secondary" aria-label=${`Busiest ${quarterLabel(q.slot)}: go to ${frameTime(tz, q.peak_at)}`} onClick=${() => jump(q.peak_at)}>
                          ${quarterLabel(q.slot)}
                        </button>`,
                      )}
                    </div>`
                  : html`<p class="muted rec-note">No activity measured on this day.</p>`
              }`
      }
    </section>
  `;
}
