// A camera's connection fields as the add-camera and camera-settings screens ask for them: snapshot
// and stream addresses and the login, checked here in plain words before the API sees them (the API
// checks again: docs/cameras.md), and the answer of a connection check in words.
import { html } from './html.js';
import { TextField } from './fields.js';

const startsWith = (url, schemes) => schemes.some((s) => url.toLowerCase().startsWith(`${s}://`));

/** The fields' own problems, by field name (empty when none). */
export function connectionProblems({ snapshot_url, rtsp_url, username, password }) {
  const out = {};
  const snap = snapshot_url.trim();
  const rtsp = rtsp_url.trim();
  if (!snap && !rtsp) out.snapshot_url = 'Give the address of the camera’s snapshot (a JPEG picture), its video stream, or both.';
  if (snap && !startsWith(snap, ['http', 'https']))
    out.snapshot_url = 'A snapshot address starts with http:// or https:// (for example http://192.0.2.10/snapshot.jpg).';
  if (rtsp && !startsWith(rtsp, ['rtsp', 'rtsps']))
    out.rtsp_url = 'A stream address starts with rtsp:// or rtsps:// (for example rtsp://192.0.2.10:554/stream1).';
  for (const [field, url] of [
    ['snapshot_url', snap],
    ['rtsp_url', rtsp],
  ]) {
    if (!out[field] && /^[a-z]+:\/\/[^/]*@/i.test(url))
      out[field] = 'Leave the user name and password out of the address; give them in their own fields below.';
  }
  if (password && !username.trim()) out.username = 'A password needs the user name that goes with it.';
  return out;
}

/** The body the API takes, from the fields (empty ones left out; the password only when typed). */
export function connectionBody(f) {
  const body = {};
  if (f.snapshot_url.trim()) body.snapshot_url = f.snapshot_url.trim();
  if (f.rtsp_url.trim()) body.rtsp_url = f.rtsp_url.trim();
  if (f.username.trim()) body.username = f.username.trim();
  if (f.password) body.password = f.password;
  return body;
}

export function ConnectionFields({ prefix, fields, set, errors, edited = (_f, s) => s, passwordStored = false }) {
  const field = (name) => edited(name, (value) => set((f) => ({ ...f, [name]: value })));
  return html`
    <div class="setup-fields">
      <${TextField} id=${`${prefix}-snapshot`} label="Snapshot address" type="url" value=${fields.snapshot_url} onValue=${field('snapshot_url')}
        error=${errors.snapshot_url} hint="The camera’s JPEG picture, http:// or https://." autocomplete="off" />
      <${TextField} id=${`${prefix}-rtsp`} label="Stream address (RTSP)" type="url" value=${fields.rtsp_url} onValue=${field('rtsp_url')}
        error=${errors.rtsp_url} hint="For the live view, rtsp:// or rtsps://; optional when there is a snapshot address." autocomplete="off" />
      <${TextField} id=${`${prefix}-username`} label="User name" value=${fields.username} onValue=${field('username')} error=${errors.username} autocomplete="off" />
      <${TextField} id=${`${prefix}-password`} label="Password" type="password" value=${fields.password} onValue=${field('password')} error=${errors.password}
        hint=${passwordStored ? 'A password is stored; leave this empty to keep it.' : 'Stored sealed; never shown again.'} autocomplete="new-password" />
    </div>
  `;
}

/** The answer of POST …/settings/connection/check, in words. */
export function CheckResult({ result }) {
  if (!result) return null;
  if (result.error) return html`<p class="check-result check-failed" role="alert">The check could not run: ${result.error.message}</p>`;
  const ok = result.status === 'online';
  return html`
    <p class=${`check-result ${ok ? 'check-ok' : 'check-failed'}`} role="status">
      ${ok ? `Connected: the camera answered in ${Math.round(result.latency_ms)} ms.` : `The camera did not answer${result.reason ? `: ${result.reason}` : '.'}`}
    </p>
  `;
}
