// The request id (docs/access-model.md, Wire conventions): every response carries it in `x-request-id`,
// every error body repeats it as `request_id`, and the logs name each request by it. A caller (or a proxy
// in front) may choose it by sending `x-request-id`; a value that is not short and plain is replaced.
import { randomFillSync } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyServerOptions } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What an incoming id must look like to be kept: it lands in logs and headers as it is. */
const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Random bytes drawn 4 kB at a time (256 ids), as `crypto.randomUUID` draws its own. */
const pool = Buffer.alloc(4096);
let pooled = 0;
/** The 36 characters of the id being made; hex digits at every place but the four dashes. */
const text = Buffer.from('00000000-0000-4000-8000-000000000000', 'latin1');
const HEX = Buffer.from('0123456789abcdef', 'latin1');
/** Where each of the 16 bytes goes in `text`. */
const PLACES = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

/**
 * A random (version 4) UUID, as `crypto.randomUUID` makes, but written out as one flat string.
 * `randomUUID` links 20 pieces of text, which the id header's check, the log line and the error body
 * each had to copy into one before reading it; that cost a few per cent of a small request
 * (docs/benchmarks.md, The request path, seventh pass).
 */
export function newRequestId(): string {
  if (pooled === 0) randomFillSync(pool);
  const at = pooled;
  pooled = (pooled + 16) % pool.length;
  for (let i = 0; i < 16; i++) {
    let byte = pool[at + i]!;
    // Byte 6 carries the version (4), byte 8 the variant (RFC 9562), as in any random UUID.
    if (i === 6) byte = (byte & 0x0f) | 0x40;
    else if (i === 8) byte = (byte & 0x3f) | 0x80;
    const place = PLACES[i]!;
    text[place] = HEX[byte >> 4]!;
    text[place + 1] = HEX[byte & 0x0f]!;
  }
  return text.toString('latin1', 0, 36);
}

/** Fastify options: the id of each request, taken from `x-request-id` when safe, otherwise a new UUID. */
export const requestIdOptions: Pick<FastifyServerOptions, 'genReqId' | 'requestIdHeader'> = {
  // Read here rather than by Fastify, which would take any value the header carries.
  requestIdHeader: false,
  genReqId: (req) => {
    const sent = req.headers[REQUEST_ID_HEADER];
    return typeof sent === 'string' && SAFE_ID.test(sent) ? sent : newRequestId();
  },
};

/**
 * The app's one onRequest hook (each hook costs on every request): puts the request id on every
 * response (errors and not-found answers included), then refuses a request target that `refuse` names a
 * reason for (the NUL guard, validation.ts), which then carries the id too. The id goes among the
 * reply's own headers, which Fastify hands to Node in one call: a header set on the raw response
 * beforehand sends Node down its slower path for every header of the answer (a few per cent of a small
 * request). A route that answers on the raw response takes it over with `hijack`, which moves the id there.
 */
export function installRequestIdHeader(app: FastifyInstance, refuse?: (url: string) => Error | undefined): void {
  app.addHook('onRequest', (req, reply, done) => {
    reply.header(REQUEST_ID_HEADER, req.id);
    const refusal = refuse?.(req.url);
    if (refusal) return done(refusal);
    done();
  });
}

/**
 * `reply.hijack()`, for a route that writes its answer on the raw response itself (a stream, another
 * library's handler): the request id goes on the raw response first, as Fastify no longer sends the
 * reply's headers. The only way a route hijacks its reply (test/lib/http/request-id.test.ts).
 */
export function hijack(reply: FastifyReply): void {
  reply.raw.setHeader(REQUEST_ID_HEADER, String(reply.request.id));
  reply.hijack();
}
