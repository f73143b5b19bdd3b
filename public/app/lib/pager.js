// Previous/next paging for the API's `{meta, data}` lists (page numbers from 1), with the count said in words.
import { html } from './html.js';

/** `what` names the things listed: [singular, plural]. */
export function Pager({ meta, onPage, what = ['item', 'items'], label = 'Pages' }) {
  if (!meta) return null;
  const { current_page: page, total_pages: pages, total_count: count } = meta;
  const counted = `${count} ${count === 1 ? what[0] : what[1]}`;
  const summary = pages > 1 ? `Page ${page} of ${pages} · ${counted}` : counted;
  if (pages <= 1) return html`<p class="list-pager-summary muted">${summary}</p>`;
  return html`
    <nav class="list-pager" aria-label=${label}>
      <button type="button" class="secondary" disabled=${page <= 1} onClick=${() => onPage(page - 1)}>Previous<span class="visually-hidden"> page</span></button>
      <span class="list-pager-summary">${summary}</span>
      <button type="button" class="secondary" disabled=${page >= pages} onClick=${() => onPage(page + 1)}>Next<span class="visually-hidden"> page</span></button>
    </nav>
  `;
}
