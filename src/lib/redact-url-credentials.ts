// Credentials written into URLs (`rtsp://user:password@camera/…`) never reach a log line or an error
// message: ffmpeg repeats its input URL in its errors, and device URLs carry the camera's password.
// Every such text goes through this before it is logged or shown.

// The userinfo runs to the last `@` before the path (`/`, `?`, `#`) or a blank, so a password holding
// `@` is hidden whole.
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]*@/gi;

/** `scheme://user:pass@host` → `scheme://***@host`, wherever a URL appears in the text. */
export function redactUrlCredentials(text: string): string {
  return text.replace(USERINFO, '$1***@');
}
