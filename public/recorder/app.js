// The recorder's web UI: plain browser JavaScript against the recorder's own /api, no build step.
// The access token lives in sessionStorage (gone when the tab closes); every call sends it as
// `Authorization: Bearer`, and only the video URLs carry it as `?token=` (players cannot set headers).
// A 401 anywhere returns to sign-in. Pages: `#/` lists the devices, `#/devices/<id>` shows one.
import { Player } from './player.js';
import { Timeline } from './timeline.js';
import { clock, dayIn, instantAt, parseClock, secondsOfDay } from './time.js';

const $ = (sel) => document.querySelector(sel);
const TOKEN = 'overlook.recorder.token';
const token = () => sessionStorage.getItem(TOKEN) ?? '';

let deviceTimer = null;
let current = null; // the device shown: {id, name, timezone, …}
/** Bumped on every navigation, so that a page still loading does not show itself over the next one. */
let routeGen = 0;

function say(text) {
  $('#status').textContent = text;
}

class SignedOut extends Error {}

async function api(method, path, body) {
  const headers = { authorization: `Bearer ${token()}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status === 401) {
    signedOut('Your session has ended; sign in again.');
    throw new SignedOut();
  }
  const data = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok) throw new Error(data?.message ?? `The recorder answered ${res.status}`);
  return data;
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

function show(section) {
  for (const id of ['sign-in', 'devices', 'device']) $(`#${id}`).hidden = id !== section;
  const signedIn = section !== 'sign-in';
  $('#sign-out').hidden = !signedIn;
  $('#who').hidden = !signedIn;
}

function leaveDevice() {
  player.stop();
  timeline.stop();
  clearInterval(deviceTimer);
  deviceTimer = null;
  current = null;
}

/** Back to sign-in; `message` says why (without one, what the status line says stays). */
function signedOut(message) {
  leaveDevice();
  sessionStorage.removeItem(TOKEN);
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

function stateBadge(state) {
  const span = document.createElement('span');
  span.className = `state state-${state}`;
  span.textContent = STATE_WORDS[state] ?? state;
  return span;
}

async function showDevices(gen) {
  const devices = await api('GET', '/api/devices');
  if (gen !== routeGen) return;
  const list = $('#device-list');
  list.replaceChildren(
    ...devices.map((d) => {
      const li = document.createElement('li');
      li.dataset.deviceId = d.id;
      const a = document.createElement('a');
      a.href = `#/devices/${encodeURIComponent(d.id)}`;
      a.textContent = d.name;
      const meta = document.createElement('span');
      meta.className = 'meta';
      meta.textContent = `${d.type === 'file' ? 'file' : 'camera'} · ${d.timezone}${d.share_with_platform === false ? ' · kept off the platform' : ''}`;
      li.append(a, ' ', stateBadge(d.state), ' ', meta);
      if (d.state_reason) {
        const why = document.createElement('p');
        why.className = 'reason';
        why.textContent = d.state_reason;
        li.append(why);
      }
      return li;
    }),
  );
  $('#no-devices').hidden = devices.length > 0;
  show('devices');
  await showLink(gen);
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
  $('#device-state').replaceWith(Object.assign(stateBadge(d.state), { id: 'device-state' }));
  $('#device-reason').textContent = d.state_reason ?? '';
}

async function showDevice(id, gen) {
  const d = await api('GET', `/api/devices/${encodeURIComponent(id)}`);
  if (gen !== routeGen) return; // the person went elsewhere meanwhile
  current = d;
  $('#device-title').textContent = d.name;
  document.title = `${d.name} · Overlook recorder`;
  for (const el of document.querySelectorAll('.tz')) el.textContent = d.timezone;
  renderDeviceState(d);
  show('device');
  playLive();
  const today = dayIn(d.timezone);
  $('#day').value = today;
  $('#day').max = today;
  await timeline.load(d, today);
  if (current !== d) return;
  const last = timeline.lastSeconds(30);
  if (last !== null) $('#export-start').value = last;
  // The state (recording, failed…) and today's bar keep up while the page is open.
  deviceTimer = setInterval(async () => {
    if (!current) return;
    try {
      renderDeviceState(await api('GET', `/api/devices/${encodeURIComponent(current.id)}`));
      await timeline.refresh();
    } catch (err) {
      if (!(err instanceof SignedOut)) say(err.message);
    }
  }, 10_000);
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
  $('#mode').textContent = `Recorded, from ${at.toLocaleString(undefined, { timeZone: current.timezone })}`;
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
    const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'footage.mp4';
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
      `Downloaded ${name} (${(blob.size / 1e6).toFixed(1)} MB)` + (gap > 0.5 ? `; ${Math.round(gap)} s of the range were not recorded and are left out.` : '.');
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
  const m = /^#\/devices\/([^/]+)$/.exec(location.hash);
  try {
    if (m) await showDevice(decodeURIComponent(m[1]), gen);
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
window.addEventListener('hashchange', route);
window.addEventListener('pagehide', () => player.stop());
route();
