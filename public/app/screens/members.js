// A project's members and their roles. Owners and admins add people by e-mail (someone without an
// account gets an invitation instead, and the API answers the same either way: docs/settings.md,
// Members), change roles up to their own and remove members; everyone else sees the list read-only.
import { useState } from 'preact/hooks';
import { api, get } from '../lib/api.js';
import { useConfirm } from '../lib/confirm-dialog.js';
import { fieldMessage } from '../lib/form-errors.js';
import { useApi } from '../lib/hooks.js';
import { html } from '../lib/html.js';
import { allowsOf, rankOf, roleAllows } from '../lib/roles.js';
import { projectTabs } from '../lib/tabs.js';
import { dateTime, ErrorNote, Loaded, Screen } from '../lib/ui.js';
import { useMailStatus } from '../lib/use-mail-status.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const fullName = (m) => [m.firstname, m.lastname].filter(Boolean).join(' ') || m.email;

export function Members({ project }) {
  const base = `/v2/projects/${encodeURIComponent(project)}`;
  const info = useApi(base);
  const me = useApi('/v2/auth/users/me');
  const members = useApi(`${base}/members`);
  const ladder = useApi(`${base}/roles`);
  const myRole = info.data?.role ?? null;
  const canManage = roleAllows(myRole, 'admin');
  const invitations = useApi(canManage ? `${base}/invitations` : null, [canManage]);
  const [status, setStatus] = useState('');
  const [actionError, setActionError] = useState(null);
  const [confirm, confirmDialog] = useConfirm();

  // Roles this person may hand out: up to their own, never owner (ownership moves by transfer).
  const grantable = (ladder.data ?? []).filter((r) => r.role !== 'owner' && r.rank <= rankOf(myRole)).map((r) => r.role);
  const manageable = (m) => canManage && m.role !== 'owner' && roleAllows(myRole, m.role) && m.user_id !== me.data?.id;
  const name = info.data?.name ?? project;

  const act = async (work, done) => {
    setActionError(null);
    setStatus('');
    try {
      await work();
      setStatus(done);
      members.reload();
      if (canManage) invitations.reload();
    } catch (e) {
      setActionError(e);
    }
  };

  const added = (message) => {
    setStatus(message);
    members.reload();
    invitations.reload();
  };

  const changeRole = (m, role) => act(() => api('PATCH', `${base}/members/${encodeURIComponent(m.user_id)}`, { role }), `${fullName(m)} is now ${role}.`);

  const remove = async (m) => {
    const loses = allowsOf(ladder.data, m.role);
    const yes = await confirm({
      title: `Remove ${fullName(m)} from ${name}?`,
      body: html`
        <p>${m.email} stops being a member at once and loses what the ${m.role} role gave them on this project:</p>
        <ul>${loses.map((a) => html`<li>${a}</li>`)}</ul>
        <p>Their API keys stop reaching this project, and adding them again later does not give it back to those keys. They are told by a notification.</p>
      `,
      confirmLabel: 'Remove member',
    });
    if (yes) await act(() => api('DELETE', `${base}/members/${encodeURIComponent(m.user_id)}`), `${fullName(m)} is no longer a member.`);
  };

  const cancelInvitation = async (inv) => {
    const yes = await confirm({
      title: `Cancel the invitation for ${inv.email}?`,
      body: `They will not join ${name} when they sign up with this e-mail. You can invite them again later.`,
      confirmLabel: 'Cancel invitation',
      cancelLabel: 'Keep it',
    });
    if (yes) await act(() => api('DELETE', `${base}/invitations/${encodeURIComponent(inv.id)}`), `The invitation for ${inv.email} is cancelled.`);
  };

  const leave = async () => {
    const yes = await confirm({
      title: `Leave ${name}?`,
      body: `You stop being a member at once and no longer see this project. Your API keys stop reaching it. To come back, an admin has to add you again.`,
      confirmLabel: 'Leave project',
      cancelLabel: 'Stay',
    });
    if (!yes) return;
    setActionError(null);
    try {
      await api('DELETE', `${base}/members/${encodeURIComponent(me.data.id)}`);
      location.hash = '#/';
    } catch (e) {
      setActionError(e);
    }
  };

  return html`
    <${Screen} title=${`Members · ${name}`} heading=${`Members of ${name}`} tabs=${projectTabs(project, 'members')}>
      <p class="members-status" role="status">${status}</p>
      <${ErrorNote} error=${actionError} />
      <${Loaded} result=${members}>
        ${(list) => html`
          <${MemberTable} list=${list} me=${me.data} manageable=${manageable} grantable=${grantable} onRole=${changeRole} onRemove=${remove} canManage=${canManage} />
        `}
      <//>
      ${
        info.data && !canManage
          ? html`<p class="muted members-readonly">Your role here is ${myRole}: you can see who is a member. Owners and admins add and remove people and change roles.</p>`
          : null
      }
      ${
        canManage
          ? html`
            <${AddMember} base=${base} roles=${grantable} ladder=${ladder.data} onAdded=${added} />
            <${Invitations} result=${invitations} onCancel=${cancelInvitation} />
          `
          : null
      }
      ${
        myRole && myRole !== 'owner' && me.data
          ? html`<section class="members-leave" aria-labelledby="members-leave-title">
              <h2 id="members-leave-title">Leave this project</h2>
              <p class="muted">You are ${myRole} here. Leaving takes you out of the project at once; nobody else’s access changes.</p>
              <button type="button" class="danger" onClick=${leave}>Leave this project</button>
            </section>`
          : null
      }
      ${confirmDialog}
    <//>
  `;
}

