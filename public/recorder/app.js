// The recorder's web UI: plain browser JavaScript against the recorder's own /api, no build step.
// The access token lives in sessionStorage (gone when the tab closes); every call sends it as
// `Authorization: Bearer`, and only the video URLs carry it as `?token=` (players cannot set headers).
// A 401 anywhere returns to sign-in. Pages: `#/` lists the devices, `#/devices/<id>` shows one,
// `#/devices/new` and `#/devices/<id>/edit` add and change one (admins). The page polls the recorder
// every few seconds while it is visible (states, the day's recordings), so nothing needs a reload.
import { DeviceForm } from './device-form.js';
import { Player } from './player.js';
import { Timeline } from './timeline.js';
import { clock, dayIn, instantAt, parseClock, secondsOfDay, wallClock } from './time.js';

const $ = (sel) => document.querySelector(sel);
const TOKEN = 'overlook.recorder.token';
const token = () => sessionStorage.getItem(TOKEN) ?? '';

/** How often an open page asks the recorder what changed. */
const POLL_MS = 3000;

let current = null; // the device shown: {id, name, timezone, …}
/** Whether the signed-in user is a recorder admin (null: not asked yet). */
let isAdmin = null;
/** Bumped on every navigation, so that a page still loading does not show itself over the next one. */
let routeGen = 0;

function say(text) {
  $('#status').textContent = text;
}

class SignedOut extends Error {}

/** An error answer of the recorder: its sentence, its status and the fields it names (`details`). */
class ApiProblem extends Error {
  constructor(status, data) {
    super(data?.message ?? `The recorder answered ${status}`);
    this.status = status;
    this.details = data?.details;
  }
}

async function api(method, path, body) {
  const headers = { authorization: `Bearer ${token()}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status === 401) {
    signedOut('Your session has ended; sign in again.');
    throw new SignedOut();
  }
  const data = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok) throw new ApiProblem(res.status, data);
  return data;
}

// The page keeps up with the recorder by asking again every POLL_MS while the tab is visible (a
// hidden tab asks nothing, and asks at once when shown again). One task per page: the route's.
let poll = { timer: null, task: null, busy: false, gen: 0 };
let pollFailed = false;

function keepUp(gen, task) {
  stopKeepingUp();
  poll = { timer: setTimeout(() => pollNow(), POLL_MS), task, busy: false, gen };
}

function stopKeepingUp() {
  clearTimeout(poll.timer);
  poll = { timer: null, task: null, busy: false, gen: 0 };
}

async function pollNow() {
  const p = poll;
  if (!p.task || p.busy || p.gen !== routeGen) return;
  clearTimeout(p.timer);
  if (!document.hidden) {
    p.busy = true;
    try {
      await p.task();
      if (pollFailed) say('');
      pollFailed = false;
    } catch (err) {
      if (err instanceof SignedOut) return;
      pollFailed = true;
      say(err instanceof ApiProblem ? err.message : 'The recorder cannot be reached just now; trying again…');
    } finally {
      p.busy = false;
    }
  }
  if (poll === p) p.timer = setTimeout(() => pollNow(), POLL_MS);
}
document.addEventListener('visibilitychange', () => document.hidden || pollNow());

/** Writes `text` only when it differs: a live region would otherwise repeat itself on every poll. */
function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/** A line under the video: why it is not playing yet, or what is playing instead of what was asked. */
let noteIsProblem = false;
function note(text, problem = false) {
  $('#player-note').textContent = text;
  noteIsProblem = problem;
}

const player = new Player($('#video'), {
  token,
  onTransport: (label) => {
    $('#transport').textContent = label;
    $('#transport').dataset.transport = label;
    if (noteIsProblem && label !== 'connecting…') note('');
  },
  onProblem: (text) => note(text, true),
  onUnauthorized: () => signedOut('Your session has ended; sign in again.'),
});

const timeline = new Timeline({ api, onSeek: (at, asked) => playRecorded(at, asked) });
const deviceForm = new DeviceForm({ api, SignedOut, saved: deviceSaved });

function show(section) {
  for (const id of ['sign-in', 'devices', 'device', 'device-edit']) $(`#${id}`).hidden = id !== section;
  const signedIn = section !== 'sign-in';
  $('#sign-out').hidden = !signedIn;
  $('#who').hidden = !signedIn;
}

function leaveDevice() {
  stopKeepingUp();
  if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
  player.stop();
  timeline.stop();
  current = null;
}

/** After a navigation, the new page's heading takes the focus (the link followed is gone). */
function focusHeading(selector) {
  if (document.activeElement === document.body || document.activeElement?.closest('[hidden]')) $(selector).focus({ preventScroll: true });
}

/** Back to sign-in; `message` says why (without one, what the status line says stays). */
function signedOut(message) {
  leaveDevice();
  sessionStorage.removeItem(TOKEN);
  isAdmin = null;
  show('sign-in');
  if (message !== undefined) say(message);
  $('#email').focus();
}

async function signIn(event) {
  event.preventDefault();
  $('#sign-in-error').textContent = '';
  const res = await fetch('/api/users/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: $('#email').value, password: $('#password').value }),
  }).catch(() => null);
  const data = res ? await res.json().catch(() => ({})) : {};
  if (!res?.ok) {
    $('#sign-in-error').textContent =
      res?.status === 401 || res?.status === 400
        ? 'Wrong e-mail or password.'
        : res?.status === 429
          ? 'Too many attempts; wait a moment and try again.'
          : (data.message ?? 'The recorder could not be reached.');
    $('#password').select();
    return;
  }
  sessionStorage.setItem(TOKEN, data.access_token);
  $('#password').value = '';
  $('#who').textContent = `Signed in as ${$('#email').value}`;
  sessionStorage.setItem(`${TOKEN}.who`, $('#email').value);
  say('');
  await route();
}

