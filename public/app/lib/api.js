// The app's one way to the API: the person's JWT (sessionStorage, shared with the key page at /keys,
// gone when the tab closes) on every call, one error type with the server's code and message, and a
// signed-out event when the session ends so the shell can show the sign-in screen again.
const TOKEN = 'overlook.jwt';

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.message ?? `The server answered ${status}`);
    this.status = status;
    this.code = body?.code;
    this.body = body;
  }
}

export const token = () => sessionStorage.getItem(TOKEN);
export const signedIn = () => token() !== null;

export function signOut() {
  sessionStorage.removeItem(TOKEN);
  window.dispatchEvent(new CustomEvent('overlook:signed-out'));
}

export async function signIn(email, password) {
  const res = await fetch('/v2/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password }),
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, data);
  sessionStorage.setItem(TOKEN, data.token);
  window.dispatchEvent(new CustomEvent('overlook:signed-in'));
  return data;
}

/** Calls the API without a credential (password reset, invitation links, unsubscribe); JSON in and out. */
export async function callAnonymously(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

/** Whether the platform sends e-mail (GET /v2/mail/status); undefined while asking, false when it cannot tell. */
export const mailStatus = () =>
  callAnonymously('GET', '/v2/mail/status').then(
    (s) => s.enabled === true,
    () => false,
  );

/** Calls the API; JSON in and out. A 401 ends the session (the shell shows the sign-in screen). */
export async function api(method, path, body, { signal } = {}) {
  const headers = { authorization: `Bearer ${token()}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
  if (res.status === 401) {
    signOut();
    throw new ApiError(401, { message: 'Your session has ended; sign in again.' });
  }
  const type = res.headers.get('content-type') ?? '';
  const data = res.status === 204 ? null : type.includes('json') ? await res.json().catch(() => null) : await res.blob();
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

export const get = (path, opts) => api('GET', path, undefined, opts);

/**
 * An image from the API as an object URL (an <img> cannot send the Authorization header). The caller
 * revokes it when done (useImage in lib/hooks.js does).
 */
export async function imageUrl(path, { signal } = {}) {
  const res = await fetch(path, { headers: { authorization: `Bearer ${token()}`, accept: 'image/jpeg' }, signal });
  if (res.status === 401) signOut();
  if (!res.ok) throw new ApiError(res.status, await res.json().catch(() => null));
  return URL.createObjectURL(await res.blob());
}
