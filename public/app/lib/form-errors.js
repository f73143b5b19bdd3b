// Which form field an API error is about: the server's VALIDATION_ERROR names fields as `body.email`,
// `query.from` and so on (src/platform/http/error-handler.ts), plain service errors as `email`.

/** The message for `field` from an ApiError (or null when it is about something else). */
export function fieldMessage(error, field) {
  if (!error) return null;
  const details = error.body?.details;
  const list = Array.isArray(details) ? details : [];
  const hit = list.find((d) => d.field === field || d.field?.endsWith(`.${field}`));
  if (hit) return `${hit.message}`;
  const m = /^([\w.]+): (.*)$/.exec(error.message ?? '');
  if (m && (m[1] === field || m[1].endsWith(`.${field}`))) return m[2];
  return null;
}
