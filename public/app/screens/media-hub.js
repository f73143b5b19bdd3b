// A project's media hub: its clips, timelapses, compares, links and files with their render status;
// editors make clips and timelapses from a camera's recordings and watch them render, retry failed
// ones and delete items. Finished videos are watched in the page or downloaded (docs/project-features.md).
// What the API refuses is said in plain words beside the field it is about; a retry is offered only
// when the range now has recordings, since it would fail again otherwise.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, get } from '../lib/api.js';
import { html } from '../lib/html.js';
import { useApi, useImage } from '../lib/hooks.js';
import { ConfirmDialog } from '../lib/media-confirm.js';
import { download, fetchFile } from '../lib/media-download.js';
import { itemPath, unfinished, useMediaItems } from '../lib/media-items.js';
import { localInput, offsetLabel, withOffset } from '../lib/media-time.js';
import { actionError, fieldError, lengthAndSize, localTimes, plain } from '../lib/media-words.js';
import { projectTabs } from '../lib/tabs.js';
import { ErrorNote, Loaded, Loading, Screen, dateTime } from '../lib/ui.js';

const TYPES = { clip: 'Clip', timelapse: 'Timelapse', compare: 'Compare', url: 'Link', file: 'File' };
const STATUS = { pending: 'Queued', processing: 'Rendering', completed: 'Ready', failed: 'Failed' };
const WRITERS = new Set(['editor', 'admin', 'owner']);

const RANGE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
/** "Nov 12, 2026, 8:00 – 9:00 AM": the date once when both ends share it. */
const range = (from, to) => RANGE.formatRange(new Date(from), new Date(to));

/** What the status line says about an item being watched. */
function statusLine(item) {
  const name = `${TYPES[item.type]} “${item.title}”`;
  if (item.status === 'pending') return `${name} is queued for rendering.`;
  if (item.status === 'processing') return `${name} is rendering…`;
  if (item.status === 'completed') return `${name} is ready to watch or download.`;
  return `${name} failed: ${item.error ? localTimes(item.error) : 'no reason given'}.`;
}

export function MediaHub({ project }) {
  const info = useApi(`/v2/projects/${encodeURIComponent(project)}`);
  const name = info.data?.name ?? 'Project';
  return html`
    <${Screen} title=${`${name}: media hub`} heading=${name} tabs=${projectTabs(project, 'media')}>
      <${Loaded} result=${info}>${(p) => html`<${Hub} project=${project} canWrite=${WRITERS.has(p.role)} />`}<//>
    <//>
  `;
}

