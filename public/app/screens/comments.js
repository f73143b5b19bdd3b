// A project's comments: each one is pinned to a camera and a moment of its recording. Editors and
// above write them; the author (or a project admin, as the API allows) edits or deletes one. Viewers
// read. `@e-mail` in the text notifies that member (src/platform/comments/comments-service.ts).
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useConfirm } from '../lib/confirm-dialog.js';
import { fieldMessage } from '../lib/form-errors.js';
import { useApi } from '../lib/hooks.js';
import { html } from '../lib/html.js';
import { Pager } from '../lib/pager.js';
import { roleAllows } from '../lib/roles.js';
import { href } from '../lib/router.js';
import { projectTabs } from '../lib/tabs.js';
import { dateTime, ErrorNote, Loaded, Screen } from '../lib/ui.js';

const PAGE_SIZE = 20;
// Comments made here sit at the middle of the image; the API keeps a point for each comment.
const MIDDLE = { x: 0.5, y: 0.5 };

/** `2026-11-25T14:05` in the browser's time zone, as a datetime-local input shows it. */
const localInput = (date) => new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

export function Comments({ project }) {
  const base = `/v2/projects/${encodeURIComponent(project)}`;
  const info = useApi(base);
  const me = useApi('/v2/auth/users/me');
  const cameras = useApi(`${base}/cameras`);
  const [camera, setCamera] = useState('');
  const [page, setPage] = useState(1);
  const query = new URLSearchParams({ page: String(page), page_size: String(PAGE_SIZE), ...(camera ? { camera_exid: camera } : {}) });
  const comments = useApi(`${base}/comments?${query}`);
  const [status, setStatus] = useState('');
  const [actionError, setActionError] = useState(null);
  const [confirm, confirmDialog] = useConfirm();

  const myRole = info.data?.role ?? null;
  const canWrite = roleAllows(myRole, 'editor');
  const mayChange = (c) => canWrite && (c.creator_email === me.data?.email || roleAllows(myRole, 'admin'));
  const cameraName = (exid) => cameras.data?.find((c) => c.exid === exid)?.name ?? exid;
  const name = info.data?.name ?? project;

  const posted = () => {
    setStatus('Your comment is posted.');
    setPage(1);
    comments.reload();
  };
  const saved = () => {
    setStatus('Your changes are saved.');
    comments.reload();
  };
  const chooseCamera = (e) => {
    setCamera(e.currentTarget.value);
    setPage(1);
  };

  const remove = async (c) => {
    const own = c.creator_email === me.data?.email;
    const yes = await confirm({
      title: own ? 'Delete your comment?' : `Delete ${c.creator_name ?? c.creator_email ?? 'this person'}’s comment?`,
      body: `It disappears for everyone in ${name} and cannot be brought back.`,
      confirmLabel: 'Delete comment',
    });
    if (!yes) return;
    setActionError(null);
    try {
      await api('DELETE', `${base}/comments/${encodeURIComponent(c.id)}`);
      setStatus('The comment is deleted.');
      comments.reload();
    } catch (e) {
      setActionError(e);
    }
  };

  return html`
    <${Screen} title=${`Comments · ${name}`} heading=${`Comments on ${name}`} tabs=${projectTabs(project, 'comments')}>
      <p class="comments-status" role="status">${status}</p>
      <${ErrorNote} error=${actionError} />
      ${canWrite && cameras.data ? html`<${NewComment} base=${base} cameras=${cameras.data} onPosted=${posted} />` : null}
      ${info.data && !canWrite ? html`<p class="muted">Your role here is ${myRole}: you can read comments. Editors, admins and the owner write them.</p>` : null}
      <div class="comments-filter">
        <label for="comments-camera">Show comments on</label>
        <select id="comments-camera" value=${camera} onChange=${chooseCamera}>
          <option value="">All cameras</option>
          ${(cameras.data ?? []).map((c) => html`<option value=${c.exid}>${c.name}</option>`)}
        </select>
      </div>
      <${Loaded} result=${comments}>
        ${({ meta, data }) =>
          data.length === 0
            ? html`<p class="comments-empty">${camera ? 'No comments on this camera yet.' : 'No comments yet.'}${canWrite ? ' Write the first one above.' : ''}</p>`
            : html`
                <ul class="comments-list">
                  ${data.map(
                    (c) => html`<${CommentItem} key=${c.id} comment=${c} base=${base} cameraName=${cameraName(c.camera_exid)} mayChange=${mayChange(c)}
                      own=${c.creator_email === me.data?.email} onSaved=${saved} onDelete=${() => remove(c)} />`,
                  )}
                </ul>
                <${Pager} meta=${meta} onPage=${setPage} what=${['comment', 'comments']} label="Comment pages" />
              `}
      <//>
      ${confirmDialog}
    <//>
  `;
}

