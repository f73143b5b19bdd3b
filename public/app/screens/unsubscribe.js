// The screen an e-mail's unsubscribe link opens: one button turns that kind of e-mail off for the
// address (no sign-in needed: the link is signed). A button rather than on opening, so a mail
// scanner that follows links turns nothing off.
import { useState } from 'preact/hooks';
import { callAnonymously } from '../lib/api.js';
import { html } from '../lib/html.js';
import { ErrorNote, Screen } from '../lib/ui.js';

export function Unsubscribe({ token }) {
  const [done, setDone] = useState(null);
  const [error, setError] = useState(null);
  const submit = async () => {
    setError(null);
    try {
      setDone(await callAnonymously('POST', '/v2/mail/unsubscribe', { token }));
    } catch (e) {
      setError(e);
    }
  };
  return html`
    <${Screen} title="Unsubscribe">
      ${
        done
          ? html`<p class="card" role="status">${done.email}: ${done.description} Signed-in people can turn it on again in their e-mail settings.</p>`
          : html`<div class="card"><p>Stop this kind of e-mail?</p><button type="button" onClick=${submit}>Unsubscribe</button><${ErrorNote} error=${error} /></div>`
      }
    <//>
  `;
}