function MemberTable({ list, me, manageable, grantable, onRole, onRemove, canManage }) {
  return html`
    <table class="members-table">
      <caption class="visually-hidden">Members and their roles</caption>
      <thead>
        <tr><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Member since</th>${canManage ? html`<th scope="col">Actions</th>` : null}</tr>
      </thead>
      <tbody>
        ${list.map(
          (m) => html`
            <tr key=${m.user_id} data-email=${m.email}>
              <th scope="row" data-label="Name">${fullName(m)}${m.user_id === me?.id ? html` <span class="muted">(you)</span>` : null}</th>
              <td data-label="E-mail" class="members-email">${m.email}</td>
              <td data-label="Role">
                ${manageable(m) ? html`<${RoleForm} member=${m} roles=${grantable} onRole=${onRole} />` : html`<span class="members-role">${m.role}</span>`}
              </td>
              <td data-label="Member since">${dateTime(m.created_at)}</td>
              ${
                canManage
                  ? html`<td data-label="Actions">
                    ${
                      manageable(m)
                        ? html`<button type="button" class="danger" onClick=${() => onRemove(m)} aria-label=${`Remove ${fullName(m)}`}>Remove</button>`
                        : html`<span class="muted">${m.role === 'owner' ? 'The owner stays' : m.user_id === me?.id ? 'You' : '—'}</span>`
                    }
                  </td>`
                  : null
              }
            </tr>
          `,
        )}
      </tbody>
    </table>
  `;
}

/** A role picker with its own Save button: choosing alone changes nothing (arrow keys on a select must not). */
function RoleForm({ member, roles, onRole }) {
  const [role, setRole] = useState(member.role);
  const id = `role-${member.user_id}`;
  const options = roles.includes(member.role) ? roles : [member.role, ...roles];
  const submit = (event) => {
    event.preventDefault();
    onRole(member, role);
  };
  return html`
    <form class="members-role-form" onSubmit=${submit}>
      <label for=${id} class="visually-hidden">Role of ${fullName(member)}</label>
      <select id=${id} value=${role} onChange=${(e) => setRole(e.currentTarget.value)}>
        ${options.map((r) => html`<option value=${r}>${r}</option>`)}
      </select>
      <button type="submit" class="secondary" disabled=${role === member.role} aria-label=${`Save the role of ${fullName(member)}`}>Save</button>
    </form>
  `;
}

