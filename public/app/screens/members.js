// PLACEHOLDER: being built.
import { html } from '../lib/html.js';
import { Screen } from '../lib/ui.js';

export function Members() {
  return html`<${Screen} title="Members"><p>Not built yet.</p><//>`;
}