async function signOut() {
  leaveDevice(); // ends a WebRTC session while the token still works
  await fetch('/api/users/login', { method: 'DELETE', headers: { authorization: `Bearer ${token()}` } }).catch(() => {});
  location.hash = '#/';
  signedOut('Signed out.');
}

const STATE_WORDS = { recording: 'Recording', streaming: 'Starting', stopped: 'Stopped', failed: 'Failed' };

function setBadge(el, state) {
  el.className = `state state-${state}`;
  setText(el, STATE_WORDS[state] ?? state);
}

/** Whether the signed-in user may add and change devices (the user list answers admins only). */
async function knowAdmin() {
  if (isAdmin !== null) return isAdmin;
  isAdmin = await api('GET', '/api/users').then(
    () => true,
    (err) => {
      if (err instanceof SignedOut) throw err;
      return false;
    },
  );
  return isAdmin;
}

/** The list, updated in place: an item keeps its element (and a link its focus) from one poll to the next. */
function renderDevices(devices) {
  const list = $('#device-list');
  const old = new Map([...list.children].map((li) => [li.dataset.deviceId, li]));
  const items = devices.map((d) => {
    let li = old.get(d.id);
    if (!li) {
      li = document.createElement('li');
      li.dataset.deviceId = d.id;
      const a = document.createElement('a');
      a.href = `#/devices/${encodeURIComponent(d.id)}`;
      const meta = Object.assign(document.createElement('span'), { className: 'meta' });
      const why = Object.assign(document.createElement('p'), { className: 'reason' });
      li.append(a, ' ', document.createElement('span'), ' ', meta, why);
    }
    setText(li.querySelector('a'), d.name);
    setBadge(li.querySelector('a + span'), d.state);
    setText(
      li.querySelector('.meta'),
      `${d.type === 'file' ? 'file' : 'camera'} · ${d.timezone}${d.share_with_platform === false ? ' · kept off the platform' : ''}`,
    );
    setText(li.querySelector('.reason'), d.state_reason ?? '');
    li.querySelector('.reason').hidden = !d.state_reason;
    return li;
  });
  if (items.length !== list.children.length || items.some((li, i) => list.children[i] !== li)) list.replaceChildren(...items);
  $('#no-devices').hidden = devices.length > 0;
}

async function showDevices(gen) {
  const [devices, admin] = await Promise.all([api('GET', '/api/devices'), knowAdmin()]);
  if (gen !== routeGen) return;
  renderDevices(devices);
  $('#add-device').hidden = !admin;
  document.title = 'Devices · Overlook recorder';
  show('devices');
  focusHeading('#devices-title');
  await showLink(gen);
  // States change as cameras connect and drop, and other admins add devices: the list keeps up.
  keepUp(gen, async () => renderDevices(await api('GET', '/api/devices')));
}

const LINK_WORDS = {
  unlinked: 'Not linked to a platform.',
  connecting: 'Connecting to',
  connected: 'Connected to',
  disconnected: 'Not connected now (retrying) to',
  revoked: 'The platform revoked this link. Link again with a new code from',
};

