// Form fields the setup screens share: a label, the control, a hint and the field's own error beside
// it (the control is marked invalid and described by the error, so a screen reader says why).
import { useState } from 'preact/hooks';
import { fieldMessage } from './form-errors.js';
import { html } from './html.js';

const describedBy = (id, hint, error) => [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;

function Notes({ id, hint, error }) {
  return html`
    ${hint ? html`<p id=${`${id}-hint`} class="muted field-hint">${hint}</p>` : null}
    ${error ? html`<p id=${`${id}-error`} class="error field-error" role="alert">${error}</p>` : null}
  `;
}

/** A text-like input (`type` text, url, password, number…); `onValue` gets the new text. */
export function TextField({ id, label, value, onValue, error, hint, type = 'text', ...rest }) {
  return html`
    <div class="field">
      <label for=${id}>${label}</label>
      <input id=${id} type=${type} value=${value} onInput=${(e) => onValue(e.currentTarget.value)}
        aria-invalid=${error ? 'true' : undefined} aria-describedby=${describedBy(id, hint, error)} ...${rest} />
      <${Notes} id=${id} hint=${hint} error=${error} />
    </div>
  `;
}

/** A select; `options` are [value, label] pairs. */
export function SelectField({ id, label, value, onValue, options, error, hint }) {
  return html`
    <div class="field">
      <label for=${id}>${label}</label>
      <select id=${id} value=${value} onChange=${(e) => onValue(e.currentTarget.value)}
        aria-invalid=${error ? 'true' : undefined} aria-describedby=${describedBy(id, hint, error)}>
        ${options.map(([v, text]) => html`<option value=${v}>${text}</option>`)}
      </select>
      <${Notes} id=${id} hint=${hint} error=${error} />
    </div>
  `;
}

/** Radio buttons in a fieldset; `options` are [value, label] pairs. */
export function RadioField({ name, legend, value, onValue, options, error }) {
  return html`
    <fieldset class="field radio-field" aria-describedby=${error ? `${name}-error` : undefined}>
      <legend>${legend}</legend>
      ${options.map(
        ([v, text]) => html`
          <label class="radio">
            <input type="radio" id=${`${name}-${v}`} name=${name} value=${v} checked=${value === v} onChange=${() => onValue(v)} />
            <span>${text}</span>
          </label>
        `,
      )}
      ${error ? html`<p id=${`${name}-error`} class="error field-error" role="alert">${error}</p>` : null}
    </fieldset>
  `;
}

/** The error beside `field`: the screen's own check (`local`, by field) first, else what the API said of it. */
export const messageFor = (local, apiError, field) => local?.[field] ?? fieldMessage(apiError, field);

/**
 * The screen's own field errors: [local, setLocal, edited]. `edited(field, set)` is an onValue that
 * also drops that field's error, so a message does not stay beside a field once it has been changed.
 */
export function useFieldErrors() {
  const [local, setLocal] = useState(null);
  const edited = (field, set) => (value) => {
    set(value);
    setLocal((l) => (l?.[field] ? { ...l, [field]: null } : l));
  };
  return [local, setLocal, edited];
}
