// Logger options shared by every service: credentials never reach a log line (docs/security.md, Logs).
// Requests are logged once each, when answered, as method, URL, address, status and time (no headers,
// no bodies). The URL is where a credential can hide: a query parameter named like one (the name compared
// decoded, as the query parser reads it: `?%74oken=` is `token`), or a value shaped like an Overlook key
// (`olk_…`) or a JWT whatever its name or place. This runs on every request, so a URL with nothing
// suspicious costs a few indexOf. Lines go to stdout in batched synchronous writes (log-batch.ts); on a
// terminal they are pretty-printed by pino-pretty instead.
import { createRequire } from 'node:module';
import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from 'fastify';
import { destination, stdSerializers, symbols, type DestinationStream } from 'pino';
import { BatchedLog, type ByteDestination } from './log-batch.js';
import { type RequestLineFields, requestLineText } from './request-line.js';

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

let stdout: DestinationStream | undefined;

/**
 * Where log lines go: one stdout stream per process, shared by every app, written in batches (log-batch.ts);
 * on a terminal, pino-pretty's readable lines instead (loaded only then).
 */
function stdoutStream(): DestinationStream {
  if (stdout) return stdout;
  if (process.stdout.isTTY) {
    const pretty = createRequire(import.meta.url)('pino-pretty') as (o: object) => DestinationStream;
    stdout = pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true });
  } else {
    stdout = new BatchedLog(destination({ dest: 1, sync: true, contentMode: 'buffer' }) as unknown as ByteDestination);
  }
  return stdout;
}

/**
 * The streams of loggers built by `loggerOptions`: their lines are pino's defaults (numeric level, epoch
 * time, `msg`, no mixin or formatters), so the request line may be written to them directly (OneLinePerRequest).
 */
const PLAIN_LINE_STREAMS = new WeakSet<object>();

/**
 * `level` is the service's OVERLOOK_LOG_LEVEL, passed down from its config; apps built without one log
 * at info. `stream`: where lines go (tests); stdout by default.
 */
export function loggerOptions(level = 'info', stream: DestinationStream = stdoutStream()): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  PLAIN_LINE_STREAMS.add(stream);
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

/** What the request line is built from: pino's own logger fields, read through its published symbols. */
type PinoFields = { levelVal: number; [symbols.chindingsSym]?: string; [symbols.streamSym]?: DestinationStream };
const INFO = 30;

/**
 * The framework's request logging, one line per answered request at info instead of two:
 * `{ req: { method, url, remoteAddress }, res: { statusCode }, responseTime }` (ms), with the request id
 * the framework binds; at error when the response failed. Written where the framework wrote its own
 * line (when the response has finished), so it costs no hook. A plain line (no error, nothing added)
 * to a stream of `loggerOptions` is built directly (request-line.ts); any other goes through pino.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const log = reply.log as FastifyBaseLogger | RequestLogger;
    // Through the app's logger with the id in the line when nothing else logged for the request (no child made).
    const direct = log instanceof RequestLogger && !log.made;
    const target = (direct ? log.parent : log) as FastifyBaseLogger;
    const extra = (request as unknown as Record<symbol, Record<string, unknown> | undefined>)[EXTRA];
    if (!error && !extra) {
      const pino = target as unknown as PinoFields;
      const stream = pino[symbols.streamSym];
      const chindings = pino[symbols.chindingsSym];
      if (stream && typeof chindings === 'string' && PLAIN_LINE_STREAMS.has(stream)) {
        if (pino.levelVal > INFO) return;
        const fields: RequestLineFields = {
          chindings,
          id: direct ? String(request.id) : undefined,
          method: request.method,
          url: redactUrl(request.url),
          ip: request.ip,
          status: reply.statusCode,
          ms: reply.elapsedTime,
        };
        if (stream instanceof BatchedLog) stream.writeRequestLine(fields);
        else stream.write(requestLineText(fields));
        return;
      }
    }
    const line: Record<string, unknown> = direct ? { [this.requestIdLogLabel]: request.id } : {};
    line.req = request;
    line.res = reply;
    line.responseTime = reply.elapsedTime;
    if (extra) Object.assign(line, extra);
    if (error) target.error({ ...line, err: error }, 'request errored');
    else target.info(line, 'request completed');
  }
}

type LogFn = (...args: unknown[]) => void;

/**
 * A request's logger (`req.log`): the app's logger's child with the request id, made only when something
 * logs through it. Most requests log nothing but their one line, which is written through the app's
 * logger with the id in it; making a pino child for each request cost about a twentieth of a small request.
 */
class RequestLogger {
  #child: FastifyBaseLogger | undefined;
  constructor(
    readonly parent: FastifyBaseLogger,
    private readonly bindings: Record<string, unknown>,
  ) {}
  get made(): boolean {
    return this.#child !== undefined;
  }
  private get real(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings);
    return this.#child;
  }
  get level(): string {
    return this.#child?.level ?? this.parent.level;
  }
  set level(level: string) {
    this.real.level = level;
  }
  // Methods, not arrow fields: a request's logger is made for every request, its closures would be too.
  fatal(...a: unknown[]): void {
    (this.real.fatal as LogFn)(...a);
  }
  error(...a: unknown[]): void {
    (this.real.error as LogFn)(...a);
  }
  warn(...a: unknown[]): void {
    (this.real.warn as LogFn)(...a);
  }
  info(...a: unknown[]): void {
    (this.real.info as LogFn)(...a);
  }
  debug(...a: unknown[]): void {
    (this.real.debug as LogFn)(...a);
  }
  trace(...a: unknown[]): void {
    (this.real.trace as LogFn)(...a);
  }
  silent(): void {}
  child(bindings: Record<string, unknown>, opts?: object): FastifyBaseLogger {
    return this.real.child(bindings, opts as never);
  }
  isLevelEnabled(level: string): boolean {
    return ((this.#child ?? this.parent) as unknown as { isLevelEnabled(l: string): boolean }).isLevelEnabled(level);
  }
}

/** Fastify's childLoggerFactory: a RequestLogger, or at once a real child when the route sets its own level or serializers. */
function requestLogger(logger: FastifyBaseLogger, bindings: Record<string, unknown>, opts: object): FastifyBaseLogger {
  if (hasKeys(opts)) return logger.child(bindings, opts as never);
  return new RequestLogger(logger, bindings) as unknown as FastifyBaseLogger;
}

/** Whether an object has any key, without `Object.keys`'s array (this runs for every request). */
function hasKeys(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

const EXTRA = Symbol('request log extra');

/** Adds fields to the request's one log line (e.g. why access was refused), instead of a line of their own. */
export function addToRequestLog(request: FastifyRequest, fields: Record<string, unknown>): void {
  const r = request as unknown as Record<symbol, Record<string, unknown> | undefined>;
  r[EXTRA] = { ...r[EXTRA], ...fields };
}

/** Fastify options for the request log (one line per request, see OneLinePerRequest). */
export const requestLogOptions = () => ({ logController: new OneLinePerRequest(), childLoggerFactory: requestLogger });

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
