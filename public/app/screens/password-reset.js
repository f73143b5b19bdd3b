// "Forgot password?" (asks for a reset link by e-mail) and the screen the link opens (sets the new
// password with the link's token). The first answers the same for every address, so it says the same:
// docs/email.md, Password reset.
import { useState } from 'preact/hooks';
import { callAnonymously } from '../lib/api.js';
import { html } from '../lib/html.js';
import { useMailStatus } from '../lib/use-mail-status.js';
import { ErrorNote, Screen } from '../lib/ui.js';

export function ForgotPassword() {
  const mail = useMailStatus();
  const [sentTo, setSentTo] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event) => {
    event.preventDefault();
    const email = new FormData(event.currentTarget).get('email');
    setBusy(true);
    setError(null);
    try {
      await callAnonymously('POST', '/v2/auth/password-reset', { email });
      setSentTo(email);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return html`
    <${Screen} title="Forgot password" heading="Reset your password">
      ${
        mail === false
          ? html`<p class="card error" role="alert">This platform sends no e-mail, so a reset link cannot reach you. Ask an administrator to reset your password.</p>`
          : sentTo
            ? html`<p class="card" role="status">If ${sentTo} has an account, a link to choose a new password is on its way. It works once, within 30 minutes.</p>`
            : html`
              <form class="card sign-in" onSubmit=${submit}>
                <label for="reset-email">Your e-mail</label>
                <input id="reset-email" name="email" type="email" autocomplete="username" required />
                <button type="submit" disabled=${busy || mail === undefined}>${busy ? 'Sending…' : 'Send me a reset link'}</button>
                <${ErrorNote} error=${error} />
              </form>
            `
      }
      <p><a href="#/">Back to sign in</a></p>
    <//>
  `;
}

export function ResetPassword({ token }) {
  const [done, setDone] = useState(false);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    if (form.get('password') !== form.get('again')) return setError({ message: 'The two passwords differ.' });
    setBusy(true);
    setError(null);
    try {
      await callAnonymously('POST', '/v2/auth/password-reset/confirm', { token, password: form.get('password') });
      setDone(true);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return html`
    <${Screen} title="Choose a new password">
      ${
        done
          ? html`<p class="card" role="status">Your password is changed, and every device that was signed in has been signed out. <a href="#/">Sign in</a> with the new one.</p>`
          : html`
            <form class="card sign-in" onSubmit=${submit}>
              <label for="new-password">New password</label>
              <input id="new-password" name="password" type="password" autocomplete="new-password" minlength="8" required />
              <label for="new-password-again">The same again</label>
              <input id="new-password-again" name="again" type="password" autocomplete="new-password" required />
              <button type="submit" disabled=${busy}>${busy ? 'Saving…' : 'Set the password'}</button>
              <${ErrorNote} error=${error} />
            </form>
            <p><a href="#/forgot-password">Ask for a new link</a></p>
          `
      }
    <//>
  `;
}
