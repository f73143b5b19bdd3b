// PLACEHOLDER: being built.
import { html } from '../lib/html.js';
import { Screen } from '../lib/ui.js';

export function Recordings() {
  return html`<${Screen} title="Recordings"><p>Not built yet.</p><//>`;
}
