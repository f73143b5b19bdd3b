// The weather at the site beside a camera's recordings, when the project has weather (one of its
// cameras has a location: GET …/weather/filters says so): the hour of the shown frame first, the
// whole day's hours on request. Hours are the project's local ones, as the weather API gives them.
import { html } from '../lib/html.js';
import { useApi } from '../lib/hooks.js';
import { localParts, pad2 } from '../lib/recordings-time.js';

const num = (v, unit) => (v === null || v === undefined ? '—' : `${Math.round(v * 10) / 10}${unit}`);
const what = (h) => h.weather?.[0]?.description ?? 'Unknown conditions';

/** The weather of the camera's local `day`, its hour `at` (ms, the shown frame) picked out. */
export function WeatherStrip({ project, day, at }) {
  const base = `/v2/projects/${encodeURIComponent(project)}/weather`;
  const filters = useApi(project ? `${base}/filters` : null);
  const has = !!filters.data?.location;
  const date = day ? `${day.year}-${pad2(day.month)}-${pad2(day.day)}` : null;
  const weather = useApi(has && date ? `${base}?date=${date}` : null, [has, date]);
  if (!has || !day) return null;
  const hours = weather.data?.days?.[0]?.hourly ?? [];
  // The frame's hour in the project's zone, which may not be the camera's.
  const p = at !== null && weather.data ? localParts(weather.data.timezone, at) : null;
  const key = p ? `${p.year}-${pad2(p.month)}-${pad2(p.day)}T${pad2(p.hour)}:00` : null;
  const now = hours.find((h) => h.hour === key);
  return html`
    <section class="card rec-weather" aria-labelledby="rec-weather-h">
      <h2 id="rec-weather-h">Weather at the site</h2>
      ${
        weather.error
          ? html`<p class="muted rec-note">The weather could not be loaded: ${weather.error.message}</p>`
          : !weather.data
            ? html`<p class="muted rec-note">Loading the weather…</p>`
            : html`
              ${
                now
                  ? html`<p class="rec-weather-now">
                      <strong>${now.hour.slice(11)}</strong> ${what(now)}, ${num(now.temp, ' °C')}${' '}
                      <span class="muted">(feels ${num(now.feels_like, ' °C')}; wind ${num(now.wind_speed, ' m/s')}; rain ${num(now.precipitation, ' mm')})</span>
                    </p>`
                  : html`<p class="muted rec-note">No weather for the shown frame’s hour.</p>`
              }
              <details class="rec-weather-day">
                <summary>Every hour of ${date}</summary>
                <table class="rec-weather-table">
                  <caption class="visually-hidden">Hourly weather on ${date} (${weather.data.timezone})</caption>
                  <thead>
                    <tr><th scope="col">Hour</th><th scope="col">Conditions</th><th scope="col">Temp.</th><th scope="col">Rain</th></tr>
                  </thead>
                  <tbody>
                    ${hours.map(
                      (h) => html`<tr class=${h === now ? 'rec-weather-current' : ''} aria-current=${h === now ? 'time' : undefined}>
                        <th scope="row">${h.hour.slice(11)}</th>
                        <td>${what(h)}</td>
                        <td>${num(h.temp, ' °C')}</td>
                        <td>${num(h.precipitation, ' mm')}</td>
                      </tr>`,
                    )}
                  </tbody>
                </table>
              </details>
              <p class="muted rec-note">Times here are the site’s (${weather.data.timezone}).</p>
            `
      }
    </section>
  `;
}
