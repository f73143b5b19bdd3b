// The request line (docs/security.md, Logs): what pino writes for `info({ reqId?, req, res, responseTime },
// 'request completed')` through the logger's serializers, built from one template instead of pino's generic
// path (serializers, key walk, stringify per value), which cost several µs of a request that itself costs
// some twenty. The template is written piece by piece to a sink: as one string (`requestLineText`), or
// straight into the bytes of the stdout batch (log-batch.ts), which spares the string, its copies and its
// encoding (docs/benchmarks.md, The request path, seventh pass). test/lib/logger.test.ts proves the line
// alike to pino's, field for field, and test/lib/log-batch.test.ts the bytes alike to the string.

/** Where a line is written: `text` already in JSON form, `quoted` a value to write as a JSON string. */
export interface LineSink {
  text(s: string): void;
  quoted(s: string): void;
}

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

export function writeRequestLine(sink: LineSink, f: RequestLineFields): void {
  sink.text('{"level":30,"time":');
  sink.text(nowText());
  sink.text(f.chindings);
  if (f.id !== undefined) {
    sink.text(',"reqId":');
    sink.quoted(f.id);
  }
  sink.text(',"req":{"method":');
  sink.quoted(f.method);
  sink.text(',"url":');
  sink.quoted(f.url);
  if (f.ip !== undefined) {
    sink.text(',"remoteAddress":');
    sink.quoted(f.ip);
  }
  sink.text('},"res":{"statusCode":');
  sink.text(String(f.status));
  sink.text('},"responseTime":');
  sink.text(millisText(f.ms));
  sink.text(',"msg":"request completed"}\n');
}

/**
 * The most bytes the line can take in UTF-8: the fixed text and the numbers, the bindings (three bytes a
 * UTF-16 unit at most) and every quoted value escaped at worst (`\u001f`, six bytes a unit).
 */
export function requestLineBound(f: RequestLineFields): number {
  return 256 + 3 * f.chindings.length + 6 * (f.method.length + f.url.length + (f.id?.length ?? 0) + (f.ip?.length ?? 0));
}

/** The line as one string. */
export function requestLineText(f: RequestLineFields): string {
  const sink = new TextSink();
  writeRequestLine(sink, f);
  return sink.out;
}

class TextSink implements LineSink {
  out = '';
  text(s: string): void {
    this.out += s;
  }
  quoted(s: string): void {
    this.out += jsonString(s);
  }
}

/**
 * Anything JSON must escape (quote, backslash, control characters) or that is not plain ASCII: any
 * character outside printable ASCII (space to `~`), and the quote and the backslash within it.
 */
const NEEDS_ESCAPE = /[^ !#-[\]-~]/;

/** `s` as a JSON string: quoted as is when it holds nothing to escape (request ids, addresses, most URLs). */
const jsonString = (s: string): string => (NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`);

let lastNow = 0;
let lastNowText = '0';
/** `Date.now()` as text, converted once per millisecond (the epoch in ms is not a small integer). */
function nowText(): string {
  const now = Date.now();
  if (now !== lastNow) {
    lastNow = now;
    lastNowText = String(now);
  }
  return lastNowText;
}

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
