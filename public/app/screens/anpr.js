// PLACEHOLDER: being built.
import { html } from '../lib/html.js';
import { Screen } from '../lib/ui.js';

export function Anpr() {
  return html`<${Screen} title="Anpr"><p>Not built yet.</p><//>`;
}
