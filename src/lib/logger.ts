// Logger options shared by every service: credentials never reach a log line (docs/security.md, Logs).
// Requests are logged once each, when answered, as method, URL, address, status and time (no headers,
// no bodies). The URL is where a credential can hide: a query parameter named like one (the name compared
// decoded, as the query parser reads it: `?%74oken=` is `token`), or a value shaped like an Overlook key
// (`olk_…`) or a JWT whatever its name or place. A URL with nothing suspicious costs a few indexOf.
// Lines go to stdout through pino's own destination, gathered into larger writes; on a terminal they are
// pretty-printed by pino-pretty instead.
import { createRequire } from 'node:module';
import { type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from 'fastify';
import { destination, stdSerializers, type DestinationStream } from 'pino';

/** Headers that carry credentials, for code that logs a request's headers (the request serializer does not). */
const SECRET_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-access-key',
  'x-api-key',
  'api-key',
  'apikey',
  'access-key',
  'x-auth-token',
];
const SECRET_HEADER_SET = new Set(SECRET_HEADERS);

const CENSOR = '[redacted]';

/** A headers object as logged: credential headers censored (matched by lower-case name), the rest as is. */
export function redactHeaders(headers: unknown): unknown {
  if (!headers || typeof headers !== 'object') return headers;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(headers as Record<string, unknown>)) out[k] = SECRET_HEADER_SET.has(k.toLowerCase()) ? CENSOR : v;
  return out;
}

/**
 * How stdout is written (pino's destination options): in writes of at least this many bytes, and at least
 * this often. Synchronous, as Node's own stdout is on files and pipes: an asynchronous write is a trip
 * through libuv's thread pool and back for every batch (docs/decisions.md, The request path).
 */
const STDOUT_MIN_BYTES = 8192;
const STDOUT_FLUSH_MS = 250;

let stdout: DestinationStream | undefined;

/**
 * Where log lines go: one stdout stream per process, shared by every app; on a terminal, pino-pretty's
 * readable lines instead (loaded only then).
 */
function stdoutStream(): DestinationStream {
  if (stdout) return stdout;
  if (process.stdout.isTTY) {
    const pretty = createRequire(import.meta.url)('pino-pretty') as (o: object) => DestinationStream;
    stdout = pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true });
  } else {
    const out = destination({ dest: 1, sync: true, minLength: STDOUT_MIN_BYTES, periodicFlush: STDOUT_FLUSH_MS });
    // pino writes what is gathered at exit only for asynchronous destinations.
    process.once('exit', () => out.flushSync());
    stdout = out;
  }
  return stdout;
}

/**
 * `level` is the service's OVERLOOK_LOG_LEVEL, passed down from its config; apps built without one log
 * at info. `stream`: where lines go (tests); stdout by default.
 */
export function loggerOptions(level = 'info', stream: DestinationStream = stdoutStream()): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  // No pino `redact`: it copies every logged object that has a listed key (every request line). The
  // keys that can hold credentials have serializers instead, which run only on those keys.
  return {
    level,
    stream,
    serializers: {
      req(req) {
        return { method: req.method, url: redactUrl(req.url), remoteAddress: req.ip };
      },
      res(reply) {
        return { statusCode: reply.statusCode };
      },
      headers: redactHeaders,
      // Errors are rare: their message and stack are scrubbed of key and JWT values (a URL in a message).
      err(err: Error) {
        const out = stdSerializers.err(err);
        if (typeof out.message === 'string') out.message = redactSecretValues(out.message);
        if (typeof out.stack === 'string') out.stack = redactSecretValues(out.stack);
        return out;
      },
    },
  } as FastifyServerOptions['logger'];
}

/** Fields added to a request's one log line (addToRequestLog). */
const extraFields = new WeakMap<FastifyRequest, Record<string, unknown>>();

/**
 * The framework's request logging, one line per answered request instead of two, written by the
 * request's logger (which carries the request id): `{ req, res, responseTime }` (ms) and any fields
 * added for the request, at info, or at error when the response failed.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime, ...extraFields.get(request) };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/** Adds fields to the request's one log line (e.g. why access was refused), instead of a line of their own. */
export function addToRequestLog(request: FastifyRequest, fields: Record<string, unknown>): void {
  extraFields.set(request, { ...extraFields.get(request), ...fields });
}

/** Fastify options for the request log (one line per request, see OneLinePerRequest). */
export const requestLogOptions = () => ({ logController: new OneLinePerRequest() });

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
function redactSecretValues(text: string): string {
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