/** The platform link, for admins (the route is admin-only: a 403 hides the section). */
async function showLink(gen) {
  const res = await fetch('/api/link', { headers: { authorization: `Bearer ${token()}` } }).catch(() => null);
  if (gen !== routeGen) return;
  if (!res?.ok) {
    $('#platform-link').hidden = true;
    return;
  }
  const link = await res.json();
  const backlog = link.backlog.items ? ` ${link.backlog.items} frames and events waiting to be sent.` : '';
  $('#link-state').textContent =
    link.state === 'unlinked' ? LINK_WORDS.unlinked : `${LINK_WORDS[link.state] ?? link.state} ${link.platform_url} (project ${link.project_exid}).${backlog}`;
  $('#link-error').textContent = link.state === 'connected' ? '' : (link.last_error ?? '');
  $('#link-form').hidden = !(link.state === 'unlinked' || link.state === 'revoked');
  $('#unlink').hidden = link.state === 'unlinked';
  $('#platform-link').hidden = false;
}

async function linkPlatform(event) {
  event.preventDefault();
  const button = $('#link-form button');
  button.disabled = true;
  try {
    await api('POST', '/api/link', { platform_url: $('#link-url').value, code: $('#link-code').value });
    $('#link-code').value = '';
    say('Linked to the platform.');
  } catch (err) {
    if (!(err instanceof SignedOut)) say(err.message);
  } finally {
    button.disabled = false;
  }
  await showLink(routeGen);
}

async function unlinkPlatform() {
  if (!confirm('Unlink from the platform? Frames not yet sent are dropped.')) return;
  try {
    await api('DELETE', '/api/link');
    say('Unlinked from the platform.');
  } catch (err) {
    if (!(err instanceof SignedOut)) say(err.message);
  }
  await showLink(routeGen);
}

function renderDeviceState(d) {
  setBadge($('#device-state'), d.state);
  setText($('#device-reason'), d.state_reason ?? '');
}

/** A clip start for the export form once something is recorded, unless the person chose one. */
function suggestExportStart() {
  const last = timeline.lastSeconds(30);
  if (last !== null && !$('#export-start').value) $('#export-start').value = last;
}

async function showDevice(id, gen) {
  const [d, admin] = await Promise.all([api('GET', `/api/devices/${encodeURIComponent(id)}`), knowAdmin()]);
  if (gen !== routeGen) return; // the person went elsewhere meanwhile
  current = d;
  $('#device-title').textContent = d.name;
  document.title = `${d.name} · Overlook recorder`;
  for (const el of document.querySelectorAll('.tz')) el.textContent = d.timezone;
  $('#edit-device').hidden = !admin;
  $('#edit-device').href = `#/devices/${encodeURIComponent(d.id)}/edit`;
  renderDeviceState(d);
  $('#export-start').value = '';
  $('#export-status').textContent = '';
  show('device');
  focusHeading('#device-title');
  playLive();
  const today = dayIn(d.timezone);
  $('#day').value = today;
  $('#day').max = today;
  await timeline.load(d, today);
  if (current !== d) return;
  suggestExportStart();
  // The state (starting, recording, failed…) and the day's bar keep up while the page is open.
  keepUp(gen, async () => {
    const fresh = await api('GET', `/api/devices/${encodeURIComponent(d.id)}`);
    if (current !== d) return;
    renderDeviceState(fresh);
    await timeline.refresh();
    suggestExportStart();
  });
}

async function showEdit(id, gen) {
  const [device, admin] = await Promise.all([id ? api('GET', `/api/devices/${encodeURIComponent(id)}`) : null, knowAdmin()]);
  if (gen !== routeGen) return;
  if (!admin) {
    say('Only a recorder admin can add or change devices.');
    location.hash = id ? `#/devices/${encodeURIComponent(id)}` : '#/';
    return;
  }
  deviceForm.open(device);
  show('device-edit');
  focusHeading('#edit-title');
}

function deviceSaved(device, created, changed) {
  const recording = device.storage_config.recording_mode !== 'never';
  say(
    created
      ? `Added ${device.name}.${recording ? ' Recording starts in a moment.' : ''}`
      : changed
        ? `Saved the changes to ${device.name}.${recording ? ' Its recording restarts with them.' : ''}`
        : 'Nothing was changed.',
  );
  location.hash = `#/devices/${encodeURIComponent(device.id)}`;
}

function playLive() {
  note('');
  $('#mode').textContent = 'Live';
  $('#go-live').hidden = true;
  timeline.mark(null);
  player.live(current.id);
}

/** Recorded footage from `at`: the recorder's HLS playback playlist (`pos`), not a still. */
function playRecorded(at, asked = at) {
  if (!current) return;
  const local = (d) => clock(secondsOfDay(current.timezone, d));
  note(Math.abs(at - asked) > 1000 ? `Nothing was recorded at ${local(asked)}; playing the nearest recording, from ${local(at)}.` : '');
  $('#mode').textContent = `Recorded, from ${wallClock(current.timezone, at)}`;
  $('#go-live').hidden = false;
  $('#transport').textContent = 'connecting…';
  $('#transport').dataset.transport = '';
  timeline.mark(at);
  // The clip to export and the time field start where the person chose to look.
  $('#seek-time').value = $('#export-start').value = clock(secondsOfDay(current.timezone, at));
  player.recorded(current.id, at);
}

