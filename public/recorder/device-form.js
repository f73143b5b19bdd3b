// Adding a device or changing one (admins): the form of `#/devices/new` and `#/devices/<id>/edit`,
// sent to `POST /api/devices` or `PUT /api/devices/{id}`. What is wrong is said beside its field in
// plain words, first by the page (nothing typed, not an address), then by the recorder (no such file,
// not a video, an unknown time zone), whose error names the field in `details`.

const $ = (sel) => document.querySelector(sel);

/** The recorder's field names, and the input each belongs to. */
const FIELDS = {
  name: 'f-name',
  timezone: 'f-timezone',
  'stream_config.stream_uri': 'f-stream-uri',
  'stream_config.sub_stream_uri': 'f-sub-stream-uri',
  'stream_config.snapshot_uri': 'f-snapshot-uri',
  'stream_config.path': 'f-path',
  'credentials.username': 'f-username',
  'credentials.password': 'f-password',
  'storage_config.recording_mode': 'f-mode',
};

/** "must be …" → "This must be …." : a recorder message made into a sentence that stands alone. */
function plainWords(message) {
  let text = String(message).trim();
  if (/^(must|is|cannot|has)\b/.test(text)) text = `This ${text}`;
  text = text.replace(/\bmust NOT have more than (\d+) characters/, 'is too long (at most $1 characters)');
  text = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function isTimeZone(tz) {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function hasScheme(value, schemes) {
  try {
    return schemes.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

export class DeviceForm {
  /** @param {{ api: Function, saved: (device: object, created: boolean) => void, SignedOut: Function }} deps */
  constructor(deps) {
    this.deps = deps;
    this.device = null; // the device being changed; null while adding
    $('#device-form').addEventListener('submit', (e) => this.submit(e));
    for (const radio of document.querySelectorAll('#f-type input')) radio.addEventListener('change', () => this.showType());
    const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    $('#time-zones').replaceChildren(...zones.map((z) => Object.assign(document.createElement('option'), { value: z })));
  }

  get type() {
    return document.querySelector('#f-type input:checked').value;
  }

  showType() {
    $('#ip-fields').hidden = this.type !== 'ip';
    $('#file-fields').hidden = this.type !== 'file';
  }

  /** Empty for a new device, or filled with `device`'s settings. */
  open(device) {
    this.device = device;
    this.clearErrors();
    const d = device ?? { name: '', type: 'ip', timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC', stream_config: {}, credentials: {} };
    $('#edit-title').textContent = device ? `Edit ${device.name}` : 'Add a device';
    document.title = `${$('#edit-title').textContent} · Overlook recorder`;
    $('#device-save').textContent = device ? 'Save changes' : 'Add device';
    const back = device ? `#/devices/${encodeURIComponent(device.id)}` : '#/';
    $('#edit-back').href = $('#edit-cancel').href = back;
    $('#edit-back').textContent = device ? `← ${device.name}` : '← All devices';
    $('#f-name').value = d.name;
    for (const radio of document.querySelectorAll('#f-type input')) {
      radio.checked = radio.value === d.type;
      radio.disabled = Boolean(device);
    }
    $('#f-type-hint').hidden = !device;
    $('#f-timezone').value = d.timezone;
    $('#f-stream-uri').value = d.stream_config.stream_uri ?? '';
    $('#f-sub-stream-uri').value = d.stream_config.sub_stream_uri ?? '';
    $('#f-snapshot-uri').value = d.stream_config.snapshot_uri ?? '';
    $('#f-path').value = d.stream_config.path ?? '';
    $('#f-username').value = d.credentials.username ?? '';
    $('#f-password').value = '';
    $('#f-password-hint').textContent = d.credentials.has_password ? 'A password is stored; leave this empty to keep it.' : '';
    $('#f-mode').value = d.storage_config?.recording_mode ?? 'always';
    $('#f-share').checked = d.share_with_platform ?? true;
    this.showType();
  }

  clearErrors() {
    $('#device-form-error').textContent = '';
    for (const id of Object.values(FIELDS)) {
      $(`#${id}`).removeAttribute('aria-invalid');
      $(`#${id}-error`).textContent = '';
    }
  }

  /** Says `message` beside the field (or above the form when the recorder names no field we show). */
  fieldError(field, message) {
    const id = FIELDS[field];
    if (!id || $(`#${id}`).closest('[hidden]')) {
      if (!$('#device-form-error').textContent) $('#device-form-error').textContent = plainWords(message);
      return;
    }
    $(`#${id}`).setAttribute('aria-invalid', 'true');
    if (!$(`#${id}-error`).textContent) $(`#${id}-error`).textContent = plainWords(message);
  }

  /** The problems the page can see for itself, as [field, message]. */
  check() {
    const problems = [];
    if (!$('#f-name').value.trim()) problems.push(['name', 'Give the device a name, e.g. North gate.']);
    const tz = $('#f-timezone').value.trim();
    if (!tz) problems.push(['timezone', 'Choose the time zone where the camera is, e.g. Europe/Berlin.']);
    else if (!isTimeZone(tz)) problems.push(['timezone', `${tz} is not a time zone; choose one from the list, e.g. Europe/Berlin.`]);
    if (this.type === 'ip') {
      const main = $('#f-stream-uri').value.trim();
      if (!main) problems.push(['stream_config.stream_uri', 'Enter the RTSP address of the camera’s main stream, e.g. rtsp://192.0.2.10:554/stream1.']);
      else if (!hasScheme(main, ['rtsp:', 'rtsps:'])) problems.push(['stream_config.stream_uri', 'This must be an address starting with rtsp:// or rtsps://.']);
      const sub = $('#f-sub-stream-uri').value.trim();
      if (sub && !hasScheme(sub, ['rtsp:', 'rtsps:']))
        problems.push(['stream_config.sub_stream_uri', 'This must be an address starting with rtsp:// or rtsps://.']);
      const snap = $('#f-snapshot-uri').value.trim();
      if (snap && !hasScheme(snap, ['http:', 'https:']))
        problems.push(['stream_config.snapshot_uri', 'This must be an address starting with http:// or https://.']);
    } else if (!$('#f-path').value.trim()) {
      problems.push(['stream_config.path', 'Enter the full path of a video file in the recorder’s media folder.']);
    }
    return problems;
  }

  /** The request body: everything for a new device; only what changed for an existing one. */
  body() {
    const trimmed = (id) => $(`#${id}`).value.trim();
    const stream =
      this.type === 'ip'
        ? Object.fromEntries(
            [
              ['stream_uri', trimmed('f-stream-uri')],
              ['sub_stream_uri', trimmed('f-sub-stream-uri')],
              ['snapshot_uri', trimmed('f-snapshot-uri')],
            ].filter(([, v]) => v),
          )
        : { path: trimmed('f-path') };
    const all = {
      name: trimmed('f-name'),
      timezone: trimmed('f-timezone'),
      stream_config: stream,
      storage_config: { recording_mode: $('#f-mode').value },
      share_with_platform: $('#f-share').checked,
    };
    const creds = {};
    if (this.type === 'ip' && trimmed('f-username') !== (this.device?.credentials.username ?? '')) creds.username = trimmed('f-username');
    if (this.type === 'ip' && $('#f-password').value) creds.password = $('#f-password').value;
    if (Object.keys(creds).length) all.credentials = creds;
    if (!this.device) return { type: this.type, ...all };
    // A change of anything but sharing restarts the recording: only what differs is sent.
    const d = this.device;
    const same = {
      name: all.name === d.name,
      timezone: all.timezone === d.timezone,
      stream_config: JSON.stringify(stream) === JSON.stringify(Object.fromEntries(Object.entries(d.stream_config).filter(([, v]) => v))),
      storage_config: all.storage_config.recording_mode === d.storage_config.recording_mode,
      share_with_platform: all.share_with_platform === d.share_with_platform,
    };
    return Object.fromEntries(Object.entries(all).filter(([k]) => !same[k]));
  }

  async submit(event) {
    event.preventDefault();
    this.clearErrors();
    const problems = this.check();
    if (problems.length) return this.showProblems(problems);
    const body = this.body();
    const button = $('#device-save');
    if (this.device && Object.keys(body).length === 0) return this.deps.saved(this.device, false, false);
    button.disabled = true;
    try {
      const device = this.device
        ? await this.deps.api('PUT', `/api/devices/${encodeURIComponent(this.device.id)}`, body)
        : await this.deps.api('POST', '/api/devices', body);
      this.deps.saved(device, !this.device, true);
    } catch (err) {
      if (err instanceof this.deps.SignedOut) return;
      const details = Array.isArray(err.details) ? err.details.filter((d) => d && typeof d.field === 'string') : [];
      if (details.length) this.showProblems(details.map((d) => [d.field, d.message]));
      else $('#device-form-error').textContent = err.status === 403 ? 'Only a recorder admin can add or change devices.' : plainWords(err.message);
    } finally {
      button.disabled = false;
    }
  }

  showProblems(problems) {
    for (const [field, message] of problems) this.fieldError(field, message);
    // The first field with a problem takes the focus, so a keyboard or screen reader user lands on it.
    document.querySelector('#device-form [aria-invalid=true]')?.focus();
  }
}
