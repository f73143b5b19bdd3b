// The screen an invitation e-mail's link opens: makes the account of the invited address (name and
// password) and joins the project in one step (POST /v2/invitations/claim), then signs in.
import { useState } from 'preact/hooks';
import { callAnonymously, signIn } from '../lib/api.js';
import { html } from '../lib/html.js';
import { ErrorNote, Screen } from '../lib/ui.js';

export function ClaimInvitation({ token }) {
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const joined = await callAnonymously('POST', '/v2/invitations/claim', {
        token,
        password: form.get('password'),
        firstname: form.get('firstname'),
        lastname: form.get('lastname'),
      });
      location.hash = `#/projects/${encodeURIComponent(joined.project_exid)}`;
      await signIn(joined.user.email, form.get('password'));
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  return html`
    <${Screen} title="Join the project" heading="Make your account and join">
      <form class="card sign-in" onSubmit=${submit}>
        <label for="claim-first">First name</label>
        <input id="claim-first" name="firstname" autocomplete="given-name" />
        <label for="claim-last">Last name</label>
        <input id="claim-last" name="lastname" autocomplete="family-name" />
        <label for="claim-password">Password</label>
        <input id="claim-password" name="password" type="password" autocomplete="new-password" minlength="8" required />
        <button type="submit" disabled=${busy}>${busy ? 'Joining…' : 'Make my account and join'}</button>
        <${ErrorNote} error=${error} />
      </form>
      <p>Already have an account with this e-mail? <a href="#/">Sign in</a>: the invitation waits for you there.</p>
    <//>
  `;
}
