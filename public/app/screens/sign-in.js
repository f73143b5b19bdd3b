// Sign-in for people (e-mail and password). API keys never sign in here: programs use the API.
import { useState } from 'preact/hooks';
import { signIn } from '../lib/api.js';
import { html } from '../lib/html.js';
import { ErrorNote, Screen } from '../lib/ui.js';

export function SignIn() {
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await signIn(form.get('email'), form.get('password'));
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  return html`
    <${Screen} title="Sign in" heading="Sign in to Overlook">
      <form class="card sign-in" onSubmit=${submit}>
        <label for="email">E-mail</label>
        <input id="email" name="email" type="email" autocomplete="username" required />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit" disabled=${busy}>${busy ? 'Signing in…' : 'Sign in'}</button>
        <${ErrorNote} error=${error} />
      </form>
      <p><a href="#/forgot-password">Forgot password?</a></p>
    <//>
  `;
}
