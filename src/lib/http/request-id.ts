// The request id (docs/access-model.md, Wire conventions): every response carries it in `x-request-id`,
// every error body repeats it as `request_id`, and the logs name each request by it. A caller (or a proxy
// in front) may choose it by sending `x-request-id`; a value that is not short and plain is replaced.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What an incoming id must look like to be kept: it lands in logs and headers as it is. */
const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/;

export const newRequestId = (): string => randomUUID();

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
 * response (errors, not-found answers and hijacked streams included), then refuses a request target
 * that `refuse` names a reason for (the NUL guard, validation.ts), which then carries the id too.
 */
export function installRequestIdHeader(app: FastifyInstance, refuse?: (url: string) => Error | undefined): void {
  app.addHook('onRequest', (req, reply, done) => {
    reply.raw.setHeader(REQUEST_ID_HEADER, req.id);
    const refusal = refuse?.(req.url);
    if (refusal) return done(refusal);
    done();
  });
}
