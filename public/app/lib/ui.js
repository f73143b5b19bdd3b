// Pieces every screen uses: the screen frame (title, heading that takes focus on arrival so keyboard
// and screen-reader users start at the top of the new screen), tabs, loading and error notes.
import { useEffect, useRef } from 'preact/hooks';
import { html } from './html.js';

export function Screen({ title, heading = title, tabs, actions, children }) {
  const h1 = useRef(null);
  useEffect(() => {
    document.title = `${title} · Overlook`;
    h1.current?.focus({ preventScroll: true });
  }, [title]);
  return html`
    <section class="screen">
      <div class="screen-head">
        <h1 tabindex="-1" ref=${h1}>${heading}</h1>
        ${actions ? html`<div class="actions">${actions}</div>` : null}
      </div>
      ${tabs ? html`<${Tabs} items=${tabs} />` : null}
      ${children}
    </section>
  `;
}

/** Tabs are links (each screen has its own address); the current one says so to assistive technology. */
function Tabs({ items }) {
  return html`
    <nav class="tabs" aria-label="Sections">
      <ul>
        ${items.map((t) => html`<li><a href=${t.href} aria-current=${t.current ? 'page' : undefined}>${t.label}</a></li>`)}
      </ul>
    </nav>
  `;
}

export const Loading = ({ what = 'Loading' }) => html`<p class="loading" role="status">${what}…</p>`;

export function ErrorNote({ error }) {
  if (!error) return null;
  return html`<p class="error" role="alert">${error.message ?? String(error)}</p>`;
}

/** Shows loading, error or the content of a useApi() result. */
export function Loaded({ result, children }) {
  if (result.error) return html`<${ErrorNote} error=${result.error} />`;
  if (result.data === undefined) return html`<${Loading} />`;
  return children(result.data);
}

export const dateTime = (iso) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—');
