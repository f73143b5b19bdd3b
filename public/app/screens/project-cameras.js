// PLACEHOLDER: being built.
import { html } from '../lib/html.js';
import { Screen } from '../lib/ui.js';

export function ProjectCameras() {
  return html`<${Screen} title="ProjectCameras"><p>Not built yet.</p><//>`;
}
