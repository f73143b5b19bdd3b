// PLACEHOLDER: being built.
import { html } from '../lib/html.js';
import { Screen } from '../lib/ui.js';

export function Comments() {
  return html`<${Screen} title="Comments"><p>Not built yet.</p><//>`;
}
