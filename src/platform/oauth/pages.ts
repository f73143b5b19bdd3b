// The sign-in and consent pages of the OAuth interaction, and the error page: plain server-rendered
// HTML (no script), every value escaped.
import { ACCOUNT_CONTROLS } from '../access/index.js';
import { describeScope } from './scopes.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Overlook</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1d2330}
h1{font-size:1.4rem}label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.5rem;box-sizing:border-box}
button{margin-top:1rem;padding:.5rem 1rem;margin-right:.5rem}.error{color:#a40000}ul{padding-left:1.2rem}li{margin:.4rem 0}
.muted{color:#5b6270;font-size:.9rem}</style></head><body>${body}</body></html>`;

/** Names where the person goes after answering: a client is only ever redirected to after this is shown. */
const sentTo = (host: string) => `<p class="muted" id="redirect">Afterwards you are sent back to <strong>${esc(host)}</strong>.</p>`;

export function renderLoginPage(opts: { uid: string; clientName: string; redirectTo: string; email?: string; error?: string }): string {
  return page(
    'Sign in',
    `<h1>Sign in to Overlook</h1>
<p><strong>${esc(opts.clientName)}</strong> wants to use your Overlook account.</p>
${sentTo(opts.redirectTo)}
${opts.error ? `<p class="error" role="alert">${esc(opts.error)}</p>` : ''}
<form method="post" action="/oauth/interaction/${esc(opts.uid)}/login">
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required value="${esc(opts.email ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>
<form method="post" action="/oauth/interaction/${esc(opts.uid)}/abort"><button type="submit">Cancel</button></form>`,
  );
}

const controls = Object.values(ACCOUNT_CONTROLS);
/** What the consent page promises, from the catalogue the access decision enforces. */
const DELEGATION_LIMITS = `It can never do more than you can yourself, and never manages ${controls.slice(0, -1).join(', ')} or ${controls.at(-1)!}.`;

export function renderConsentPage(opts: {
  uid: string;
  clientName: string;
  clientUri?: string;
  redirectTo: string;
  email: string;
  scopes: string[];
  resources: string[];
}): string {
  const items = opts.scopes.map((s) => `<li><code>${esc(s)}</code> — ${esc(describeScope(s))}</li>`).join('\n');
  return page(
    'Allow access',
    `<h1>Allow ${esc(opts.clientName)}?</h1>
<p><strong>${esc(opts.clientName)}</strong>${opts.clientUri ? ` (<span class="muted">${esc(opts.clientUri)}</span>)` : ''} asks to act as <strong>${esc(opts.email)}</strong>:</p>
<ul id="scopes">${items || '<li>No scopes</li>'}</ul>
${opts.resources.length ? `<p class="muted">For: ${opts.resources.map(esc).join(', ')}</p>` : ''}
<p class="muted" id="never">${esc(DELEGATION_LIMITS)}</p>
${sentTo(opts.redirectTo)}
<form method="post" action="/oauth/interaction/${esc(opts.uid)}/confirm"><button type="submit" name="decision" value="allow">Allow</button></form>
<form method="post" action="/oauth/interaction/${esc(opts.uid)}/abort"><button type="submit">Deny</button></form>`,
  );
}

export function renderErrorPage(message: string): string {
  return page('Error', `<h1>Something went wrong</h1><p class="error">${esc(message)}</p>`);
}
