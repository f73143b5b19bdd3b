// The request line (docs/security.md, Logs): what pino writes for `info({ reqId?, req, res, responseTime },
// 'request completed')` through the logger's serializers, built from one template instead of pino's generic
// path (serializers, key walk, stringify per value), which cost several µs of a request that itself costs
// some twenty. The line is made two ways from the same template: as one string (`requestLineText`, for any
// stream), or written straight into the bytes of the stdout batch (`writeRequestLineBytes`, log-batch.ts),
// where what seldom changes between lines (the fixed text, the logger's bindings, the status part) is
// copied as bytes encoded once, the numbers are written as digits, and only the request's own values are
// written byte by byte (docs/benchmarks.md, The request path, eighth pass). test/lib/logger.test.ts proves
// the line alike to pino's, field for field, and test/lib/log-batch.test.ts the bytes alike to the string.

export interface RequestLineFields {
  /** The logger's bindings as pino serialised them (`,"pid":…,"hostname":…`, and a child's request id). */
  chindings: string;
  /** The request id, when the bindings do not already hold it. */
  id: string | undefined;
  method: string;
  /** Already redacted (logger.ts, redactUrl). */
  url: string;
  ip: string | undefined;
  status: number;
  /** The response time in ms. */
  ms: number;
}

// The template's fixed text, spelled once for both forms of the line.
const LEVEL_TIME = '{"level":30,"time":';
const REQ_ID = ',"reqId":';
const METHOD = ',"req":{"method":';
const URL = ',"url":';
const ADDRESS = ',"remoteAddress":';
const statusText = (status: number) => `},"res":{"statusCode":${status}},"responseTime":`;
const TAIL = ',"msg":"request completed"}\n';

/** The line as one string. */
export function requestLineText(f: RequestLineFields): string {
  const id = f.id === undefined ? '' : REQ_ID + jsonString(f.id);
  const ip = f.ip === undefined ? '' : ADDRESS + jsonString(f.ip);
  return (
    `${LEVEL_TIME}${Date.now()}${f.chindings}${id}${METHOD}${jsonString(f.method)}${URL}${jsonString(f.url)}${ip}` +
    `${statusText(f.status)}${millisText(f.ms)}${TAIL}`
  );
}

/**
 * The most bytes the line can take in UTF-8: the fixed text and the numbers, the bindings (three bytes a
 * UTF-16 unit at most) and every quoted value escaped at worst (`\u001f`, six bytes a unit).
 */
export function requestLineBound(f: RequestLineFields): number {
  return 256 + 3 * f.chindings.length + 6 * (f.method.length + f.url.length + (f.id?.length ?? 0) + (f.ip?.length ?? 0));
}

/**
 * Writes the line into `buffer` from `at`, which has room for `requestLineBound(f)` bytes; returns where
 * it ends. The same bytes as `requestLineText(f)` in UTF-8.
 */
export function writeRequestLineBytes(buffer: Buffer, at: number, f: RequestLineFields): number {
  let end = writeHead(buffer, at, f.chindings, f.id !== undefined);
  if (f.id !== undefined) end = quoted(buffer, end, f.id);
  end = put(buffer, end, METHOD_BYTES);
  end = quoted(buffer, end, f.method);
  end = put(buffer, end, URL_BYTES);
  end = quoted(buffer, end, f.url);
  if (f.ip !== undefined) {
    end = put(buffer, end, ADDRESS_BYTES);
    end = quoted(buffer, end, f.ip);
  }
  end = put(buffer, end, statusPart(f.status));
  end = millis(buffer, end, f.ms);
  return put(buffer, end, TAIL_BYTES);
}

const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const LEVEL_TIME_BYTES = bytes(LEVEL_TIME);
const REQ_ID_BYTES = bytes(REQ_ID);
const METHOD_BYTES = bytes(METHOD);
const URL_BYTES = bytes(URL);
const ADDRESS_BYTES = bytes(ADDRESS);
const TAIL_BYTES = bytes(TAIL);

/** Copies bytes encoded once (a native copy: quicker than a loop for all but the shortest). */
function put(buffer: Buffer, at: number, piece: Uint8Array): number {
  buffer.set(piece, at);
  return at + piece.length;
}

