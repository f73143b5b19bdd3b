// The request id (docs/access-model.md, Wire conventions): every response carries it in `x-request-id`,
// every error body repeats it as `request_id`, and the logs name each request by it. A caller (or a proxy
// in front) may choose it by sending `x-request-id`; a value that is not short and plain is replaced.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyServerOptions } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What an incoming id must look like to be kept: it lands in logs and headers as it is. */
const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Fastify options: the id of each request, taken from `x-request-id` when safe, otherwise a new UUID. */
export const requestIdOptions: Pick<FastifyServerOptions, 'genReqId' | 'requestIdHeader'> = {
  // Read here rather than by Fastify, which would take any value the header carries.
  requestIdHeader: false,
  genReqId: (req) => {
    const sent = req.headers[REQUEST_ID_HEADER];
    return typeof sent === 'string' && SAFE_ID.test(sent) ? sent : randomUUID();
  },
};

/**
 * The app's one onRequest hook: puts the request id on every response (errors and not-found answers
 * included), then refuses a request target that `refuse` names a reason for (the NUL guard,
 * validation.ts), which then carries the id too. The id goes among the reply's own headers; a route that
 * answers on the raw response takes it over with `hijack`, which moves the id there.
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
