// The shell: sign-in when there is no session, otherwise the header, the navigation and the screen
// the address names. Screens live in ./screens, one file each.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { signedIn, signOut } from './lib/api.js';
import { html } from './lib/html.js';
import { match, useRoute } from './lib/router.js';
import { SignIn } from './screens/sign-in.js';
import { Projects } from './screens/projects.js';
import { ProjectCameras } from './screens/project-cameras.js';
import { MediaHub } from './screens/media-hub.js';
import { Comments } from './screens/comments.js';
import { Members } from './screens/members.js';
import { SiteRecorders } from './screens/site-recorders.js';
import { CameraLive } from './screens/camera-live.js';
import { LiveWall } from './screens/live-wall.js';
import { Recordings } from './screens/recordings.js';
import { Anpr } from './screens/anpr.js';
import { GateReport } from './screens/gate-report.js';
import { EmailSettings } from './screens/email-settings.js';
import { ProjectSettings } from './screens/project-settings.js';
import { CameraAdd } from './screens/camera-add.js';
import { CameraSettings } from './screens/camera-settings.js';
import { VideoWalls } from './screens/video-walls.js';
import { ClaimInvitation } from './screens/invitation-claim.js';
import { ForgotPassword, ResetPassword } from './screens/password-reset.js';
import { Unsubscribe } from './screens/unsubscribe.js';

const ROUTES = [
  ['/', Projects],
  ['/projects/:project', ProjectCameras],
  ['/projects/:project/media', MediaHub],
  ['/projects/:project/comments', Comments],
  ['/projects/:project/members', Members],
  ['/projects/:project/recorders', SiteRecorders],
  ['/projects/:project/gate', GateReport],
  ['/projects/:project/walls', VideoWalls],
  ['/projects/:project/settings', ProjectSettings],
  ['/projects/:project/cameras/new', CameraAdd],
  ['/cameras/:camera', CameraLive],
  ['/cameras/:camera/recordings', Recordings],
  ['/cameras/:camera/anpr', Anpr],
  ['/cameras/:camera/settings', CameraSettings],
  ['/account/email', EmailSettings],
];

/** Screens opened from e-mail links, shown with or without a session. */
const OPEN_ROUTES = [
  ['/forgot-password', ForgotPassword],
  ['/reset-password/:token', ResetPassword],
  ['/invitation/:token', ClaimInvitation],
  ['/unsubscribe/:token', Unsubscribe],
];

function OpenScreen({ path }) {
  for (const [pattern, Screen] of OPEN_ROUTES) {
    const params = match(pattern, path);
    if (params) return html`<${Screen} key=${path} ...${params} />`;
  }
  return null;
}

function NotFound() {
  return html`<section class="screen"><h1>Nothing here</h1><p><a href="#/">Back to your projects</a></p></section>`;
}

function Router() {
  const path = useRoute();
  for (const [pattern, Screen] of ROUTES) {
    const params = match(pattern, path);
    if (params) return html`<${Screen} key=${path} ...${params} />`;
  }
  return html`<${NotFound} />`;
}

function skipToMain(event) {
  event.preventDefault();
  document.getElementById('main').focus();
}

function App() {
  const [session, setSession] = useState(signedIn());
  useEffect(() => {
    const onIn = () => setSession(true);
    const onOut = () => setSession(false);
    window.addEventListener('overlook:signed-in', onIn);
    window.addEventListener('overlook:signed-out', onOut);
    return () => {
      window.removeEventListener('overlook:signed-in', onIn);
      window.removeEventListener('overlook:signed-out', onOut);
    };
  }, []);
  const path = useRoute();
  const open = OPEN_ROUTES.some(([pattern]) => match(pattern, path));
  if (open) return html`<main id="main"><${OpenScreen} path=${path} /></main>`;
  if (!session) return html`<main id="main"><${SignIn} /></main>`;
  // A video wall fills the screen: no header, its own bar.
  const wall = match('/walls/:wall', path);
  if (wall) return html`<main id="main" class="wall-main"><${LiveWall} key=${path} ...${wall} /></main>`;
  return html`
    <a class="skip" href="#main" onClick=${skipToMain}>Skip to content</a>
    <header class="top">
      <a class="brand" href="#/">Overlook</a>
      <nav aria-label="Main">
        <ul>
          <li><a href="#/">Projects</a></li>
          <li><a href="/keys">API keys</a></li>
          <li><a href="#/account/email">E-mail settings</a></li>
          <li><a href="/docs">API reference</a></li>
        </ul>
      </nav>
      <button type="button" class="link" onClick=${signOut}>Sign out</button>
    </header>
    <main id="main" tabindex="-1"><${Router} /></main>
  `;
}

// The page's "Loading…" placeholder goes first: render adds to the container, it does not replace it.
const root = document.getElementById('app');
root.textContent = '';
render(html`<${App} />`, root);