/** The time as text, written once per millisecond (most lines share it). */
const timeText = Buffer.alloc(32);
let timeLength = 0;
let timeOf = -1;
/** The logger's bindings as bytes, encoded again only when they change. */
let bindingsText = '';
let bindingsBytes = new Uint8Array(0);

/** The line's start up to the request id's value: `{"level":30,"time":<now><bindings>`, and `,"reqId":` when the id is written. */
function writeHead(buffer: Buffer, at: number, chindings: string, withId: boolean): number {
  let end = put(buffer, at, LEVEL_TIME_BYTES);
  const now = Date.now();
  if (now !== timeOf) {
    timeOf = now;
    timeLength = timeText.write(String(now), 0, 'latin1');
  }
  for (let i = 0; i < timeLength; i++) buffer[end + i] = timeText[i]!;
  end += timeLength;
  if (chindings !== bindingsText) {
    bindingsText = chindings;
    bindingsBytes = bytes(chindings);
  }
  end = put(buffer, end, bindingsBytes);
  return withId ? put(buffer, end, REQ_ID_BYTES) : end;
}

/** A non-negative integer's decimal digits, written at `at`; returns where they end. */
function digits(into: Uint8Array, at: number, n: number): number {
  let count = 1;
  for (let x = n; x >= 10; x = Math.floor(x / 10)) count++;
  let rest = n;
  for (let i = at + count - 1; i >= at; i--) {
    into[i] = 0x30 + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  return at + count;
}

/**
 * `},"res":{"statusCode":<status>},"responseTime":`, encoded once per status code (Node answers only with
 * whole numbers from 100 to 999, so there are at most 900).
 */
const STATUS_PARTS: (Uint8Array | undefined)[] = [];
function statusPart(status: number): Uint8Array {
  let made = STATUS_PARTS[status];
  if (made === undefined) {
    made = bytes(statusText(status));
    STATUS_PARTS[status] = made;
  }
  return made;
}

/**
 * `s` as a JSON string. Plain printable ASCII (request ids, addresses, most URLs) is copied byte by byte;
 * anything JSON must escape or that is not ASCII (the rule of NEEDS_ESCAPE below) is written by the JSON
 * serializer and encoded as UTF-8 instead, from the value's start.
 */
function quoted(buffer: Buffer, at: number, s: string): number {
  buffer[at] = 0x22;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return at + buffer.write(JSON.stringify(s), at, 'utf8');
    buffer[at + 1 + i] = c;
  }
  buffer[at + 1 + n] = 0x22;
  return at + n + 2;
}

/** A response time as `millisText` writes it, digits straight into the buffer. */
function millis(buffer: Buffer, at: number, ms: number): number {
  const us = Math.round(ms * 1000);
  if (!(us >= 0 && us < 2 ** 30)) return at + buffer.write(millisText(ms), at, 'latin1');
  let end = digits(buffer, at, Math.floor(us / 1000));
  const fraction = us % 1000;
  buffer[end++] = 0x2e;
  buffer[end++] = 0x30 + Math.floor(fraction / 100);
  buffer[end++] = 0x30 + (Math.floor(fraction / 10) % 10);
  buffer[end++] = 0x30 + (fraction % 10);
  return end;
}

/**
 * Anything JSON must escape (quote, backslash, control characters) or that is not plain ASCII: any
 * character outside printable ASCII (space to `~`), and the quote and the backslash within it. The byte
 * writer's `quoted` spells the same rule as comparisons.
 */
const NEEDS_ESCAPE = /[^ !#-[\]-~]/;

/** `s` as a JSON string: quoted as is when it holds nothing to escape (request ids, addresses, most URLs). */
const jsonString = (s: string): string => (NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`);

/** Three-digit fractions, `000` to `999`. */
const THOUSANDTHS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/**
 * A duration in ms as text to the microsecond (`0.052`, `12.300`), from integers: pino writes every digit
 * of the double, and converting it was a tenth of the line's cost.
 */
function millisText(ms: number): string {
  const us = Math.round(ms * 1000);
  // Anything else as JSON writes it (a number not finite is null).
  if (!(us >= 0 && us < 2 ** 30)) return JSON.stringify(ms);
  return `${Math.floor(us / 1000)}.${THOUSANDTHS[us % 1000]}`;
}
