// The person's projects, each leading to its cameras.
import { html } from '../lib/html.js';
import { useApi } from '../lib/hooks.js';
import { href } from '../lib/router.js';
import { Loaded, Screen } from '../lib/ui.js';

export function Projects() {
  const projects = useApi('/v2/projects');
  return html`
    <${Screen} title="Projects">
      <${Loaded} result=${projects}>
        ${(list) =>
          list.length === 0
            ? html`<p>You are not a member of any project yet. Ask a project's owner to add you.</p>`
            : html`<ul class="cards">
                ${list.map((p) => html`<li class="card"><a href=${href('projects', p.exid)}><strong>${p.name}</strong></a></li>`)}
              </ul>`}
      <//>
    <//>
  `;
}