function AddMember({ base, roles, ladder, onAdded }) {
  const mail = useMailStatus();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('viewer');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const emailError = error?.field === 'email' ? error.message : fieldMessage(error, 'email');
  const roleError = fieldMessage(error, 'role');
  const otherError = error && !emailError && !roleError ? error : null;

  const submit = async (event) => {
    event.preventDefault();
    const wanted = email.trim();
    if (!wanted) return setError({ field: 'email', message: 'Enter the e-mail address of the person to add.' });
    if (!EMAIL.test(wanted)) return setError({ field: 'email', message: 'That is not an e-mail address (it looks like name@example.com).' });
    setBusy(true);
    setError(null);
    try {
      const added = await api('POST', `${base}/members`, { email: wanted, role });
      // The answer is the same with or without an account; the lists say which it was.
      const list = await get(`${base}/members`);
      const joined = list.some((m) => m.email === added.email);
      onAdded(
        joined
          ? `${added.email} is now a member (${added.role}).`
          : `${added.email} has no account yet: they are invited as ${added.role}${mail ? ' and get an e-mail with a link to join' : ' and join when they sign up with this e-mail'}.`,
      );
      setEmail('');
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return html`
    <form class="card members-add" onSubmit=${submit} noValidate>
      <h2 id="members-add-title">Add a person</h2>
      <p class="muted">Someone with an account joins at once and is notified. An e-mail without an account gets an invitation${mail === false ? '' : ' by e-mail, with a link to make the account and join'}.</p>
      ${mail === false ? html`<p class="muted" role="note">This platform sends no e-mail: tell the people you invite yourself; they join when they sign up with the invited address.</p>` : null}
      <div class="members-add-fields">
        <div>
          <label for="member-email">E-mail</label>
          <input id="member-email" type="email" autocomplete="off" value=${email} onInput=${(e) => setEmail(e.currentTarget.value)}
            aria-invalid=${emailError ? 'true' : undefined} aria-describedby=${emailError ? 'member-email-error' : undefined} />
          ${emailError ? html`<p id="member-email-error" class="error" role="alert">${emailError}</p>` : null}
        </div>
        <div>
          <label for="member-role">Role</label>
          <select id="member-role" value=${role} onChange=${(e) => setRole(e.currentTarget.value)} aria-describedby="member-role-note">
            ${roles.map((r) => html`<option value=${r}>${r}</option>`)}
          </select>
          <p id="member-role-note" class="muted members-role-note">${/^[aeiou]/.test(role) ? 'An' : 'A'} ${role} may ${allowsOf(ladder, role).join('; ')}.</p>
          ${roleError ? html`<p class="error" role="alert">${roleError}</p>` : null}
        </div>
      </div>
      <button type="submit" disabled=${busy}>${busy ? 'Adding…' : 'Add person'}</button>
      <${ErrorNote} error=${otherError} />
    </form>
  `;
}

function Invitations({ result, onCancel }) {
  return html`
    <section class="members-invitations" aria-labelledby="invitations-title">
      <h2 id="invitations-title">Invitations waiting</h2>
      <${Loaded} result=${result}>
        ${(list) =>
          list.length === 0
            ? html`<p class="muted">No invitation is waiting. People you add who have no account yet show here until they sign up.</p>`
            : html`
                <table class="members-table">
                  <caption class="visually-hidden">Invitations waiting for people to sign up</caption>
                  <thead><tr><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Expires</th><th scope="col">Actions</th></tr></thead>
                  <tbody>
                    ${list.map(
                      (inv) => html`
                        <tr key=${inv.id} data-email=${inv.email}>
                          <th scope="row" data-label="E-mail" class="members-email">${inv.email}</th>
                          <td data-label="Role">${inv.role}</td>
                          <td data-label="Expires">${dateTime(inv.expires_at)}</td>
                          <td data-label="Actions">
                            <button type="button" class="secondary" onClick=${() => onCancel(inv)} aria-label=${`Cancel invitation for ${inv.email}`}>Cancel invitation</button>
                          </td>
                        </tr>
                      `,
                    )}
                  </tbody>
                </table>
              `}
      <//>
    </section>
  `;
}