async function exportClip(event) {
  event.preventDefault();
  if (!current) return;
  const seconds = parseClock($('#export-start').value);
  const duration = Number($('#export-duration').value);
  const problem = seconds === null ? 'Give a start time.' : duration >= 5 && duration <= 7200 ? null : 'A clip is 5 seconds to 2 hours long.';
  if (problem) {
    $('#export-status').textContent = problem;
    return;
  }
  const start = instantAt(current.timezone, $('#day').value, seconds);
  const q = new URLSearchParams({ start_date: start.toISOString(), duration: String(duration) });
  $('#export-status').textContent = 'Preparing the clip…';
  $('#export-button').disabled = true;
  try {
    const res = await fetch(`/api/devices/${encodeURIComponent(current.id)}/footage?${q}`, { headers: { authorization: `Bearer ${token()}` } });
    if (res.status === 401) return signedOut('Your session has ended; sign in again.');
    if (!res.ok) {
      const data = await res.json().catch(() => null);
      $('#export-status').textContent = res.status === 404 ? 'Nothing was recorded in that range.' : (data?.message ?? `The recorder answered ${res.status}`);
      return;
    }
    const blob = await res.blob();
    // Named after the clip's true start (the keyframe at or before the one asked) on the device's
    // clock, as the form is: the same digits the person typed, not UTC.
    const from = new Date(res.headers.get('x-start-date') ?? start);
    const name = `footage-${current.name.replace(/[\\/:*?"<>|\s]+/g, '-')}-${wallClock(current.timezone, from).replace(' ', '_').replaceAll(':', '-')}.mp4`;
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    const gap = Number(res.headers.get('x-gap-seconds') ?? 0);
    $('#export-status').textContent =
      `Downloaded ${name} (${(blob.size / 1e6).toFixed(1)} MB, from ${clock(secondsOfDay(current.timezone, from))})` +
      (gap > 0.5 ? `; ${Math.round(gap)} s of the range were not recorded and are left out.` : '.');
  } catch {
    $('#export-status').textContent = 'The download was cut short; try again.';
  } finally {
    $('#export-button').disabled = false;
  }
}

async function route() {
  const gen = ++routeGen;
  leaveDevice();
  if (!token()) return signedOut();
  $('#who').textContent = `Signed in as ${sessionStorage.getItem(`${TOKEN}.who`) ?? ''}`;
  const hash = location.hash;
  const edit = /^#\/devices\/([^/]+)\/edit$/.exec(hash);
  const one = /^#\/devices\/([^/]+)$/.exec(hash);
  try {
    if (hash === '#/devices/new') await showEdit(null, gen);
    else if (edit) await showEdit(decodeURIComponent(edit[1]), gen);
    else if (one) await showDevice(decodeURIComponent(one[1]), gen);
    else await showDevices(gen);
  } catch (err) {
    if (!(err instanceof SignedOut)) say(err.message);
  }
}

$('#sign-in-form').addEventListener('submit', signIn);
$('#sign-out').addEventListener('click', signOut);
$('#go-live').addEventListener('click', () => current && playLive());
$('#export-form').addEventListener('submit', exportClip);
$('#link-form').addEventListener('submit', linkPlatform);
$('#unlink').addEventListener('click', unlinkPlatform);
$('#day').addEventListener('change', () => current && $('#day').value && timeline.load(current, $('#day').value).catch((err) => say(err.message)));
$('#seek-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const s = parseClock($('#seek-time').value);
  if (s !== null && current) timeline.seek(instantAt(current.timezone, $('#day').value, s));
});
// While recorded footage plays, the bar's cursor follows the frame on screen.
$('#video').addEventListener('timeupdate', () => {
  const at = $('#go-live').hidden ? null : player.playingDate();
  if (at) timeline.follow(at);
});
// Full screen: the player with its bar (mode, transport, Back to live), left with Esc or the button.
function toggleFullscreen() {
  if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
  else
    $('#player')
      .requestFullscreen()
      .catch(() => note('This browser did not allow full screen here.', true));
}
$('#fullscreen').hidden = !document.fullscreenEnabled;
$('#fullscreen').addEventListener('click', toggleFullscreen);
$('#video').addEventListener('dblclick', toggleFullscreen);
document.addEventListener('fullscreenchange', () => {
  $('#fullscreen').textContent = document.fullscreenElement ? 'Exit full screen' : 'Full screen';
});
window.addEventListener('hashchange', route);
window.addEventListener('pagehide', () => player.stop());
route();
