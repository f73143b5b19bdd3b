// PLACEHOLDER: being built.
import { html } from '../lib/html.js';
import { Screen } from '../lib/ui.js';

export function CameraLive() {
  return html`<${Screen} title="CameraLive"><p>Not built yet.</p><//>`;
}
