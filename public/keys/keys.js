// The key-management page: plain browser JavaScript against the main API, no build step.
// The person's JWT lives in sessionStorage (gone when the tab closes); a key's value is shown once,
// in the reveal panel, and removed from the page as soon as the person says it is stored.
const $ = (sel) => document.querySelector(sel);
const TOKEN = 'overlook.jwt';

let projects = []; // [{exid, name}]
let scopes = []; // the catalogue: [{scope, group, description, opens_endpoints}]
let editing = null; // the key being edited, or null when creating

function say(text) {
  $('#status').textContent = text;
}

async function api(method, path, body) {
  const headers = { authorization: `Bearer ${sessionStorage.getItem(TOKEN)}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status === 401 && path !== '/v2/auth/login') {
    signedOut('Your session has ended; sign in again.');
    throw new Error('Your session has ended');
  }
  const data = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok) throw new Error(data?.message ?? `The server answered ${res.status}`);
  return data;
}

function signedOut(message = '') {
  sessionStorage.removeItem(TOKEN);
  $('#sign-in').hidden = false;
  $('#keys').hidden = true;
  $('#reveal').hidden = true;
  $('#who').hidden = true;
  $('#sign-out').hidden = true;
  say(message);
}

async function signIn(event) {
  event.preventDefault();
  $('#sign-in-error').textContent = '';
  const res = await fetch('/v2/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: $('#email').value, password: $('#password').value }),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    $('#sign-in-error').textContent = data.message ?? 'Sign-in failed';
    return;
  }
  sessionStorage.setItem(TOKEN, data.token);
  $('#password').value = '';
  await start();
}

async function start() {
  const [me, projectList, catalogue] = await Promise.all([api('GET', '/v2/auth/users/me'), api('GET', '/v2/projects'), api('GET', '/v2/api-keys/scopes')]);
  projects = projectList.map((p) => ({ exid: p.exid, name: p.name }));
  scopes = catalogue;
  $('#who').textContent = `Signed in as ${me.email}`;
  $('#who').hidden = false;
  $('#sign-out').hidden = false;
  $('#sign-in').hidden = true;
  $('#keys').hidden = false;
  await refresh();
}

const dateText = (iso) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : 'never');
const projectName = (exid) => projects.find((p) => p.exid === exid)?.name ?? exid;
const limitsText = (key) =>
  [
    key.rate_limit ? `${key.rate_limit.requests} requests / ${key.rate_limit.window_seconds} s` : 'no rate limit',
    key.allowed_ips.length ? `from ${key.allowed_ips.join(', ')}` : 'from anywhere',
  ].join('; ');

function button(label, onClick, extra = {}) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  Object.assign(b.dataset, extra);
  b.addEventListener('click', onClick);
  return b;
}

// Column names, repeated on each cell for the phone layout, where each row is a card (keys.css).
const COLUMNS = ['Name', 'Status', 'Projects', 'Scopes', 'Expires', 'Limits', 'Last used', 'Actions'];

function cell(row, text) {
  const td = row.insertCell();
  td.textContent = text;
  td.dataset.label = COLUMNS[td.cellIndex];
  return td;
}

/** How often the list is read again while the page is in view. */
const USAGE_EVERY_MS = 15_000;

/**
 * Reads the keys again and updates "Last used" in place, so focus and the scroll position stay where
 * they are; a list that changed otherwise (a key added, revoked or expired elsewhere) is drawn again,
 * unless the person is on one of its buttons.
 */
async function refreshUsage() {
  const keys = await api('GET', '/v2/api-keys');
  const rows = [...$('#key-table tbody').rows];
  const same = rows.length === keys.length && keys.every((k, i) => rows[i].dataset.keyId === k.id && rows[i].dataset.status === k.status);
  if (!same) {
    if (!$('#key-table').contains(document.activeElement)) await refresh();
    return;
  }
  keys.forEach((k, i) => {
    const td = rows[i].querySelector('td[data-label="Last used"]');
    const text = dateText(k.last_used_at);
    if (td && td.textContent !== text) td.textContent = text;
  });
}

async function refresh() {
  const keys = await api('GET', '/v2/api-keys');
  const body = $('#key-table tbody');
  body.replaceChildren();
  $('#no-keys').hidden = keys.length > 0;
  for (const key of keys) {
    const row = body.insertRow();
    row.dataset.keyId = key.id;
    row.dataset.keyName = key.name;
    row.dataset.status = key.status;
    const name = document.createElement('th');
    name.scope = 'row';
    name.textContent = key.name;
    row.append(name);
    const status = cell(row, key.status);
    status.className = `status status-${key.status}`;
    cell(row, key.projects.map(projectName).join(', ') || 'none');
    cell(row, key.scopes.join(', ') || 'none');
    cell(row, dateText(key.expires_at));
    cell(row, limitsText(key)).className = 'limits';
    cell(row, dateText(key.last_used_at));
    const actions = row.insertCell();
    actions.className = 'actions';
    actions.dataset.label = 'Actions';
    if (key.status === 'valid') {
      actions.append(
        button('Edit', () => openKeyDialog(key), { action: 'edit' }),
        button('Regenerate', () => regenerate(key), { action: 'regenerate' }),
        button('Revoke', () => revoke(key), { action: 'revoke' }),
      );
    } else {
      const why = document.createElement('p');
      why.className = 'why';
      why.textContent = `This key is ${key.status}: it cannot be edited or regenerated. Create a new key instead.`;
      actions.append(why);
    }
    actions.append(
      button('Test', () => openTest(key), { action: 'test' }),
      button('Delete', () => remove(key), { action: 'delete' }),
    );
    for (const b of actions.querySelectorAll('button')) b.setAttribute('aria-label', `${b.textContent} ${key.name}`);
    // Revoke and Delete both stop the key; the descriptions say how they differ.
    actions.querySelector('[data-action=revoke]')?.setAttribute('aria-describedby', 'revoke-help');
    actions.querySelector('[data-action=delete]')?.setAttribute('aria-describedby', 'delete-help');
  }
}

function confirmAction(title, text, yes = 'Yes') {
  const dialog = $('#confirm-dialog');
  $('#confirm-title').textContent = title;
  $('#confirm-text').textContent = text;
  $('#confirm-yes').textContent = yes;
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) => dialog.addEventListener('close', () => resolve(dialog.returnValue === 'yes'), { once: true }));
}

function reveal(key) {
  $('#reveal-name').textContent = key.name;
  $('#reveal-value').value = key.key;
  $('#reveal').hidden = false;
  $('#reveal').focus();
  $('#reveal-value').select();
}

function hideReveal() {
  $('#reveal-value').value = '';
  $('#reveal-name').textContent = '';
  $('#reveal').hidden = true;
  $('#new-key').focus();
}

async function copyValue() {
  await navigator.clipboard.writeText($('#reveal-value').value);
  say('The key value is on your clipboard.');
}

async function regenerate(key) {
  if (
    !(await confirmAction(
      `Regenerate “${key.name}”?`,
      'A new value replaces the current one, which stops working at once. Programs using it will get 401 until you give them the new value.',
      'Regenerate',
    ))
  )
    return;
  try {
    const fresh = await api('POST', `/v2/api-keys/${key.id}/regenerate`);
    reveal(fresh);
    say(`“${key.name}” has a new value; the old one no longer works.`);
    await refresh();
  } catch (err) {
    say(err.message);
  }
}

async function revoke(key) {
  if (
    !(await confirmAction(
      `Revoke “${key.name}”?`,
      'It stops working at once and cannot be brought back. It stays in this list, marked revoked, for the record; delete it later if you want it gone.',
      'Revoke key',
    ))
  )
    return;
  try {
    await api('POST', `/v2/api-keys/${key.id}/revoke`);
    say(`“${key.name}” is revoked.`);
    await refresh();
  } catch (err) {
    say(err.message);
  }
}

async function remove(key) {
  if (
    !(await confirmAction(
      `Delete “${key.name}”?`,
      'It stops working at once and is removed from this list, so nothing of it stays here. To keep it listed for the record, revoke it instead.',
      'Delete key',
    ))
  )
    return;
  try {
    await api('DELETE', `/v2/api-keys/${key.id}`);
    say(`“${key.name}” is deleted.`);
    await refresh();
  } catch (err) {
    say(err.message);
  }
}

function checkbox(name, value, label, checked, note) {
  const id = `${name}-${value}`.replace(/[^A-Za-z0-9_-]/g, '_');
  const wrap = document.createElement('div');
  wrap.className = 'check';
  const input = document.createElement('input');
  Object.assign(input, { type: 'checkbox', id, name, value, checked });
  const lab = document.createElement('label');
  lab.htmlFor = id;
  lab.textContent = label;
  wrap.append(input, lab);
  if (note) {
    const small = document.createElement('small');
    small.id = `${id}-note`;
    small.textContent = note;
    input.setAttribute('aria-describedby', small.id);
    wrap.append(small);
  }
  return wrap;
}

function openKeyDialog(key = null) {
  editing = key;
  $('#key-dialog-title').textContent = key ? `Edit “${key.name}”` : 'Create a key';
  $('#key-save').textContent = key ? 'Save changes' : 'Create key';
  $('#key-error').textContent = '';
  $('#key-name').value = key?.name ?? '';
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  $('#key-expiry').min = tomorrow;
  $('#key-expiry').value = (key ? key.expires_at : new Date(Date.now() + 90 * 86_400_000).toISOString()).slice(0, 10);

  const projectBox = $('#key-projects');
  projectBox.replaceChildren(projectBox.querySelector('legend'));
  if (projects.length === 0)
    projectBox.append(
      Object.assign(document.createElement('p'), { textContent: 'You are a member of no project yet: a key without projects reaches nothing.' }),
    );
  for (const p of projects) projectBox.append(checkbox('projects', p.exid, p.name, key?.projects.includes(p.exid) ?? false));

  const scopeBox = $('#key-scopes');
  scopeBox.replaceChildren();
  const groups = [...new Set(scopes.map((s) => s.group))];
  for (const group of groups) {
    const fs = document.createElement('fieldset');
    fs.append(Object.assign(document.createElement('legend'), { textContent: `Scopes: ${group}` }));
    for (const s of scopes.filter((x) => x.group === group)) {
      const note = s.opens_endpoints ? s.description : `${s.description}. Granting it changes nothing today.`;
      const box = checkbox('scopes', s.scope, s.scope, key?.scopes.includes(s.scope) ?? false, note);
      if (!s.opens_endpoints) box.classList.add('opens-nothing');
      fs.append(box);
    }
    scopeBox.append(fs);
  }
  $('#key-rate-requests').value = key?.rate_limit?.requests ?? '';
  $('#key-rate-window').value = key?.rate_limit?.window_seconds ?? '';
  $('#key-allowed-ips').value = (key?.allowed_ips ?? []).join('\n');
  $('#key-dialog').showModal();
  $('#key-name').focus();
}

async function saveKey(event) {
  event.preventDefault();
  const form = $('#key-form');
  const body = {
    name: $('#key-name').value.trim(),
    // The end of the chosen day, UTC: a key "expiring on the 3rd" works through the 3rd.
    expires_at: `${$('#key-expiry').value}T23:59:59.000Z`,
    projects: [...form.querySelectorAll('input[name=projects]:checked')].map((i) => i.value),
    scopes: [...form.querySelectorAll('input[name=scopes]:checked')].map((i) => i.value),
  };
  if (!body.name) {
    $('#key-error').textContent = 'Give the key a name.';
    return;
  }
  const requests = $('#key-rate-requests').value.trim();
  const windowSeconds = $('#key-rate-window').value.trim();
  if (!requests !== !windowSeconds) {
    $('#key-error').textContent = 'Give both the number of requests and the window, or neither.';
    return;
  }
  body.rate_limit = requests ? { requests: Number(requests), window_seconds: Number(windowSeconds) } : null;
  body.allowed_ips = $('#key-allowed-ips')
    .value.split(/[\s,]+/)
    .filter(Boolean);
  try {
    if (editing) {
      await api('PATCH', `/v2/api-keys/${editing.id}`, body);
      say(`“${body.name}” is saved.`);
    } else {
      const created = await api('POST', '/v2/api-keys', body);
      reveal(created);
      say(`“${created.name}” is created.`);
    }
    $('#key-dialog').close();
    await refresh();
    if (!editing) $('#reveal').focus();
  } catch (err) {
    $('#key-error').textContent = err.message;
  }
}

let testing = null;
function openTest(key) {
  testing = key;
  $('#test-title').textContent = `Test “${key.name}”`;
  $('#test-result').replaceChildren();
  $('#test-dialog').showModal();
}

async function runTest(event) {
  event.preventDefault();
  const body = { method: $('#test-method').value, path: $('#test-path').value.trim() };
  if ($('#test-project').value.trim()) body.project_exid = $('#test-project').value.trim();
  if ($('#test-ip').value.trim()) body.ip = $('#test-ip').value.trim();
  const out = $('#test-result');
  try {
    const e = await api('POST', `/v2/api-keys/${testing.id}/explain`, body);
    const head = document.createElement('p');
    head.className = e.allowed ? 'allowed' : 'refused';
    head.textContent = e.allowed ? `Allowed: ${e.message}` : `Refused with ${e.status} ${e.code}: ${e.message}`;
    const list = document.createElement('ol');
    for (const s of e.steps) list.append(Object.assign(document.createElement('li'), { textContent: `${s.step} (${s.outcome}): ${s.detail}` }));
    out.replaceChildren(head, list);
  } catch (err) {
    out.replaceChildren(Object.assign(document.createElement('p'), { className: 'error', textContent: err.message }));
  }
}

document.addEventListener('DOMContentLoaded', () => {
  $('#sign-in-form').addEventListener('submit', signIn);
  $('#sign-out').addEventListener('click', async () => {
    await api('DELETE', '/v2/auth/logout').catch(() => {});
    signedOut('You are signed out.');
  });
  $('#new-key').addEventListener('click', () => openKeyDialog());
  $('#key-form').addEventListener('submit', saveKey);
  $('#key-cancel').addEventListener('click', () => $('#key-dialog').close());
  $('#copy').addEventListener('click', () => copyValue().catch((err) => say(`Copying failed (${err.message}); select the value and copy it by hand.`)));
  $('#reveal-done').addEventListener('click', hideReveal);
  $('#test-form').addEventListener('submit', runTest);
  $('#test-close').addEventListener('click', () => $('#test-dialog').close());
  if (sessionStorage.getItem(TOKEN)) start().catch(() => signedOut());
  // Keys are used elsewhere (a script, a terminal): the list is read again whenever the page is looked
  // at again, and every little while as long as it is in view, so "Last used" is current without a
  // reload. Not under an open dialog, which would lose what is being typed there.
  const refreshWhenSeen = () => {
    if (document.visibilityState !== 'visible' || $('#keys').hidden || document.querySelector('dialog[open]')) return;
    refreshUsage().catch(() => {});
  };
  document.addEventListener('visibilitychange', refreshWhenSeen);
  window.addEventListener('focus', refreshWhenSeen);
  setInterval(refreshWhenSeen, USAGE_EVERY_MS);
});