function Hub({ project, canWrite }) {
  const cameras = useApi(`/v2/projects/${encodeURIComponent(project)}/cameras`);
  const list = useMediaItems(project);
  const [watching, setWatching] = useState(null); // the id whose progress the status line follows
  const [note, setNote] = useState('');
  const [confirming, setConfirming] = useState(null);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState(null);
  const listHeading = useRef(null);

  const cameraNames = new Map((cameras.data ?? []).map((c) => [c.exid, c.name]));
  const watched = watching && list.items?.find((i) => i.id === watching);
  const status = watched ? statusLine(watched) : note;

  const follow = (item) => {
    setNote('');
    setWatching(item.id);
  };
  const remove = async () => {
    const item = confirming;
    setDeleting(true);
    setDeleteError(null);
    try {
      await api('DELETE', itemPath(project, item.id));
      list.remove(item.id);
      if (watching === item.id) setWatching(null);
      setNote(`Deleted ${TYPES[item.type].toLowerCase()} “${item.title}”.`);
      setConfirming(null);
      listHeading.current?.focus();
    } catch (e) {
      setDeleteError(e);
    } finally {
      setDeleting(false);
    }
  };

  return html`
    ${
      canWrite
        ? html`<${Loaded} result=${cameras}>
          ${(cams) =>
            cams.length
              ? html`<${MakeMedia}
                  project=${project}
                  cameras=${cams}
                  onCreated=${(item) => {
                    list.add(item);
                    follow(item);
                  }}
                />`
              : html`<p class="card">This project has no cameras yet, so there are no recordings to make clips or timelapses from.</p>`}
        <//>`
        : html`<p class="muted">You can watch and download the project’s media. Editors make clips and timelapses.</p>`
    }
    <p class="media-status" role="status">${status}</p>
    <section class="media-list" aria-labelledby="media-list-h">
      <h2 id="media-list-h" tabindex="-1" ref=${listHeading}>Media</h2>
      <${ErrorNote} error=${list.error} />
      ${
        list.items === undefined
          ? list.error
            ? null
            : html`<${Loading} what="Loading the media" />`
          : list.items.length === 0
            ? html`<p class="card">No media yet.${canWrite ? ' Make a clip or a timelapse from a camera’s recordings above.' : ''}</p>`
            : html`<ul class="media-items">
              ${list.items.map(
                (item) => html`<${ItemCard}
                  key=${item.id}
                  item=${item}
                  cameraName=${cameraNames.get(item.camera_exid) ?? item.camera_exid}
                  canWrite=${canWrite}
                  project=${project}
                  onRetried=${(next) => {
                    list.replace(next);
                    follow(next);
                  }}
                  onDelete=${() => {
                    setDeleteError(null);
                    setConfirming(item);
                  }}
                />`,
              )}
            </ul>`
      }
      ${list.more ? html`<button type="button" class="secondary media-more" onClick=${list.more}>Show older media</button>` : null}
    </section>
    <${ConfirmDialog}
      open=${!!confirming}
      title=${confirming ? `Delete “${confirming.title}”?` : ''}
      confirmLabel=${confirming ? `Delete ${TYPES[confirming.type].toLowerCase()}` : 'Delete'}
      busy=${deleting}
      onConfirm=${remove}
      onCancel=${() => setConfirming(null)}
    >
      ${confirming ? html`<p>${whatDeleteDoes(confirming)}</p>` : null}
      ${deleteError ? html`<p class="error" role="alert">${actionError(deleteError)}</p>` : null}
    <//>
  `;
}

function whatDeleteDoes(item) {
  const what =
    item.type === 'url'
      ? 'the link'
      : item.type === 'file'
        ? 'the uploaded file'
        : item.type === 'compare'
          ? 'its GIF, video and thumbnail'
          : 'its video and thumbnail';
  return `This removes the ${TYPES[item.type].toLowerCase()} from the project’s media hub for everyone, with ${what}. It cannot be undone; the camera’s recordings are not touched.`;
}

/** The two "make" buttons, each opening its form; closing returns focus to the button. */
function MakeMedia({ project, cameras, onCreated }) {
  const [open, setOpen] = useState(null); // 'clip' | 'timelapse' | null
  const buttons = { clip: useRef(null), timelapse: useRef(null) };
  const close = (kind) => {
    setOpen(null);
    buttons[kind].current?.focus();
  };
  const toggle = (kind) => (open === kind ? close(kind) : setOpen(kind));
  return html`
    <section class="media-make" aria-label="Make media">
      <div class="actions">
        <button type="button" ref=${buttons.clip} aria-expanded=${open === 'clip' ? 'true' : 'false'} aria-controls="media-form" onClick=${() => toggle('clip')}>
          Make a clip
        </button>
        <button
          type="button"
          ref=${buttons.timelapse}
          aria-expanded=${open === 'timelapse' ? 'true' : 'false'}
          aria-controls="media-form"
          onClick=${() => toggle('timelapse')}
        >
          Make a timelapse
        </button>
      </div>
      ${
        open
          ? html`<${MakeForm}
            key=${open}
            kind=${open}
            project=${project}
            cameras=${cameras}
            onCancel=${() => close(open)}
            onCreated=${(item) => {
              close(open);
              onCreated(item);
            }}
          />`
          : null
      }
    </section>
  `;
}

function MakeForm({ kind, project, cameras, onCancel, onCreated }) {
  const clip = kind === 'clip';
  // Defaults only (uncontrolled fields): what the person types survives a refused submission.
  const [defaults] = useState(() => {
    const now = new Date();
    return { from: localInput(new Date(now.getTime() - (clip ? 3_600_000 : 7 * 86_400_000))), to: localInput(now) };
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null); // { field, message } beside a field, or { message } for the form
  const form = useRef(null);
  const invalid = (field) => (error?.field === field ? 'true' : undefined);
  const errorId = (field) => `media-${field}-error`;
  const describe = (field, hint) => [hint, error?.field === field ? errorId(field) : null].filter(Boolean).join(' ') || undefined;
  const fieldNote = (field) =>
    error?.field === field ? html`<p id=${errorId(field)} class="error media-field-error" role="alert">${error.message}</p>` : null;
  // The field in error takes the focus, so its message is read next to it.
  useEffect(() => {
    if (error?.field) form.current?.querySelector(`[name="${error.field}"]`)?.focus();
  }, [error]);

  const submit = async (event) => {
    event.preventDefault();
    const f = new FormData(event.currentTarget);
    // A backwards range is caught here, in the same words the API's refusal gets.
    if (f.get('from') && f.get('to') && Date.parse(f.get('to')) <= Date.parse(f.get('from'))) {
      setError({ field: 'to', message: 'The end must be after the start.' });
      return;
    }
    const body = {
      title: f.get('title'),
      camera_exid: f.get('camera'),
      from_date: withOffset(f.get('from')),
      to_date: withOffset(f.get('to')),
    };
    if (clip) body.fps = Number(f.get('fps'));
    else body.duration = Number(f.get('duration'));
    setBusy(true);
    setError(null);
    try {
      const item = await api('POST', `/v2/projects/${encodeURIComponent(project)}/media-hub/${clip ? 'clips' : 'timelapses'}`, body);
      onCreated(item);
    } catch (e) {
      setError(fieldError(e) ?? { message: `The ${clip ? 'clip' : 'timelapse'} could not be made: ${plain(e.message)}` });
      setBusy(false);
    }
  };

  const id = (field) => `media-${field}`;
  return html`
    <form id="media-form" class="card media-form" aria-labelledby="media-form-h" onSubmit=${submit} ref=${form}>
      <h2 id="media-form-h">${clip ? 'Make a clip' : 'Make a timelapse'}</h2>
      <p class="muted">
        ${
          clip
            ? 'A clip plays every recorded frame of a span of up to 24 hours.'
            : 'A timelapse squeezes a long span (days, months) into a video of the length you choose.'
        }
      </p>
      <div class="media-grid">
        <div class="media-wide">
          <label for=${id('title')}>Title</label>
          <input id=${id('title')} name="title" required maxlength="200" aria-invalid=${invalid('title')} aria-describedby=${describe('title')} />
          ${fieldNote('title')}
        </div>
        <div class="media-wide">
          <label for=${id('camera')}>Camera</label>
          <select id=${id('camera')} name="camera" required aria-invalid=${invalid('camera')} aria-describedby=${describe('camera')}>
            ${cameras.map((c) => html`<option value=${c.exid}>${c.name}</option>`)}
          </select>
          ${fieldNote('camera')}
        </div>
        ${['from', 'to'].map(
          (field) => html`<div>
            <label for=${id(field)}>${field === 'from' ? 'From' : 'To'}</label>
            <input
              id=${id(field)}
              name=${field}
              type="datetime-local"
              required
              defaultValue=${defaults[field]}
              aria-invalid=${invalid(field)}
              aria-describedby=${describe(field, 'media-zone')}
            />
            ${fieldNote(field)}
          </div>`,
        )}
        <p id="media-zone" class="muted media-wide media-hint">Times are your own (${offsetLabel()}).</p>
        ${
          clip
            ? html`<div>
              <label for=${id('fps')}>Frames per second</label>
              <input
                id=${id('fps')}
                name="fps"
                type="number"
                min="1"
                max="30"
                defaultValue="4"
                required
                aria-invalid=${invalid('fps')}
                aria-describedby=${describe('fps', 'media-fps-hint')}
              />
              <p id="media-fps-hint" class="muted media-hint">Recorded frames shown per second of video (1–30).</p>
              ${fieldNote('fps')}
            </div>`
            : html`<div>
              <label for=${id('duration')}>Length in seconds</label>
              <input
                id=${id('duration')}
                name="duration"
                type="number"
                min="1"
                max="600"
                defaultValue="30"
                required
                aria-invalid=${invalid('duration')}
                aria-describedby=${describe('duration', 'media-duration-hint')}
              />
              <p id="media-duration-hint" class="muted media-hint">How long the video plays (1–600).</p>
              ${fieldNote('duration')}
            </div>`
        }
      </div>
      ${error && !error.field ? html`<p id="media-form-error" class="error" role="alert">${error.message}</p>` : null}
      <div class="actions media-form-actions">
        <button type="submit" disabled=${busy}>${busy ? 'Sending…' : clip ? 'Make clip' : 'Make timelapse'}</button>
        <button type="button" class="secondary" onClick=${onCancel}>Cancel</button>
      </div>
    </form>
  `;
}

function ItemCard({ item, cameraName, canWrite, project, onRetried, onDelete }) {
  const [busy, setBusy] = useState(null); // 'download' | 'retry' | 'watch'
  const [error, setError] = useState(null);
  const [video, setVideo] = useState(null); // an object URL of the MP4 while it is shown
  useEffect(() => () => video && URL.revokeObjectURL(video), [video]);
  const rendered = item.type === 'clip' || item.type === 'timelapse' || item.type === 'compare';
  const hasFile = item.status === 'completed' && item.type !== 'url';
  const playable = hasFile && (rendered || item.content_type === 'video/mp4');
  const titleId = `media-item-${item.id}`;

  const act = (what, run) => async () => {
    setBusy(what);
    setError(null);
    try {
      await run();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(null);
    }
  };
  const watch = act('watch', async () => {
    if (video) return setVideo(null);
    setVideo(URL.createObjectURL(await fetchFile(item)));
  });
  const retry = act('retry', async () => onRetried(await api('POST', `${itemPath(project, item.id)}/retry`)));
  const recorded = useRecorded(item, canWrite && item.status === 'failed' && rendered);
  const size = item.status === 'completed' && rendered ? lengthAndSize(item) : '';

  return html`
    <li class="card media-item" aria-labelledby=${titleId}>
      <${Thumb} item=${item} />
      <div class="media-body">
        <h3 id=${titleId}>${item.title}</h3>
        <p class="media-meta">
          <span class="media-type">${TYPES[item.type]}</span>
          ${item.camera_exid ? html` · ${cameraName}` : null}
        </p>
        ${item.from_date && item.to_date && item.type !== 'compare' ? html`<p class="media-range">${range(item.from_date, item.to_date)}</p>` : null}
        ${item.type === 'compare' && item.from_date ? html`<p class="media-range">Before ${dateTime(item.from_date)}, after ${dateTime(item.to_date)}</p>` : null}
        ${size ? html`<p class="media-size">${size}</p>` : null}
        ${
          rendered
            ? html`<p class=${`media-state media-${item.status}`}>
              <span class="media-badge">${STATUS[item.status]}</span>
              ${unfinished(item) ? html`<progress aria-label=${`${item.title}: ${STATUS[item.status].toLowerCase()}`}></progress>` : null}
              ${item.attempts > 1 ? html`<span class="muted"> attempt ${item.attempts}</span>` : null}
            </p>`
            : null
        }
        ${item.status === 'failed' && item.error ? html`<p class="error">${plain(localTimes(item.error))}</p>` : null}
        ${
          recorded.state === 'none'
            ? html`<p class="muted media-no-retry">
                ${item.type === 'compare' ? 'The camera has no recordings yet' : 'The camera has still recorded nothing in this range'}, so a retry would fail
                the same way.
              </p>`
            : null
        }
        <p class="muted media-who">Requested by ${item.requester_email} · ${dateTime(item.created_at)}</p>
        ${video ? html`<video class="media-video" controls src=${video} aria-label=${`${item.title} (video)`}></video>` : null}
        <div class="actions media-actions">
          ${
            item.type === 'url' && item.media_url
              ? html`<a class="button secondary" href=${item.media_url} target="_blank" rel="noopener noreferrer">Open link<span class="visually-hidden"> ${item.title}</span></a>`
              : null
          }
          ${
            playable
              ? html`<button type="button" class="secondary" disabled=${busy === 'watch'} onClick=${watch}>
                ${video ? 'Hide video' : busy === 'watch' ? 'Loading…' : 'Watch'}<span class="visually-hidden"> ${item.title}</span>
              </button>`
              : null
          }
          ${
            hasFile
              ? html`<button type="button" disabled=${busy === 'download'} onClick=${act('download', () => download(item))}>
                ${busy === 'download' ? 'Downloading…' : 'Download'}<span class="visually-hidden"> ${item.title}</span>
              </button>`
              : null
          }
          ${
            recorded.state === 'some'
              ? html`<button type="button" disabled=${busy === 'retry'} onClick=${retry}>Retry<span class="visually-hidden"> ${item.title}</span></button>`
              : null
          }
          ${
            recorded.state === 'none'
              ? html`<button type="button" class="secondary" onClick=${recorded.check}>
                  Look for recordings again<span class="visually-hidden"> for ${item.title}</span>
                </button>`
              : null
          }
          ${
            canWrite
              ? html`<button type="button" class="secondary media-delete" onClick=${onDelete}>Delete<span class="visually-hidden"> ${item.title}</span></button>`
              : null
          }
        </div>
        ${error ? html`<p class="error" role="alert">${actionError(error)}</p>` : null}
      </div>
    </li>
  `;
}

function Thumb({ item }) {
  const src = useImage(item.thumbnail_url ? `/v2/media-hub/${encodeURIComponent(item.id)}/thumbnail` : null);
  return html`<div class="media-thumb">${src ? html`<img src=${src} alt="" />` : html`<span aria-hidden="true">${TYPES[item.type]}</span>`}</div>`;
}

/**
 * Whether a failed render's range (a compare: its camera) now holds recorded frames: 'some', 'none',
 * or 'unknown' while asking (or when asking failed: the retry is then offered, the API decides).
 */
function useRecorded(item, wanted) {
  const [state, setState] = useState('unknown');
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    if (!wanted || !item.camera_exid) return undefined;
    const controller = new AbortController();
    const q = new URLSearchParams({ limit: '1' });
    if (item.type !== 'compare' && item.from_date && item.to_date) {
      q.set('from', item.from_date);
      q.set('to', item.to_date);
    }
    setState('unknown');
    get(`/v2/cameras/${encodeURIComponent(item.camera_exid)}/recordings/snapshots?${q}`, { signal: controller.signal }).then(
      (page) => controller.signal.aborted || setState(page.data.length ? 'some' : 'none'),
      () => controller.signal.aborted || setState('some'),
    );
    return () => controller.abort();
  }, [wanted, item.id, item.status, asked]);
  return { state: wanted ? state : 'off', check: () => setAsked((n) => n + 1) };
}
