// The confirm step before anything destructive (docs/web-app: say what happens before doing it): a
// modal <dialog> with a plain-words explanation. Cancel holds the focus first, so a stray Enter never
// destroys anything; Escape cancels.
//   const [confirm, confirmDialog] = useConfirm();
//   if (await confirm({ title, body, confirmLabel: 'Remove' })) …; render ${confirmDialog} once.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from './html.js';

let next = 0;

function ConfirmDialog({ request, onDone }) {
  const ref = useRef(null);
  const cancel = useRef(null);
  const [id] = useState(() => `confirm-${++next}`);
  useEffect(() => {
    const dialog = ref.current;
    if (request && !dialog.open) {
      dialog.showModal();
      cancel.current?.focus();
    }
    if (!request && dialog.open) dialog.close();
  }, [request]);
  // A close by Escape is a "no"; a close after an answer finds no request left and does nothing.
  const onClose = () => request && onDone(false);
  return html`
    <dialog ref=${ref} class="confirm-dialog" aria-labelledby=${`${id}-title`} aria-describedby=${`${id}-body`} onClose=${onClose}>
      ${
        request
          ? html`
            <h2 id=${`${id}-title`}>${request.title}</h2>
            <div id=${`${id}-body`} class="confirm-body">${typeof request.body === 'string' ? html`<p>${request.body}</p>` : request.body}</div>
            <div class="confirm-actions">
              <button type="button" class="secondary" ref=${cancel} onClick=${() => onDone(false)}>${request.cancelLabel ?? 'Cancel'}</button>
              <button type="button" class=${request.danger === false ? '' : 'danger'} onClick=${() => onDone(true)}>${request.confirmLabel}</button>
            </div>
          `
          : null
      }
    </dialog>
  `;
}

/** Returns [confirm(request) -> Promise<boolean>, the dialog element to render once]. */
export function useConfirm() {
  const [request, setRequest] = useState(null);
  const confirm = (req) => new Promise((resolve) => setRequest({ ...req, resolve }));
  const onDone = (yes) => {
    request?.resolve(yes);
    setRequest(null);
  };
  return [confirm, html`<${ConfirmDialog} request=${request} onDone=${onDone} />`];
}
