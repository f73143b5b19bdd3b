// The media hub in plain words: the API's refusals turned into what the person should do, beside the
// form field they are about; times inside render errors shown in the person's own clock; a render's
// length and size.
import { ApiError } from './api.js';

/** The API's field names → the make form's fields. */
const FORM_FIELDS = { title: 'title', camera_exid: 'camera', from_date: 'from', to_date: 'to', fps: 'fps', duration: 'duration' };

const PLAIN = [
  [/must be after from_date/, 'The end must be after the start.'],
  [/at most 24 hours/, 'A clip covers at most 24 hours. For a longer span, make a timelapse.'],
  [/recorded no frames/, 'The camera recorded nothing between these times. Pick a span it recorded (see its Recordings tab).'],
  [/must be <= (\d+)/, 'At most $1.'],
  [/must be >= (\d+)/, 'At least $1.'],
  [/must NOT have fewer than 1 characters|is required/, 'This is needed.'],
];

/** A sentence a person can act on, from one API message (field names in words, a capital, a full stop). */
export function plain(message) {
  for (const [re, words] of PLAIN) if (re.test(message)) return message.match(re)[0].replace(re, words);
  const text = String(message ?? 'Something went wrong')
    .replace(/\bfrom_date\b/g, 'the start')
    .replace(/\bto_date\b/g, 'the end')
    .replace(/\bcamera_exid\b/g, 'the camera');
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** { field, message } of the first refusal that names one of the form's fields, else null. */
export function fieldError(error) {
  for (const d of error?.body?.details ?? []) {
    const name = String(d.field ?? '').replace(/^body\./, '');
    if (FORM_FIELDS[name]) return { field: FORM_FIELDS[name], message: plain(d.message) };
  }
  return null;
}

const STAMP = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
/** Every ISO instant in `text` (as render errors quote them) in the person's own clock. */
export const localTimes = (text) => String(text ?? '').replace(/\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?Z/g, (iso) => STAMP.format(new Date(iso)));

/** What an action's failure means for the person; never a bare "not found". */
export function actionError(error) {
  if (error instanceof ApiError && error.status === 404)
    return 'This item is no longer in the media hub: someone may have deleted it. Reload the page to see the list as it is now.';
  return plain(localTimes(error?.message));
}

const clock = (s) => {
  const whole = Math.round(s);
  return whole < 60 ? `${Math.max(1, whole)} s` : `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
};
const bytes = (n) => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${Math.round(n / 1024)} KB` : `${(n / (1024 * 1024)).toFixed(1)} MB`);

/** "Length 12 s · 245 KB" for a rendered video (length as planned for a timelapse, as made for a clip). */
export function lengthAndSize(item) {
  const o = item.options ?? {};
  const seconds = item.type === 'timelapse' ? o.duration : item.type === 'clip' && o.frames && o.fps ? o.frames / o.fps : null;
  const parts = [];
  if (typeof seconds === 'number' && seconds > 0) parts.push(`Length ${clock(seconds)}`);
  if (typeof item.file_size === 'number') parts.push(bytes(item.file_size));
  return parts.join(' · ');
}
