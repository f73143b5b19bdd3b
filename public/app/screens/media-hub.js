// PLACEHOLDER: being built.
import { html } from '../lib/html.js';
import { Screen } from '../lib/ui.js';

export function MediaHub() {
  return html`<${Screen} title="MediaHub"><p>Not built yet.</p><//>`;
}
