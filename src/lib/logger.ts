// Logger options shared by every service: credentials never reach a log line (docs/security.md, Logs).
// Requests are logged as method, URL and address only (no headers, no bodies). The URL is where a
// credential can hide: a query parameter named like one (the name compared decoded, as the query parser
// reads it: `?%74oken=` is `token`), or a value shaped like an Overlook key (`olk_…`) or a JWT whatever
// its name or place. This runs on every request, so a URL with nothing suspicious costs a few indexOf.
import type { FastifyServerOptions } from 'fastify';
import { stdSerializers } from 'pino';

/** Headers that carry credentials, for code that logs a request's headers (the request serializer does not). */
const SECRET_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'x-access-key', 'x-api-key', 'api-key', 'apikey', 'access-key', 'x-auth-token'];

export const REDACTED_PATHS = [...SECRET_HEADERS.map((h) => `req.headers["${h}"]`), 'res.headers["set-cookie"]', 'headers.authorization', 'headers.cookie'];

const CENSOR = '[redacted]';

/** `level` is the service's OVERLOOK_LOG_LEVEL, passed down from its config; apps built without one log at info. */
export function loggerOptions(level = 'info'): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: CENSOR },
    serializers: {
      req(req) {
        return { method: req.method, url: redactUrl(req.url), remoteAddress: req.ip };
      },
      // Errors are rare: their message and stack are scrubbed of key and JWT values (a URL in a message).
      err(err: Error) {
        const out = stdSerializers.err(err);
        if (typeof out.message === 'string') out.message = redactSecretValues(out.message);
        if (typeof out.stack === 'string') out.stack = redactSecretValues(out.stack);
        return out;
      },
    },
  };
}

// Query parameter names (decoded, lower case, without `-`, `_` and `.`) whose value is a credential.
const SECRET_PARAMS = new Set([
  'code',
  'codeverifier',
  'sig',
  'signature',
  'auth',
  'authorization',
  'jwt',
  'session',
  'sessionid',
  'password',
  'passwd',
  'pwd',
  'credential',
  'credentials',
]);
const SECRET_SUFFIX = /(?:token|key|secret|password)$/;

/** An Overlook key value (`olk_` and base62) or a JWT (three base64url parts, the first a JSON header). */
const SECRET_VALUE = /(?<![0-9A-Za-z])olk_[0-9A-Za-z]+|(?<![\w-])eyJ[\w-]*\.[\w-]+\.[\w-]*/;
const SECRET_VALUES = new RegExp(SECRET_VALUE.source, 'g');
// The cheap test first: almost no URL holds either marker.
const mayHoldSecretValue = (s: string) => s.includes('olk_') || s.includes('eyJ');
const holdsSecretValue = (s: string) => mayHoldSecretValue(s) && SECRET_VALUE.test(s);

/** Replaces key and JWT values in any text. */
export function redactSecretValues(text: string): string {
  return mayHoldSecretValue(text) ? text.replace(SECRET_VALUES, CENSOR) : text;
}

const SUSPICIOUS_QUERY = /[%+]|olk_|eyJ|token|key|secret|pass|pwd|code|sig|auth|jwt|session|credential/i;

const secretName = (raw: string) => {
  const name = decode(raw)
    .toLowerCase()
    .replace(/[-_.\s]/g, '');
  return SECRET_PARAMS.has(name) || SECRET_SUFFIX.test(name);
};

/** A query component as the query parser reads it (`+` is a space); the raw text when it is not valid percent-encoding. */
function decode(raw: string): string {
  if (!raw.includes('%') && !raw.includes('+')) return raw;
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/**
 * `/a?token=secret&x=1` → `/a?token=[redacted]&x=1`: the value of every parameter named like a
 * credential, and every key or JWT value anywhere in the URL. The rest of the URL is kept as it came.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return redactSecretValues(url);
  const path = redactSecretValues(url.slice(0, q));
  const query = url.slice(q + 1);
  // One test skips the usual query: nothing encoded, no credential-like name, no key or JWT marker.
  if (!SUSPICIOUS_QUERY.test(query)) return `${path}?${query}`;
  const pairs = query.split('&');
  for (let i = 0; i < pairs.length; i++) {
    const pair = pairs[i]!;
    const eq = pair.indexOf('=');
    if (eq < 0) {
      if (holdsSecretValue(decode(pair))) pairs[i] = CENSOR;
      continue;
    }
    const value = pair.slice(eq + 1);
    if (value === '') continue;
    if (secretName(pair.slice(0, eq)) || holdsSecretValue(decode(value))) pairs[i] = `${pair.slice(0, eq + 1)}${CENSOR}`;
    else if (mayHoldSecretValue(pair)) pairs[i] = redactSecretValues(pair);
  }
  return `${path}?${pairs.join('&')}`;
}

/** Kept for callers of the earlier name. */
export const redactQuery = redactUrl;