function NewComment({ base, cameras, onPosted }) {
  const [camera, setCamera] = useState(cameras.length === 1 ? cameras[0].exid : '');
  const [moment, setMoment] = useState(() => localInput(new Date()));
  const [content, setContent] = useState('');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const mine = (field) => (error?.field === field ? error.message : fieldMessage(error, field));
  const [cameraError, momentError, contentError] = [mine('camera_exid'), mine('timestamp'), mine('content')];
  const otherError = error && !cameraError && !momentError && !contentError ? error : null;

  if (cameras.length === 0) return html`<p class="muted">This project has no cameras yet. Comments are pinned to a camera, so add one first.</p>`;

  const submit = async (event) => {
    event.preventDefault();
    if (!camera) return setError({ field: 'camera_exid', message: 'Choose the camera the comment is about.' });
    const at = new Date(moment);
    if (!moment || Number.isNaN(at.getTime())) return setError({ field: 'timestamp', message: 'Give the date and time the comment is about.' });
    if (!content.trim()) return setError({ field: 'content', message: 'Write the comment first.' });
    setBusy(true);
    setError(null);
    try {
      await api('POST', `${base}/comments`, { camera_exid: camera, timestamp: at.toISOString(), position2d: MIDDLE, content: content.trim() });
      setContent('');
      onPosted();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const invalid = (message, id) => (message ? { 'aria-invalid': 'true', 'aria-describedby': id } : {});
  return html`
    <form class="card comments-new" onSubmit=${submit} noValidate>
      <h2>Write a comment</h2>
      <div class="comments-new-where">
        <div>
          <label for="comment-camera">Camera</label>
          <select id="comment-camera" value=${camera} onChange=${(e) => setCamera(e.currentTarget.value)} ...${invalid(cameraError, 'comment-camera-error')}>
            <option value="" disabled>Choose a camera</option>
            ${cameras.map((c) => html`<option value=${c.exid}>${c.name}</option>`)}
          </select>
          ${cameraError ? html`<p id="comment-camera-error" class="error" role="alert">${cameraError}</p>` : null}
        </div>
        <div>
          <label for="comment-moment">Moment in the recording</label>
          <input id="comment-moment" type="datetime-local" value=${moment} onInput=${(e) => setMoment(e.currentTarget.value)} ...${invalid(momentError, 'comment-moment-error')} />
          ${momentError ? html`<p id="comment-moment-error" class="error" role="alert">${momentError}</p>` : null}
        </div>
      </div>
      <label for="comment-content">Comment</label>
      <textarea id="comment-content" rows="3" maxlength="5000" value=${content} onInput=${(e) => setContent(e.currentTarget.value)}
        aria-describedby=${contentError ? 'comment-content-error comment-content-hint' : 'comment-content-hint'} aria-invalid=${contentError ? 'true' : undefined}></textarea>
      <p id="comment-content-hint" class="muted comments-hint">Write @name@example.com to notify a member of the project.</p>
      ${contentError ? html`<p id="comment-content-error" class="error" role="alert">${contentError}</p>` : null}
      <button type="submit" disabled=${busy}>${busy ? 'Posting…' : 'Post comment'}</button>
      <${ErrorNote} error=${otherError} />
    </form>
  `;
}

function CommentItem({ comment: c, base, cameraName, mayChange, own, onSaved, onDelete }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(c.content);
  const [error, setError] = useState(null);
  const author = c.creator_name?.trim() || c.creator_email || 'Someone';
  const edited = c.updated_at !== c.created_at;
  const editId = `comment-edit-${c.id}`;
  const whose = own ? 'your comment' : `${author}’s comment`;
  const box = useRef(null);
  // Editing starts in the text; leaving it returns to the Edit button.
  const editButton = useRef(null);
  const started = useRef(false);
  useEffect(() => {
    if (editing) box.current?.focus();
    else if (started.current) editButton.current?.focus();
    started.current = true;
  }, [editing]);

  const stopEditing = () => {
    setEditing(false);
    setText(c.content);
    setError(null);
  };

  const save = async (event) => {
    event.preventDefault();
    if (!text.trim()) return setError({ message: 'The comment cannot be empty. To remove it, delete it instead.' });
    setError(null);
    try {
      await api('PATCH', `${base}/comments/${encodeURIComponent(c.id)}`, { content: text.trim() });
      setEditing(false);
      onSaved();
    } catch (e) {
      setError(e);
    }
  };

  return html`
    <li class="card comments-item" data-comment-id=${c.id}>
      <p class="comments-meta">
        <strong>${author}</strong>${own ? html` <span class="muted">(you)</span>` : null}
        <span class="muted"> on </span><a href=${href('cameras', c.camera_exid, 'recordings')}>${cameraName}</a>
        <span class="muted"> at ${dateTime(c.timestamp)}</span>
      </p>
      ${
        editing
          ? html`
            <form class="comments-edit" onSubmit=${save} noValidate>
              <label for=${editId}>Edit ${whose}</label>
              <textarea id=${editId} ref=${box} rows="3" maxlength="5000" value=${text} onInput=${(e) => setText(e.currentTarget.value)}
                aria-invalid=${error ? 'true' : undefined} aria-describedby=${error ? `${editId}-error` : undefined}></textarea>
              ${error ? html`<p id=${`${editId}-error`} class="error" role="alert">${error.message}</p>` : null}
              <div class="comments-actions">
                <button type="submit">Save</button>
                <button type="button" class="secondary" onClick=${stopEditing}>Cancel</button>
              </div>
            </form>
          `
          : html`<p class="comments-content">${c.content}</p>`
      }
      <p class="comments-when muted">Posted ${dateTime(c.created_at)}${edited ? ` · edited ${dateTime(c.updated_at)}` : ''}</p>
      ${
        mayChange && !editing
          ? html`
            <div class="comments-actions">
              <button type="button" class="secondary" ref=${editButton} onClick=${() => setEditing(true)} aria-label=${`Edit ${whose}`}>Edit</button>
              <button type="button" class="danger" onClick=${onDelete} aria-label=${`Delete ${whose}`}>Delete</button>
            </div>
          `
          : null
      }
    </li>
  `;
}
