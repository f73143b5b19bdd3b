// A modal confirmation (<dialog>) that says in plain words what a destructive action does before it is
// done. Escape or "Keep it" cancels; focus starts on the safe choice and returns where it was.
import { useEffect, useRef } from 'preact/hooks';
import { html } from './html.js';

export function ConfirmDialog({ open, title, children, confirmLabel, busy = false, onConfirm, onCancel }) {
  const ref = useRef(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  // Escape: the dialog closes through our state, so it and the screen never disagree about it.
  const cancel = (e) => {
    e.preventDefault();
    onCancel();
  };
  return html`
    <dialog ref=${ref} class="media-dialog" aria-labelledby="media-dialog-title" onCancel=${cancel}>
      <h2 id="media-dialog-title">${title}</h2>
      ${children}
      <div class="actions">
        <button type="button" class="secondary" autofocus onClick=${onCancel}>Keep it</button>
        <button type="button" class="danger" disabled=${busy} onClick=${onConfirm}>${busy ? 'Deleting…' : confirmLabel}</button>
      </div>
    </dialog>
  `;
}
