// Webhooks the site connectors' providers call (Voyage Control gate events, doorbell rings) carry no
// Overlook credential: each is a public route whose caller proves itself with an HMAC-SHA256 signature,
// under the link's own webhook secret, of `<timestamp>.<raw body>`. A stale timestamp (more than five
// minutes off) is refused so a captured call cannot be replayed later; an event id seen before is refused
// by the link's delivery log (site-links.ts) so it cannot be replayed within the window either.
// Shared by the voyage-control and doorbell connectors.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../../lib/errors.js';

const WEBHOOK_TOLERANCE_SECONDS = 300;

/** `sha256=<hex>` (the `sha256=` is optional) of HMAC-SHA256(secret, `${timestamp}.${body}`). */
export function signWebhook(secret: string, timestamp: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
}

const refused = (why: string) => new ApiError('UNAUTHORIZED', `Webhook refused: ${why}`);

export function verifyWebhook(opts: {
  secret: string;
  timestamp: string | undefined;
  signature: string | undefined;
  /** The exact bytes received; undefined when no JSON body came (then there is nothing to verify). */
  rawBody: string | undefined;
  now?: number;
}): void {
  // Never verify against a stand-in: a signature over an empty body must not pass for a missing one.
  if (opts.rawBody === undefined) throw new ApiError('BAD_REQUEST', 'Webhook refused: a signed webhook carries a JSON body (Content-Type: application/json)');
  if (!opts.timestamp || !/^\d{1,12}$/.test(opts.timestamp)) throw refused('missing or malformed timestamp header');
  if (!opts.signature) throw refused('missing signature header');
  const age = Math.abs((opts.now ?? Date.now()) / 1000 - Number(opts.timestamp));
  if (age > WEBHOOK_TOLERANCE_SECONDS) throw refused(`timestamp is more than ${WEBHOOK_TOLERANCE_SECONDS} seconds from now (replayed or clock skew)`);
  const given = Buffer.from(opts.signature.replace(/^sha256=/, ''), 'utf8');
  const wanted = Buffer.from(signWebhook(opts.secret, opts.timestamp, opts.rawBody).slice('sha256='.length), 'utf8');
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) throw refused('signature does not match');
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The exact JSON text a signed webhook sent (the signature covers these bytes, not the parsed object). */
    webhookRawBody?: string;
  }
}

/**
 * Makes the routes of `fastify` (an encapsulated child context: register webhook routes inside it) keep
 * the raw JSON text next to the parsed body. Malformed JSON is a 400 like everywhere else.
 */
export function keepRawJson(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (req: FastifyRequest, body: string | Buffer, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    req.webhookRawBody = text;
    try {
      done(null, text.length ? JSON.parse(text) : {});
    } catch {
      done(new ApiError('VALIDATION_ERROR', 'The body is not valid JSON'), undefined);
    }
  });
}
